// The app: picks the screen from the address and keeps the language.
//
//   /                      home
//   /new?preset=…&lang=…   create a game at once (house rules as a link)
//   /join/CODE             a player's phone (the QR code's address)
//   /join/CODE#seat=KEY    a phone taking a seat moved to it (the host's reseat
//                          link; the key never leaves the fragment, and is
//                          dropped from the address once read)
//   /#host=CODE&t=TOKEN    the host's shared screen and controls (the token never
//                          leaves the fragment; it is kept in localStorage)
//   /#screen=CODE          the public shared screen, for a second display
//   /#protocol=CODE        the game's protocol: everyone's at the end, the
//                          moderator's live (with this device's host token)
//   /evening/CODE          a player's phone at a club's evening (its QR code)
//   /evening/CODE#seat=KEY a phone taking an evening place moved to it (the
//                          organiser's "Another phone")
//   /#evening=CODE&t=TOKEN the evening's organiser (the token is kept in
//                          localStorage, like the host's)
//   /#evening-screen=CODE  the evening's TV: schedule and standings
//
// A phone that scans a QR code loads only what it shows (issue 28): this
// module with the player's screen, and its language (i18n.js). The other
// screens are one module (screens/others.js), imported when a page shows one.

import { makeT, pickLang, LANGS, loadLang, loaded, onLoaded } from './i18n.js';
import * as api from './api.js';
import { playerScreen } from './screens/player.js';

const others = () => import('./screens/others.js');

const app = {
  root: document.getElementById('app'),
  lang: 'en',
  t: null, // set once the page's language is loaded, before the first screen
  screen: null,
  session: null,
  draftName: '',
  // setLang switches the interface language; remember=false follows the game's
  // language without storing a personal choice. A language not loaded yet
  // shows once it is, the screen drawn again in it; the promise resolves
  // then (at once for one loaded).
  setLang(l, remember = true) {
    if (!LANGS.includes(l)) return Promise.resolve();
    if (remember) api.prefs.setLang(l);
    if (!loaded(l)) {
      if (wanted === l && switching) return switching;
      wanted = l;
      switching = loadLang(l).then(() => {
        if (wanted !== l) return;
        useLang(l);
        rerender();
      }, () => { if (wanted === l) wanted = null; });
      return switching;
    }
    wanted = l;
    useLang(l);
    if (!remember) rerender();
    return Promise.resolve();
  },
  // go moves to another address inside the app.
  go(url, replaceState = false) {
    if (replaceState) history.replaceState(null, '', url);
    else history.pushState(null, '', url);
    route();
  },
};

// wanted is the language last asked for, which may be on its way (switching).
let wanted = null;
let switching = null;

function useLang(l) {
  app.lang = l;
  app.t = makeT(l);
  document.documentElement.lang = l;
  document.title = app.t('app.title');
}

function rerender() {
  if (app.screen && app.screen.rerender) app.screen.rerender();
}

// A language that arrives after a screen drew with it (the shared screen
// speaks the game's) has the screen drawn again.
onLoaded(() => { if (app.t) rerender(); });

// routed counts the routes taken: a screen that arrives after the page has
// moved on is not shown.
let routed = 0;

// later shows a screen of screens/others.js once it has loaded.
function later(show) {
  const n = routed;
  others().then((m) => {
    if (n === routed) app.screen = show(m);
  }, () => {
    if (n === routed) app.root.textContent = app.t('err.network');
  });
}

// tokenPage opens the page of a link that carries its secret
// (#name=CODE&t=TOKEN: a host's, an organiser's, a referee's): the token is
// kept in store (localStorage) and taken out of the address, out of sight on
// a shared screen, and a visit without it uses the one kept. The parameters
// named in also stay in the address and name the token kept with the code
// (a referee's table: one laptop may hold every table's page in its tabs).
// kept, if given, runs when a link brought a token.
function tokenPage(hash, name, store, open, { kept, also = [] } = {}) {
  const code = api.normCode(hash.get(name));
  const token = hash.get('t');
  const place = code + also.filter((k) => hash.get(k)).map((k) => `&${k}=${encodeURIComponent(hash.get(k))}`).join('');
  if (token) {
    store.set(place, token);
    if (kept) kept(code);
    history.replaceState(null, '', `/#${name}=${place}`);
  }
  open(code, token || store.get(place));
}

function route() {
  if (app.screen) app.screen.unmount();
  routed++;
  app.screen = null;
  app.session = null;
  window.scrollTo(0, 0);
  const path = location.pathname;
  const hash = new URLSearchParams(location.hash.replace(/^#/, ''));
  const join = path.match(/^\/join\/([A-Za-z0-9]+)\/?$/);
  if (join) {
    const seatKey = hash.get('seat');
    if (seatKey) history.replaceState(null, '', location.pathname); // a used key is no use on a reload
    app.screen = playerScreen(app, api.normCode(join[1]), seatKey);
    return;
  }
  const evening = path.match(/^\/evening\/([A-Za-z0-9]+)\/?$/);
  if (evening) {
    const seatKey = hash.get('seat');
    if (seatKey) history.replaceState(null, '', location.pathname); // a used key is no use on a reload
    later((m) => m.eveningPhone(app, api.normCode(evening[1]), seatKey));
    return;
  }
  if (path === '/new' || path === '/new/') {
    later((m) => m.homeScreen(app, { auto: true }));
    return;
  }
  if (hash.get('host')) {
    tokenPage(hash, 'host', api.host, (code, token) => later((m) => m.hostScreen(app, code, token)),
      { kept: (code) => api.prefs.setLast({ code, kind: 'host' }) });
    return;
  }
  if (hash.get('evening')) {
    tokenPage(hash, 'evening', api.organizer, (code, token) => later((m) => m.eveningScreen(app, code, token)));
    return;
  }
  if (hash.get('referee')) {
    tokenPage(hash, 'referee', api.referee, (code, token) => later((m) => m.refereeScreen(app, code, token)), { also: ['table'] });
    return;
  }
  if (hash.get('evening-screen')) {
    const code = api.normCode(hash.get('evening-screen'));
    later((m) => m.eveningScreen(app, code, null));
    return;
  }
  if (hash.get('protocol')) {
    const code = api.normCode(hash.get('protocol'));
    later((m) => m.protocolScreen(app, code, api.host.get(code)));
    return;
  }
  if (hash.get('screen')) {
    const code = api.normCode(hash.get('screen'));
    later((m) => m.hostScreen(app, code, null));
    return;
  }
  later((m) => m.homeScreen(app));
}

// The page's language (the one this browser chose, or its own), then the
// first screen. A join link looks its game up meanwhile.
const first = api.prefs.lang() || pickLang(navigator.languages || [navigator.language]);
const joining = location.pathname.match(/^\/join\/([A-Za-z0-9]+)\/?$/);
if (joining && !location.hash.includes('seat=')) {
  const code = api.normCode(joining[1]);
  const stored = api.seat.get(code);
  if (!stored || !stored.token) api.readEarly(code);
}
loadLang(first).catch(() => loadLang('en')).catch(() => {}).then(() => {
  app.setLang(loaded(first) ? first : 'en', false);
  if (!app.t) useLang('en'); // no language could be loaded: the keys show
  window.addEventListener('popstate', route);
  window.addEventListener('hashchange', route);
  route();
});
