// The protocol of a game (docs/PROTOCOL.md): everyone's once the game is over,
// the moderator's live while it goes on. One page that reads on a phone and
// prints on one A4 sheet (css: @media print), with the JSON to download.

import { h, replace } from '../dom.js';
import * as api from '../api.js';
import { topbar, ICON } from '../ui.js';
import { seatRows, course, winnerLine, file } from '../protocol.js';

// LIVE_MS is how often the moderator's live record is read again, and
// WAIT_MS how often a page opened before the end asks whether it has come.
const LIVE_MS = 5000;
const WAIT_MS = 10000;

// protocolScreen shows the protocol of game code; token is this device's host
// token for it, if any (the moderator's, before the end).
export function protocolScreen(app, code, token) {
  let res = null;
  let timer = null;
  let gone = false;
  load();

  async function load() {
    const got = await api.getProtocol(code, token);
    if (gone) return;
    if (got.status === 401 && token) {
      token = null; // a token of another game, or one forgotten: the public record
      load();
      return;
    }
    if (got.status !== 0 || !res) res = got;
    // The page speaks the game's language, unless this device chose its own.
    const lang = res.status === 200 && res.body && res.body.lang;
    if (lang && !api.prefs.lang() && lang !== app.lang) app.setLang(lang, false);
    render();
    const over = res.status === 200 && res.body && res.body.over;
    if (!over && res.status !== 404) timer = setTimeout(load, res.status === 200 ? LIVE_MS : WAIT_MS);
  }

  function render() {
    const t = app.t;
    const bar = topbar(t, { code, lang: app.lang, onLang: (l) => { app.setLang(l); render(); } });
    const main = h('main', { class: 'protocol', dataset: { screen: 'protocol', status: res ? res.status : '' } });
    if (!res) main.append(h('p', { class: 'loading', role: 'status' }, '…'));
    else if (res.status === 200 && res.body) main.append(...page(t, res.body));
    else main.append(deadEnd(t, res.status));
    replace(app.root, bar, main);
  }

  // deadEnd says why there is no record to show: not yet, no such game, no
  // connection.
  function deadEnd(t, status) {
    const watch = h('a', { class: 'button primary', href: (token ? '/#host=' : '/#screen=') + code }, t('end.watch'));
    if (status === 409) {
      return h('section', { class: 'card dead-end', dataset: { end: 'not_over' } },
        h('h1', null, t('proto.not_over')), h('p', null, t('proto.not_over.help')), h('div', { class: 'ways' }, watch));
    }
    const key = status === 404 ? 'err.not_found' : status === 0 ? 'err.network' : 'err.generic';
    return h('section', { class: 'card dead-end', dataset: { end: status === 404 ? 'unknown' : 'error' } },
      h('p', { class: 'error', role: 'alert' }, t(key, { code })),
      h('div', { class: 'ways' }, h('a', { class: 'button secondary', href: '/' }, t('common.home'))));
  }

  function page(t, p) {
    // The file is the page's own copy of the record: a data link, which the
    // page's policy lets it offer (it fetches nothing but the API).
    const f = file(p);
    const url = 'data:application/json;charset=utf-8,' + encodeURIComponent(f.text);
    const created = new Date(p.created);
    const date = Number.isNaN(created.getTime()) ? '' : new Intl.DateTimeFormat(t.lang, { dateStyle: 'long', timeStyle: 'short' }).format(created);
    const win = winnerLine(t, p);
    const { sections, marks } = course(t, p);
    return [
      h('header', { class: 'proto-head' },
        h('h1', null, t('proto.title', { code: p.code })),
        h('p', { class: 'chips muted' }, h('span', null, t('preset.' + ((p.rules && p.rules.preset) || 'custom'))), date ? h('span', null, date) : null,
          h('span', null, t('proto.moderator.' + (p.moderator === 'host' ? 'host' : 'app'))), h('span', null, t('host.count', { count: (p.seats || []).length }))),
        win ? h('p', { class: ['proto-winner', 'team-' + p.winner], dataset: { winner: p.winner } }, withRule(win)) : null,
        p.over ? null : h('p', { class: 'proto-note', role: 'status' }, t('proto.live')),
        p.complete ? null : h('p', { class: 'proto-note' }, t('proto.partial', { night: p.wholeFrom || 0 }))),
      h('nav', { class: 'proto-actions' },
        h('button', { type: 'button', class: 'primary', dataset: { action: 'print' }, onclick: () => window.print() }, t('proto.print')),
        h('a', { class: 'button secondary', href: url, download: f.name, dataset: { action: 'download' } }, t('proto.download')),
        h('a', { class: 'button secondary', href: (token ? '/#host=' : '/#screen=') + code }, t('proto.back'))),
      h('section', { class: 'proto-seats' }, h('h2', null, t('proto.seats')), seatTable(t, p)),
      h('section', { class: 'proto-course' }, h('h2', null, t('proto.course')),
        h('div', { class: 'course' }, sections.map((s) => h('article', { class: ['proto-section', 'proto-' + s.kind] },
          h('h3', null, (s.kind === 'night' ? '☾ ' : '☀ ') + s.title),
          s.rows.length ? h('dl', null, s.rows.map((r) => r.label
            ? h('div', { class: 'proto-row' }, h('dt', null, r.label), h('dd', null, items(r.items)))
            : h('div', { class: 'proto-row say' }, h('dd', null, items(r.items)))))
            : null))),
        marks.missing || marks.half ? h('p', { class: 'proto-legend muted' },
          marks.missing ? h('span', null, '* ' + t('proto.legend.missing') + ' ', rule('R-SPORT-05')) : null,
          marks.half ? h('span', null, '½ ' + t('proto.legend.half') + ' ', rule('R-CLASSIC-10')) : null) : null),
    ];
  }

  function seatTable(t, p) {
    const cols = ['seat', 'player', 'card', 'fouls', 'left'];
    return h('div', { class: 'seat-table', role: 'table', 'aria-label': t('proto.seats') },
      h('div', { class: 'seat-row head', role: 'row' }, cols.map((c) => h('span', { role: 'columnheader', class: 'c-' + c }, t('proto.col.' + c)))),
      seatRows(t, p).map((s) => h('div', { class: ['seat-row', !s.alive && 'out', s.team && 'team-' + s.team], role: 'row', dataset: { seat: s.seat } },
        h('span', { role: 'cell', class: 'c-seat' }, String(s.seat)),
        h('bdi', { role: 'cell', class: 'c-player' }, s.name),
        h('span', { role: 'cell', class: 'c-card seat-role' }, s.role ? (ICON[s.team] || '') + ' ' + s.role : ''),
        h('span', { role: 'cell', class: 'c-fouls' }, s.fouls.join(' · ')),
        h('span', { role: 'cell', class: 'c-left' }, s.left ? withRule(s.left) : ICON.alive + ' ' + t('seat.alive')))));
  }

  return {
    unmount() {
      gone = true;
      clearTimeout(timer);
    },
    rerender: render,
  };
}

// rule shows a rule's ID: a code of no language (lang="zxx"), so that neither a
// reader nor a screen reader takes it for a word of the page's.
function rule(id) {
  return h('span', { class: 'rule', lang: 'zxx' }, id);
}

// withRule is a piece of text with the rule that decided it.
function withRule(item) {
  return [item.text, item.rule ? [' ', rule(item.rule)] : null];
}

// items are a line's items, each with its rule, apart by a dot.
function items(list) {
  return list.map((it, i) => h('span', { class: 'item' }, i ? '· ' : '', withRule(it)));
}
