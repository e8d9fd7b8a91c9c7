// A club's evening (docs/EVENING.md): the organiser's page, the TV's schedule
// and standings, and a player's phone between rounds. Each round's games are
// ordinary games: the phone goes to its seat by itself, the organiser opens a
// table's console or screen from here, and the standings count every game
// that ends.

import { h, replace } from '../dom.js';
import * as api from '../api.js';
import { Poller } from '../poll.js';
import { isolate } from '../story.js';
import { topbar, withLink, seatCodeForm } from '../ui.js';

// follow polls an evening for one viewer (token, or none for the public
// view): onView gets each new view, onFatal a final refusal (404, 401).
function follow(code, token, onView, onFatal) {
  const poller = new Poller({
    fetchView: (etag) => api.getEvening(code, token, etag),
    onView,
    onFatal,
    isHidden: () => document.visibilityState === 'hidden',
  });
  const onVisible = () => { if (document.visibilityState === 'visible') poller.now(); };
  document.addEventListener('visibilitychange', onVisible);
  poller.start();
  return {
    poller,
    stop() {
      poller.stop();
      document.removeEventListener('visibilitychange', onVisible);
    },
  };
}

// takeLang shows the page in the evening's language, unless this browser
// chose one.
function takeLang(app, v) {
  if (!api.prefs.lang() && v.lang && v.lang !== app.lang) app.setLang(v.lang, false);
}

// actionError words the refusal of an action on the evening (the
// organiser's, or a referee's extra points from the console).
export function actionError(app, res) {
  const c = api.errorCode(res);
  return app.t.has('evening.err.' + c) ? app.t('evening.err.' + c) : res.status === 0 ? app.t('err.network') : api.errorMessage(res) || app.t('err.generic');
}

// freeNames are the roster's names that no phone has taken, to take with a tap.
const freeNames = (v) => v.players.filter((p) => !p.joined && !p.absent);

// names maps the roster's ids to names.
const names = (v) => new Map((v.players || []).map((p) => [p.id, p.name]));

// points words a number of points as the page's language does, to two places
// at most (FIIM's tables count in tenths and hundredths).
function points(t, n) {
  return new Intl.NumberFormat(t.lang, { maximumFractionDigits: 2 }).format(n || 0);
}

// placeOf is a player's place in a round: {table, seat, game} or null when
// the player sits out (or the round is not drawn).
function placeOf(v, round, id) {
  const r = (v.rounds || [])[round - 1];
  if (!r) return null;
  for (const table of r.tables) {
    const i = table.players.indexOf(id);
    if (i >= 0) return { table: table.table, seat: i + 1, game: table.game };
  }
  return null;
}

// roundOver: every table of the round in play has ended (true before the
// first round).
function roundOver(v) {
  const r = (v.rounds || [])[v.round - 1];
  return !r || r.tables.every((table) => !table.game || table.over);
}

// tablesOf draws a round's tables, each with its players in seat order; me
// is marked. links, when given, are a table's ways to its game.
function tablesOf(t, v, round, { me, links } = {}) {
  const r = (v.rounds || [])[round - 1];
  if (!r) return null;
  const who = names(v);
  return h('div', { class: 'ev-tables' }, r.tables.map((table) => h('section', { class: ['ev-table', table.over && 'over'], dataset: { table: table.table, game: table.game || '' } },
    h('h3', null, t('evening.table', { table: table.table }), table.game ? h('span', { class: 'muted small' }, ' · ', h('span', { class: 'ev-code', lang: 'zxx' }, table.game)) : null,
      table.over && !table.uncounted ? h('span', { class: 'ev-done' }, ' ✓ ' + t('evening.table_over')) : null),
    // A game whose seats were not the seating's is over but left out of the
    // standings (docs/API.md): the room is told, and the evening goes on.
    table.uncounted ? h('p', { class: 'notice', role: 'status', dataset: { uncounted: '' } }, '⚠ ' + t('evening.uncounted')) : null,
    table.players.length
      ? h('ol', { class: 'ev-seats' }, table.players.map((id) => h('li', { class: id === me ? 'mine' : null, dataset: { player: id } }, h('bdi', null, who.get(id) || id))))
      : h('p', { class: 'muted' }, t('evening.table_closed')),
    links && table.game ? links(table) : null)),
  r.sitOut && r.sitOut.length ? h('p', { class: 'ev-sitout muted' }, t('evening.sit_out_list', { names: t.list(r.sitOut.map((id) => isolate(who.get(id) || id))) })) : null);
}

// standingsOf draws the standings: place, name, games, wins and points, the
// points' parts in a line below each name; me is marked.
function standingsOf(t, v, me) {
  const rows = v.standings || [];
  const hidden = v.hiddenFrom ? h('p', { class: 'notice', role: 'status' }, t(v.organizer ? 'evening.hidden.organizer' : 'evening.hidden', { round: v.hiddenFrom })) : null;
  if (!rows.length) return [hidden, h('p', { class: 'muted' }, t('evening.standings.none'))];
  const cols = ['place', 'player', 'games', 'wins', 'points'];
  return [hidden, h('div', { class: 'ev-standings', role: 'table', 'aria-label': t('evening.standings') },
    h('div', { class: 'ev-row head', role: 'row' }, cols.map((c) => h('span', { role: 'columnheader', class: 'c-' + c }, t('evening.col.' + c)))),
    rows.map((s) => h('div', { class: ['ev-row', s.player === me && 'mine'], role: 'row', dataset: { player: s.player, total: s.points.total } },
      h('span', { role: 'cell', class: 'c-place' }, String(s.place)),
      h('span', { role: 'cell', class: 'c-player' }, h('bdi', null, s.name),
        h('span', { class: 'ev-sum muted small' }, t('evening.games_wins', { games: s.games, wins: s.wins })),
        h('span', { class: 'ev-parts muted small' }, parts(t, s))),
      h('span', { role: 'cell', class: 'c-games' }, String(s.games)),
      h('span', { role: 'cell', class: 'c-wins' }, String(s.wins)),
      h('strong', { role: 'cell', class: 'c-points' }, points(t, s.points.total)))))];
}

// parts words the parts of a player's points that are not nothing.
function parts(t, s) {
  const p = s.points;
  const out = [];
  for (const k of ['win', 'bestMove', 'extra', 'autoBonus', 'compensation']) {
    if (p[k]) out.push(t('evening.part.' + k, { points: points(t, p[k]) }));
  }
  if (p.penalty) out.push(t('evening.part.penalty', { points: points(t, Math.abs(p.penalty)) }));
  return out.length ? ' ' + out.join(' · ') : '';
}

// schedule is the whole seating, a round a section: the TV shows it, and
// it prints on one A4 page a round (app.css, @media print).
function schedule(t, v, me) {
  if (!(v.rounds || []).length) return null;
  return h('section', { class: 'ev-schedule' },
    h('h2', null, t('evening.schedule')),
    v.quality ? h('p', { class: 'muted small' }, t('evening.quality', { score: points(t, v.quality.score), random: points(t, v.quality.random) })) : null,
    v.rounds.map((r) => h('section', { class: ['ev-round', r.round === v.round && 'now'], dataset: { round: r.round } },
      h('h3', { class: 'ev-round-title' }, t('evening.round_of', { round: r.round, rounds: v.roundCount }), ' · ', t('evening.title', { code: v.code })),
      tablesOf(t, v, r.round, { me }))));
}

// eveningScreen is the evening's page on the organiser's device (token) or,
// without one, the TV's: the QR code to join, the round in play, the
// standings and the schedule. The organiser's has the controls: start a
// round, each table's console and screen, the roster's changes, the
// referee's extra points, the hidden standings and the downloads.
export function eveningScreen(app, code, token) {
  let view = null;
  let fatal = null;
  let error = null; // the last action's refusal, as words
  let busy = false;
  let recorded = false; // the last round's games were counted once
  const form = { late: '', swapA: '', swapB: '', extra: null };
  // link is the one-time link this page made to move a player's evening
  // place to another phone (the answer to its reseat, docs/API.md), shown as
  // a QR code until the organiser hides it. No other page has it: the server
  // keeps only a hash of its key, and no view but that answer holds it.
  let link = null;
  // refereeLinks are the tables' referee links shown as QR codes, by table,
  // while the organiser shows them (refereesPanel).
  const refereeLinks = new Map();
  let watch = start();

  function start() {
    return follow(code, token, (v) => {
      view = v;
      if (link && token && !(v.moving || []).includes(link.target)) link = null; // taken, or closed
      takeLang(app, v);
      // After the last round the games are counted for good: a read shows
      // them counted, but only a write keeps them past their own 48 hours.
      if (token && v.round === v.roundCount && roundOver(v) && !recorded) {
        recorded = true;
        act({ type: 'record' });
      }
      render();
    }, (status) => {
      if (status === 401 && token) {
        token = null; // a token forgotten or of another evening: the TV's view
        watch.stop();
        watch = start();
        return;
      }
      fatal = status;
      render();
    });
  }

  async function act(a) {
    busy = true;
    error = null;
    render();
    const res = await api.eveningAction(code, token, a);
    busy = false;
    if (res.status === 200 && res.body) {
      watch.poller.accept(res.body);
      view = res.body;
    } else {
      error = actionError(app, res);
    }
    render();
    return res;
  }

  function render() {
    const t = app.t;
    const bar = topbar(t, { code, lang: app.lang, onLang: (l) => { app.setLang(l); render(); } });
    let content;
    if (fatal) {
      content = h('section', { class: 'card dead-end' }, h('p', { class: 'error', role: 'alert' }, t(fatal === 404 ? 'evening.not_found' : 'err.generic', { code })),
        h('div', { class: 'ways' }, h('a', { class: 'button secondary', href: '/' }, t('common.home'))));
    } else if (!view) {
      content = h('p', { class: 'loading', role: 'status' }, '…');
    } else {
      content = token ? organizerPage(t, view) : tvPage(t, view);
    }
    // h leaves out the parts a page does not have (null); append() would
    // write them out as the word "null".
    replace(app.root, bar, h('main', { class: ['evening', token ? 'organizer' : 'tv', busy && 'busy'], dataset: { screen: token ? 'evening_organizer' : 'evening_tv', round: view ? view.round : '' } }, content));
  }

  function head(t, v) {
    return h('header', { class: 'ev-head' },
      h('h1', null, t('evening.title', { code: v.code })),
      h('p', { class: 'chips muted' },
        h('span', null, t('preset.' + ((v.rules && v.rules.preset) || 'custom'))),
        h('span', null, t('evening.size', { tables: v.tables, rounds: v.roundCount })),
        h('span', { dataset: { progress: v.round } }, v.round ? t('evening.round_of', { round: v.round, rounds: v.roundCount }) : t('evening.not_started'))));
  }

  function joinPanel(t, big) {
    // The address phones reach, as the QR code holds it (the view's joinUrl):
    // a laptop's own page may be open at localhost.
    const url = (view && view.joinUrl) || `${location.origin}/evening/${code}`;
    return h('section', { class: ['join-panel', big ? 'ev-join-big' : 'panel'] },
      h('h2', { class: big ? 'scan-title' : null }, t('evening.scan')),
      h('img', { class: big ? 'qr' : 'small-qr', src: api.eveningQr(code), alt: t('evening.qr_alt', { code }), width: big ? '480' : '200', height: big ? '480' : '200' }),
      h('p', { class: 'join-url' }, withLink(t, 'host.or_open', url)));
  }

  function tvPage(t, v) {
    const joined = (v.players || []).filter((p) => !p.absent);
    if (!v.round) {
      return [h('div', { class: 'lobby-grid' }, joinPanel(t, true),
        h('section', { class: 'panel' }, head(t, v), h('h2', null, t('evening.roster', { count: joined.length })),
          h('ul', { class: 'ev-roster' }, joined.map((p) => h('li', { dataset: { player: p.id } }, h('bdi', null, p.name), p.joined ? h('span', { class: 'muted small' }, ' · ' + t('evening.joined')) : null)))))];
    }
    // Between rounds the room looks for where to sit next: the next
    // round's tables come first, above the fold of a TV nobody scrolls;
    // after the last round, that the evening is over.
    const over = roundOver(v);
    const shown = over && v.round < v.roundCount ? v.round + 1 : v.round;
    return [head(t, v),
      over && v.round === v.roundCount ? h('p', { class: 'big-line ev-over', role: 'status' }, t('evening.over')) : null,
      h('div', { class: 'ev-now' },
        h('section', { class: 'panel ev-current', dataset: { shows: shown } },
          h('h2', null, t(shown > v.round ? 'evening.next_tables' : 'evening.round_of', { round: shown, rounds: v.roundCount })), tablesOf(t, v, shown)),
        h('section', { class: 'panel' }, h('h2', null, t('evening.standings')), standingsOf(t, v))),
      schedule(t, v)].filter(Boolean);
  }

  function organizerPage(t, v) {
    const over = roundOver(v);
    const next = v.round < v.roundCount;
    // Before the draw, the tables' fewest players: the first round waits for them.
    const need = v.round ? 0 : v.tables * v.rules.minPlayers;
    const missing = Math.max(0, need - v.players.filter((p) => !p.absent).length);
    const startButton = next
      ? h('button', { type: 'button', class: 'primary big', disabled: busy || !over || missing > 0, dataset: { action: 'start_round' }, onclick: () => act({ type: 'start_round' }) },
        t('evening.start', { round: v.round + 1 }))
      : null;
    const tableLinks = (table) => h('p', { class: 'ev-links' },
      h('a', { class: 'button secondary', href: refereeHref(v, table.table), target: '_blank', rel: 'noopener', dataset: { action: 'console', game: table.game } }, t('evening.console')),
      h('a', { class: 'button secondary', href: '/#screen=' + table.game, target: '_blank', rel: 'noopener' }, t('evening.screen')));
    return [head(t, v),
      h('section', { class: 'card ev-control', dataset: { screen: 'evening_control' } },
        error ? h('p', { class: 'error', role: 'alert' }, error) : null,
        startButton,
        next && !over ? h('p', { class: 'muted' }, t('evening.wait_tables')) : null,
        !next && over ? h('p', { class: 'big-line' }, t('evening.over')) : null,
        missing ? h('p', { class: 'ev-need', dataset: { missing } }, t('evening.need', { need, missing })) : null,
        v.round ? null : h('p', { class: 'muted' }, t('evening.start.help'))),
      v.round ? h('section', { class: 'card ev-current' }, h('h2', null, t('evening.round_of', { round: v.round, rounds: v.roundCount })), tablesOf(t, v, v.round, { links: tableLinks })) : null,
      h('div', { class: 'ev-now' },
        h('section', { class: 'panel' }, h('h2', null, t('evening.standings')), standingsOf(t, v),
          h('button', { type: 'button', class: 'secondary', disabled: busy, dataset: { action: v.hiddenFrom ? 'show_standings' : 'hide_standings' }, onclick: () => act({ type: v.hiddenFrom ? 'show_standings' : 'hide_standings' }) },
            t(v.hiddenFrom ? 'evening.show' : 'evening.hide'))),
        joinPanel(t, false)),
      link ? reseatPanel(t, v) : null,
      refereesPanel(t, v),
      rosterPanel(t, v),
      v.round ? extraPanel(t, v) : null,
      schedule(t, v),
      h('section', { class: 'panel ev-files' }, h('h2', null, t('evening.files')),
        h('p', { class: 'ways' },
          h('button', { type: 'button', class: 'secondary', dataset: { action: 'print' }, onclick: () => window.print() }, t('evening.print')),
          h('a', { class: 'button secondary', href: '/#evening-screen=' + code, target: '_blank', rel: 'noopener', dataset: { action: 'tv' } }, t('evening.tv')),
          file(`/api/evenings/${code}/record`, `evening-${code}.json`, t('evening.record_json'), 'JSON'),
          file(`/api/evenings/${code}/record?format=csv`, `evening-${code}.csv`, t('evening.record_csv'), 'CSV'),
          file(`/api/evenings/${code}/export?format=mafiaratings`, `evening-${code}-mafiaratings.json`, t('evening.export'), 'mafiaratings')))];
  }

  // file is a download of the evening, named in words and by its format (a
  // name of no language: lang="zxx").
  function file(href, name, words, format) {
    return h('a', { class: 'button secondary', href, download: name }, words, ' ', h('span', { lang: 'zxx', class: 'muted' }, format));
  }

  // reseat moves a player's evening place to another phone (a phone that
  // died, a substitute): the answer holds the link, whose QR code the page
  // shows (reseatPanel). The picture comes in the answer, so the key is in no
  // address this page asks for. The game seat in play moves apart, from the
  // table's console ("A phone died?"): this moves the rounds after it.
  async function reseat(id) {
    const res = await act({ type: 'reseat', player: id });
    if (res.status === 200 && res.body && res.body.reseat) {
      link = res.body.reseat;
      render();
    }
  }

  // reseatPanel shows the link reseat made, until the organiser hides it.
  function reseatPanel(t, v) {
    const name = isolate(names(v).get(link.target) || link.target);
    const until = new Intl.DateTimeFormat(t.lang, { hour: '2-digit', minute: '2-digit' }).format(new Date(link.expiresAt));
    return h('section', { class: 'panel reseat-link', dataset: { screen: 'evening_reseat', target: link.target } },
      h('h2', null, t('evening.reseat.scan', { name })),
      link.qr ? h('img', { class: 'qr', src: link.qr, alt: t('evening.reseat.qr_alt', { name }), width: '320', height: '320' })
        : h('p', { class: 'join-url' }, link.url), // no picture came: the address, to send on
      h('p', { class: 'muted' }, t('evening.reseat.once', { time: until })),
      h('button', { type: 'button', class: 'secondary', dataset: { action: 'reseat_done' }, onclick: () => { link = null; render(); } }, t('evening.reseat.done')));
  }

  // refereeHref is table's referee page (a table's console link for the
  // whole evening: it opens the table's game in play, round after round),
  // with the table's referee token, which hosts that table's games only.
  function refereeHref(v, table) {
    const r = (v.referees || []).find((x) => x.table === table);
    return r ? `/#referee=${code}&table=${table}&t=${encodeURIComponent(r.token)}` : '#';
  }

  // refereesPanel: who moderates each table from the next round on (the app,
  // or a referee), and each table's referee link, as a QR code for the
  // referee's phone once the organiser asks for it (everyone may see this
  // page's screen), hidden again with a tap.
  function refereesPanel(t, v) {
    const open = v.round < v.roundCount;
    return h('section', { class: 'panel ev-referees', dataset: { screen: 'evening_referees' } },
      h('h2', null, t('evening.referees')),
      open ? h('p', { class: 'muted small' }, t('evening.moderator.help')) : null,
      h('ul', { class: 'ev-referee-list' }, (v.referees || []).map((r) => {
        const qr = refereeLinks.get(r.table);
        return h('li', { dataset: { table: r.table, moderator: r.moderator } },
          h('label', { class: 'field' }, h('span', { class: 'field-label' }, t('evening.table', { table: r.table })),
            h('select', { disabled: busy || !open, dataset: { focus: 'moderator-' + r.table, action: 'set_moderator' }, onchange: (e) => { refereeLinks.delete(r.table); act({ type: 'set_moderator', table: r.table, moderator: e.target.value }); } },
              ['host', 'app'].map((m) => h('option', { value: m, selected: r.moderator === m }, t('evening.moderator.' + m))))),
          qr
            ? [h('img', { class: 'small-qr', src: qr, alt: t('evening.referee.qr_alt', { table: r.table }), width: '200', height: '200' }),
              h('p', { class: 'muted small' }, t('evening.referee.once')),
              h('button', { type: 'button', class: 'secondary small', dataset: { action: 'hide_referee', table: r.table }, onclick: () => { refereeLinks.delete(r.table); render(); } }, t('evening.referee.hide'))]
            : h('button', { type: 'button', class: 'secondary small', dataset: { action: 'show_referee', table: r.table }, onclick: () => showReferee(r.table) }, t('evening.referee.show')),
          // A referee who left, or a phone lost with the link: the link is
          // withdrawn, and a new one hosts the table's game from then on.
          h('button', { type: 'button', class: 'secondary small', disabled: busy, dataset: { action: 'new_referee', table: r.table },
            onclick: () => { if (window.confirm(t('evening.referee.new.confirm', { table: r.table }))) { refereeLinks.delete(r.table); act({ type: 'new_referee', table: r.table }); } } },
          t('evening.referee.new')));
      })));
  }

  async function showReferee(table) {
    const qr = await api.refereeQr(code, table, token);
    if (qr) refereeLinks.set(table, qr);
    else error = app.t('err.network');
    render();
  }

  // rosterPanel: who is on the roster, who joined by phone, and the changes
  // before a round begins: a player gone, one come late, two swapped; and,
  // at any time, a player's place moved to another phone.
  function rosterPanel(t, v) {
    const open = v.round < v.roundCount;
    const present = v.players.filter((p) => !p.absent);
    const pick = (key, label) => h('select', { 'aria-label': label, dataset: { focus: key }, onchange: (e) => { form[key] = e.target.value; } },
      h('option', { value: '' }, '—'), present.map((p) => h('option', { value: p.id, selected: form[key] === p.id }, p.name)));
    return h('section', { class: 'panel ev-roster-panel' },
      h('h2', null, t('evening.roster', { count: present.length })),
      // The door: who may put a new name on the roster (docs/API.md).
      open ? h('p', { class: 'ev-door', dataset: { door: v.rosterClosed ? 'closed' : 'open' } },
        h('span', { class: 'muted' }, t(v.rosterClosed ? 'evening.door.closed' : 'evening.door.open')), ' ',
        h('button', { type: 'button', class: 'secondary small', disabled: busy, dataset: { action: v.rosterClosed ? 'open_roster' : 'close_roster' }, onclick: () => act({ type: v.rosterClosed ? 'open_roster' : 'close_roster' }) },
          t(v.rosterClosed ? 'evening.door.open_it' : 'evening.door.close_it'))) : null,
      h('ul', { class: 'ev-roster' }, v.players.map((p) => h('li', { class: p.absent ? 'absent' : null, dataset: { player: p.id } },
        h('bdi', null, p.name), ' ', h('span', { class: 'muted small' }, p.absent ? t('evening.absent') : (v.moving || []).includes(p.id) ? t('evening.moving') : p.joined ? t('evening.joined') : t('evening.typed')),
        open && !p.absent ? h('button', { type: 'button', class: 'secondary small', disabled: busy, dataset: { action: 'absent', player: p.id }, 'aria-label': t('evening.absent.do', { name: isolate(p.name) }), onclick: () => { if (window.confirm(t('evening.absent.confirm', { name: isolate(p.name) }))) act({ type: 'absent', player: p.id }); } }, t('evening.absent.button')) : null,
        p.absent ? null : h('button', { type: 'button', class: 'secondary small', disabled: busy, dataset: { action: 'reseat', player: p.id }, 'aria-label': t('evening.reseat.do', { name: isolate(p.name) }), onclick: () => reseat(p.id) }, t('evening.reseat.button'))))),
      open ? h('form', { class: 'ev-late', onsubmit: (e) => { e.preventDefault(); if (form.late.trim()) act({ type: 'late', name: form.late.trim().normalize('NFC') }).then((res) => { if (res.status === 200) { form.late = ''; render(); } }); } },
        h('label', { class: 'field' }, h('span', { class: 'field-label' }, t('evening.late')),
          h('input', { type: 'text', maxlength: '64', value: form.late, dataset: { focus: 'late' }, oninput: (e) => { form.late = e.target.value; } })),
        h('button', { type: 'submit', class: 'secondary', disabled: busy, dataset: { action: 'late' } }, t('evening.late.button'))) : null,
      open && v.round ? h('form', { class: 'ev-swap', onsubmit: (e) => { e.preventDefault(); if (form.swapA && form.swapB) act({ type: 'swap', players: [form.swapA, form.swapB] }); } },
        h('p', { class: 'field-label' }, t('evening.swap')), pick('swapA', t('evening.swap.first')), pick('swapB', t('evening.swap.second')),
        h('button', { type: 'submit', class: 'secondary', disabled: busy, dataset: { action: 'swap' } }, t('evening.swap.button'))) : null);
  }

  // extraPanel: the referee's extra points for a player of a game of the
  // round in play, with the reason a club reads out.
  function extraPanel(t, v) {
    const who = names(v);
    // The players of the round by table, each table a group of the choice:
    // a name alone fits a phone's width.
    const groups = v.rounds[v.round - 1].tables.filter((table) => table.game).map((table) => ({
      label: t('evening.table', { table: table.table }),
      seats: table.players.map((id) => ({ game: table.game, id, name: who.get(id) || id })),
    }));
    form.extra = form.extra || {};
    return h('section', { class: 'panel ev-extra' },
      h('h2', null, t('evening.extra')),
      extraForm(t, groups, form.extra, busy, (extra) => act({ type: 'extra', ...extra }).then((res) => {
        if (res.status === 200) { form.extra = null; render(); }
      })));
  }

  return {
    unmount() { watch.stop(); },
    rerender: render,
  };
}

// extraForm is the form of the referee's extra points: a player of groups
// ([{label, seats: [{game, id, name}]}], one group a table), the points
// within FIIM's bound, the worst move (which takes the player's auto-bonus
// away) and the reason a club reads out. f keeps what is typed across
// redraws; send gets {game, player, points, worstMove, reason}. The organiser's
// page has it for every table of the round, a referee's console for its own
// game (host.js).
export function extraForm(t, groups, f, busy, send) {
  const seats = groups.flatMap((g) => g.seats);
  f.seat = f.seat || '';
  f.points = f.points || '';
  f.reason = f.reason || '';
  let i = 0;
  const options = groups.map((g) => h('optgroup', { label: g.label }, g.seats.map((seat) => {
    const value = String(i++);
    return h('option', { value, selected: f.seat === value }, seat.name);
  })));
  // The points are typed as the language writes them ("0,3" as the label
  // "от −0,7 до 0,7" shows, or "0.3", a minus sign or a hyphen): a text field,
  // since a number field drops a decimal comma where the page's language has
  // a point. What cannot be read as a number says so, and sends nothing.
  const points = h('input', {
    type: 'text', inputmode: 'decimal', autocomplete: 'off', value: f.points, dataset: { focus: 'extra-points' },
    oninput: (e) => { f.points = e.target.value; e.target.setCustomValidity(''); },
  });
  return h('form', { class: 'ev-extra-form', onsubmit: (e) => {
    e.preventDefault();
    const seat = seats[Number(f.seat)];
    const typed = String(f.points).trim().replace(/^[−–]/, '-').replace(',', '.');
    const n = /^[-+]?(\d+\.?\d*|\.\d+)$/.test(typed) ? Number(typed) : NaN;
    if (f.seat === '' || !seat) return;
    if (!Number.isFinite(n)) {
      points.setCustomValidity(t('evening.err.invalid_extra'));
      points.reportValidity();
      return;
    }
    send({ game: seat.game, player: seat.id, points: n, worstMove: !!f.worst, reason: f.reason.trim() });
  } },
  h('label', { class: 'field' }, h('span', { class: 'field-label' }, t('evening.extra.player')),
    h('select', { dataset: { focus: 'extra-seat' }, onchange: (e) => { f.seat = e.target.value; } }, h('option', { value: '' }, '—'), options)),
  h('label', { class: 'field' }, h('span', { class: 'field-label' }, t('evening.extra.points')),
    points),
  h('label', { class: 'choice ev-worst' }, h('input', { type: 'checkbox', checked: !!f.worst, dataset: { focus: 'extra-worst' }, onchange: (e) => { f.worst = e.target.checked; } }), ' ', t('evening.extra.worst')),
  h('label', { class: 'field' }, h('span', { class: 'field-label' }, t('evening.extra.reason')),
    h('input', { type: 'text', maxlength: '200', value: f.reason, dataset: { focus: 'extra-reason' }, oninput: (e) => { f.reason = e.target.value; } })),
  h('button', { type: 'submit', class: 'secondary', disabled: busy, dataset: { action: 'extra' } }, t('evening.extra.button')));
}

// eveningPhone is a player's phone at /evening/CODE: it joins the evening
// once with a name, then shows where the player sits in the round in play
// and goes to that seat by itself, as "play again" does; between rounds the
// standings and the next table. seatKey, when the page was opened by the
// organiser's "Another phone" link (/evening/CODE#seat=KEY), takes the place
// that link moves to this phone instead.
export function eveningPhone(app, code, seatKey) {
  let seat = api.eveningSeat.get(code);
  let view = null;
  let watch = null;
  let joinError = null;
  let joining = false;
  let taking = false; // a seat key is on its way
  let askCode = null; // {key, wrong}: the seat's code is asked for the key
  let joinId = api.newId();
  let draft = '';

  // lookUp reads the public view: the roster's names not yet taken are
  // offered to tap.
  // The form is drawn once: when other phones take names, only the names it
  // offers change, so that nothing moves under a typing finger.
  function lookUp() {
    let shown = false;
    watch = follow(code, null, (v) => {
      view = v;
      if (shown && document.contains(names.box)) names.fill(app.t, freeNames(v));
      else render();
      shown = true;
    }, (status) => { joinError = status === 404 ? 'evening.not_found' : 'err.generic'; render(); });
    render();
  }

  // names are the join form's names to take with a tap, below its field and
  // button, which they never move.
  const names = {
    box: null,
    fill(t, free) {
      const key = free.map((p) => p.id).join();
      if (this.box.dataset.names === key) return;
      this.box.dataset.names = key;
      replace(this.box, free.length ? [h('p', { class: 'field-label' }, t('evening.join.pick')),
        h('div', { class: 'ev-names' }, free.map((p) => h('button', { type: 'button', class: 'secondary', disabled: joining, dataset: { action: 'take_name', player: p.id }, onclick: () => join(p.name) }, h('bdi', null, p.name))))] : null);
    },
  };

  function watchAs(token) {
    if (watch) watch.stop();
    watch = follow(code, token, (v) => {
      view = v;
      takeLang(app, v);
      const you = v.you;
      const place = you && you.game ? (v.rounds[v.round - 1].tables.find((table) => table.game === you.game) || {}) : {};
      if (you && you.game && you.gameToken && !place.over && seat.went !== you.game) {
        goPlay(you);
        return;
      }
      render();
    }, (status) => {
      if (status === 401) {
        api.eveningSeat.clear(code); // the evening no longer knows this phone
        seat = null;
        joinError = 'evening.err.lost';
        lookUp();
        return;
      }
      joinError = status === 404 ? 'evening.not_found' : 'err.generic';
      render();
    });
  }

  // goPlay takes the phone to its seat in the round's game: the seat's token
  // is the game's, and the game's page shows the way back here at its end.
  function goPlay(you) {
    seat = { ...seat, went: you.game };
    api.eveningSeat.set(code, seat);
    // A seat this phone took in that game by the game's own link (the
    // console's "A phone died?") has a token of its own, which the evening's
    // game token no longer opens: the phone keeps it, and learns only the
    // way back here.
    const held = api.seat.get(you.game);
    api.seat.set(you.game, held && held.token && (held.moved || !held.evening)
      ? { ...held, evening: code, moved: true }
      : { token: you.gameToken, name: you.name, playerId: '', evening: code });
    api.prefs.setLast({ code: you.game, kind: 'player' });
    app.go('/join/' + you.game);
  }

  // takePlace takes the place the organiser's link moved to this phone
  // (docs/API.md, "A place on a new phone"): a new token for the player, whose
  // old phone is out of the evening from then on, and of the seat in play; this
  // phone's own place, if it had one, gives way to it. A seat whose card is
  // dealt moves with the seat's code, which is asked for. A key refused says
  // why, over the join form.
  async function takePlace(key, seatCode) {
    taking = true;
    askCode = null;
    joinError = null;
    render();
    const res = await api.takeEveningPlace(code, key, api.newId(), seatCode);
    taking = false;
    if (res.status === 201 && res.body && res.body.token) {
      const v = res.body.evening;
      const mine = ((v && v.players) || []).find((p) => p.id === res.body.playerId);
      seat = { playerId: res.body.playerId, token: res.body.token, name: mine ? mine.name : '' };
      api.eveningSeat.set(code, seat);
      view = v;
      watchAs(seat.token);
      render();
      return;
    }
    const c = api.errorCode(res);
    if (c === 'seat_code_needed' || c === 'seat_code_wrong') {
      askCode = { key, wrong: c === 'seat_code_wrong' };
      render();
      return;
    }
    joinError = app.t.has('evening.err.' + c) ? 'evening.err.' + c : res.status === 404 ? 'evening.not_found' : res.status === 0 ? 'err.network' : 'err.generic';
    // A phone that had its own place keeps it, and says why the link did not
    // work; any other shows the join form under the message.
    if (seat && seat.token) watchAs(seat.token);
    else lookUp();
  }

  async function join(name) {
    name = name.trim().normalize('NFC');
    if (!name || joining) return;
    joining = true;
    joinError = null;
    render();
    const res = await api.joinEvening(code, name, joinId);
    joining = false;
    if ((res.status === 201 || res.status === 200) && res.body && res.body.token) {
      seat = { playerId: res.body.playerId, token: res.body.token, name };
      api.eveningSeat.set(code, seat);
      view = res.body.evening;
      watchAs(seat.token);
      render();
      return;
    }
    joinId = api.newId(); // refused: the next name is a new join
    const c = api.errorCode(res);
    joinError = app.t.has('evening.err.' + c) ? 'evening.err.' + c : app.t.has('err.' + c) ? 'err.' + c : res.status === 404 ? 'evening.not_found' : res.status === 0 ? 'err.network' : 'err.generic';
    render();
  }

  function render() {
    const t = app.t;
    const bar = topbar(t, { code, who: seat && seat.name ? h('bdi', null, seat.name) : null, lang: app.lang, onLang: (l) => { app.setLang(l); render(); } });
    let content;
    // The form waits for the evening's first view, so that nothing it shows
    // moves the field and the button once they are there.
    if (taking) content = h('p', { class: 'loading', role: 'status' }, t('evening.reseat.taking'));
    else if (askCode) {
      const { key } = askCode;
      content = seatCodeForm(t, askCode.wrong, (seatCode) => takePlace(key, seatCode));
    }
    else if (!seat && (view || joinError)) content = joinCard(t);
    else if (!view) content = h('p', { class: 'loading', role: 'status' }, '…');
    else content = placeCards(t, view);
    replace(app.root, bar, h('main', { class: 'phone evening', dataset: { screen: seat ? 'evening_phone' : 'evening_join', round: view ? view.round : '' } }, content));
  }

  function joinCard(t) {
    names.box = h('div', { class: 'ev-free' });
    names.fill(t, view ? freeNames(view) : []);
    const input = h('input', { id: 'ev-name', name: 'name', type: 'text', maxlength: '64', autocomplete: 'nickname', enterkeyhint: 'go', value: draft, dataset: { focus: 'ev-name' }, oninput: (e) => { draft = e.target.value; } });
    return h('form', { class: 'card join', dataset: { screen: 'evening_join' }, onsubmit: (e) => { e.preventDefault(); join(draft); } },
      h('h1', null, t('evening.join.title', { code })),
      view ? h('p', { class: 'muted' }, t('evening.size', { tables: view.tables, rounds: view.roundCount })) : null,
      joinError ? h('p', { class: 'error', role: 'alert', dataset: { error: joinError } }, t(joinError, { code })) : null,
      h('label', { class: 'field-label', for: 'ev-name' }, t('evening.join.name')), input,
      h('button', { type: 'submit', class: 'primary big', disabled: joining, dataset: { action: 'join_evening' } }, t(joining ? 'join.joining' : 'evening.join.button')),
      names.box);
  }

  function placeCards(t, v) {
    const me = seat.playerId;
    const you = v.you || {};
    let now;
    if (!v.round) {
      now = h('section', { class: 'card ev-place', dataset: { place: 'waiting' } }, h('h1', null, t('evening.waiting')), h('p', null, t('evening.waiting.help')));
    } else if (you.table) {
      const table = v.rounds[v.round - 1].tables.find((x) => x.table === you.table) || {};
      now = h('section', { class: 'card mine ev-place', dataset: { place: 'seat', table: you.table, seat: you.seat } },
        h('h1', { class: 'big-line' }, t('evening.your_seat', { round: v.round, table: you.table, seat: you.seat })),
        table.over ? h('p', { class: 'muted' }, t(v.round < v.roundCount ? 'evening.your_game_over' : 'evening.your_last_game_over')) : h('a', { class: 'button primary big', href: '/join/' + you.game, onclick: (e) => { e.preventDefault(); goPlay(you); }, dataset: { action: 'to_seat' } }, t('evening.to_seat')));
    } else {
      now = h('section', { class: 'card ev-place', dataset: { place: 'sit_out' } }, h('h1', null, t('evening.sitting_out', { round: v.round })));
    }
    const nextRound = v.round + 1;
    let next = null;
    if (v.round && nextRound <= v.roundCount) {
      const p = placeOf(v, nextRound, me);
      next = h('p', { class: 'ev-next', dataset: { next: p ? p.table : 0 } }, p ? t('evening.next_seat', { round: nextRound, table: p.table, seat: p.seat }) : t('evening.next_sit_out', { round: nextRound }));
    } else if (v.round && roundOver(v)) {
      next = h('p', { class: 'big-line' }, t('evening.over'));
    }
    // A refused link of the organiser's, on a phone that has its own place.
    const refused = joinError ? h('p', { class: 'error', role: 'alert', dataset: { error: joinError } }, t(joinError, { code })) : null;
    return [refused, now, next, h('section', { class: 'card' }, h('h2', null, t('evening.standings')), standingsOf(t, v, me))];
  }

  if (seatKey) takePlace(seatKey);
  else if (seat && seat.token) watchAs(seat.token);
  else lookUp();

  return {
    unmount() { if (watch) watch.stop(); },
    rerender: render,
  };
}

// refereeScreen is a table's referee page (/#referee=CODE&table=N, the table's
// referee token kept on this phone): a console link for the whole evening.
// While the table's game of the round in play goes on it takes the phone to
// that game's console, once a game (the console's end leads back here);
// between rounds it says what it waits for. The token is the host token of
// the table's games and nothing else: this page reads the evening as anyone
// does, with its own table's game.
export function refereeScreen(app, code, token) {
  let view = null;
  let fatal = null;
  const watch = follow(code, token, (v) => {
    view = v;
    takeLang(app, v);
    const r = (v.referees || [])[0];
    const game = r && r.game && (v.rounds[v.round - 1].tables.find((table) => table.game === r.game) || {});
    if (game && !game.over && !api.refereeGame.get(r.game)) {
      api.refereeGame.set(r.game, { evening: code, table: r.table });
      app.go(`/#host=${r.game}&t=${encodeURIComponent(token)}`);
      return;
    }
    render();
  }, (status) => {
    fatal = status;
    render();
  });

  function render() {
    const t = app.t;
    const bar = topbar(t, { code, lang: app.lang, onLang: (l) => { app.setLang(l); render(); } });
    let content;
    const r = view && (view.referees || [])[0];
    if (fatal || !token || (view && !r)) {
      content = h('section', { class: 'card dead-end' }, h('p', { class: 'error', role: 'alert' }, t(fatal === 404 ? 'evening.not_found' : 'evening.referee.bad', { code })),
        h('div', { class: 'ways' }, h('a', { class: 'button secondary', href: '/' }, t('common.home'))));
    } else if (!view) {
      content = h('p', { class: 'loading', role: 'status' }, '…');
    } else {
      const game = r.game && view.rounds[view.round - 1].tables.find((table) => table.game === r.game);
      const playing = game && !game.over;
      const left = view.round < view.roundCount;
      content = [
        h('header', { class: 'ev-head' }, h('h1', null, t('evening.referee.title', { table: r.table })),
          h('p', { class: 'chips muted' }, h('span', null, t('evening.title', { code: view.code })),
            h('span', null, view.round ? t('evening.round_of', { round: view.round, rounds: view.roundCount }) : t('evening.not_started')),
            h('span', null, t('evening.moderator.' + r.moderator)))),
        h('section', { class: 'card', dataset: { screen: 'evening_referee', table: r.table } },
          playing
            ? h('p', { class: 'ways' }, h('a', { class: 'button primary big', href: `/#host=${r.game}&t=${encodeURIComponent(token)}`, dataset: { action: 'console', game: r.game } }, t('evening.referee.open')))
            : h('p', { class: 'big-line', role: 'status' }, t(!view.round ? 'evening.referee.wait_first'
              : !r.game && left ? 'evening.referee.closed' // too few players for every table this round
                : left ? 'evening.referee.wait_next' : 'evening.referee.over'))),
        h('section', { class: 'panel' }, h('h2', null, t('evening.standings')), standingsOf(t, view))];
    }
    replace(app.root, bar, h('main', { class: 'evening referee', dataset: { screen: 'evening_referee_page', round: view ? view.round : '' } }, content));
  }

  return {
    unmount() { watch.stop(); },
    rerender: render,
  };
}
