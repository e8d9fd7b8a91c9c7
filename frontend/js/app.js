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

import { makeT, pickLang, LANGS } from './i18n.js';
import * as api from './api.js';
import { homeScreen } from './screens/home.js';
import { playerScreen } from './screens/player.js';
import { hostScreen } from './screens/host.js';
import { protocolScreen } from './screens/protocol.js';

const app = {
  root: document.getElementById('app'),
  lang: 'en',
  t: makeT('en'),
  screen: null,
  session: null,
  draftName: '',
  // setLang switches the interface language; remember=false follows the game's
  // language without storing a personal choice.
  setLang(l, remember = true) {
    if (!LANGS.includes(l)) return;
    if (remember) api.prefs.setLang(l);
    app.lang = l;
    app.t = makeT(l);
    document.documentElement.lang = l;
    document.title = app.t('app.title');
    if (!remember && app.screen && app.screen.rerender) app.screen.rerender();
  },
  // go moves to another address inside the app.
  go(url, replaceState = false) {
    if (replaceState) history.replaceState(null, '', url);
    else history.pushState(null, '', url);
    route();
  },
};

app.setLang(api.prefs.lang() || pickLang(navigator.languages || [navigator.language]), false);

function route() {
  if (app.screen) app.screen.unmount();
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
  if (path === '/new' || path === '/new/') {
    app.screen = homeScreen(app, { auto: true });
    return;
  }
  if (hash.get('host')) {
    const code = api.normCode(hash.get('host'));
    const token = hash.get('t');
    if (token) {
      api.host.set(code, token);
      api.prefs.setLast({ code, kind: 'host' });
      // Keep the secret out of sight on a shared screen: it stays in localStorage.
      history.replaceState(null, '', '/#host=' + code);
    }
    app.screen = hostScreen(app, code, token || api.host.get(code));
    return;
  }
  if (hash.get('protocol')) {
    const code = api.normCode(hash.get('protocol'));
    app.screen = protocolScreen(app, code, api.host.get(code));
    return;
  }
  if (hash.get('screen')) {
    app.screen = hostScreen(app, api.normCode(hash.get('screen')), null);
    return;
  }
  app.screen = homeScreen(app);
}

window.addEventListener('popstate', route);
window.addEventListener('hashchange', route);

route();
