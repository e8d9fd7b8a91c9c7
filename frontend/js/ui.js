// Building blocks every screen uses. Each returns DOM built with h(): text only.

import { h } from './dom.js';
import { LANGS, LANG_NAMES, roleKey, loadLang } from './i18n.js';
import { isolate, playerLabel, playerIndex, story, roleName, eventText, nightOutcome, nextStepText } from './story.js';
import { publicRoles } from './view.js';

// ICONS pair every state with a symbol, so that no state is told by colour alone.
export const ICON = {
  alive: '●',
  dead: '☠',
  removed: '⊘',
  speaking: '▶',
  nominated: '⚑',
  voted: '✓',
  done: '✓',
  warning: '⚠',
  you: '★',
  mafia: '♠',
  town: '♥',
  maniac: '♦',
};

// The language picked is loaded first (a page loads only its own), so that
// the page is drawn again in it at once.
export function langSelect(t, current, onChange) {
  const pick = (l) => loadLang(l).then(() => onChange(l), () => onChange(l));
  const sel = h('select', { class: 'lang', 'aria-label': t('lang.label'), dataset: { focus: 'lang' }, onchange: (e) => pick(e.target.value) },
    LANGS.map((l) => h('option', { value: l, selected: l === current, lang: l }, LANG_NAMES[l])));
  return sel;
}

// topbar: the room code, the connection state and the language on one row that
// never wraps, and below it, on a phone, whose seat this is, in full: a name is
// never cut short.
export function topbar(t, { code, table, who, session, lang, onLang }) {
  const live = !session || session.live;
  return h('header', { class: 'topbar' },
    h('div', { class: 'topbar-row' },
      // The link is named by its own words, the app's name, which a narrow
      // phone keeps for screen readers only (app.css): a name other than its
      // text would not be the one a voice user says (WCAG 2.5.3).
      h('a', { class: ['brand', code && 'with-code'], href: '/' }, h('span', { class: 'moon', 'aria-hidden': 'true' }, '☾'), h('span', { class: 'brand-text' }, t('app.title'))),
      // An evening's table says its number: a room of several tables looks
      // for it, not for the room code.
      table ? h('span', { class: 'table-chip', dataset: { table } }, t('evening.table', { table })) : null,
      code ? h('span', { class: 'code-chip', 'aria-label': t('host.code_is', { code }) }, code) : null,
      session ? h('span', { class: ['conn', live ? 'ok' : 'bad'], role: 'status', title: live ? t('conn.live') : t('conn.stale'), 'aria-label': live ? t('conn.live') : t('conn.stale') },
        live ? '●' : '⚠', h('span', { class: 'conn-text' }, ' ' + (live ? t('conn.live') : t('conn.stale')))) : null,
      langSelect(t, lang, onLang)),
    who ? h('p', { class: 'who', dataset: { me: '' } }, h('span', { class: 'you-mark', 'aria-hidden': 'true' }, ICON.you), ' ', who) : null,
    live ? null : h('div', { class: 'reconnecting', role: 'alert' }, '⚠ ' + t('conn.reconnecting')));
}

// seatCodeForm asks for a seat's code, which only the seat's own card shows:
// a link (a game's, or an evening's place) takes a dealt seat in a game the
// app moderates only with it, so that nobody learns a card by holding a
// link. wrong says the last code sent was not the seat's; onCode gets the
// digits typed.
export function seatCodeForm(t, wrong, onCode) {
  const input = h('input', {
    id: 'seat-code', name: 'seat-code', type: 'text', inputmode: 'numeric', pattern: '[0-9]{6}', maxlength: '6',
    required: true, autocomplete: 'one-time-code', enterkeyhint: 'go',
  });
  return h('form', {
    class: 'card seat-code', dataset: { screen: 'seat_code' }, onsubmit: (e) => {
      e.preventDefault();
      onCode(input.value.replace(/\D/g, ''));
    },
  },
  h('h1', null, t('seat.code.title')),
  h('p', null, t('seat.code.help')),
  wrong ? h('p', { class: 'error', role: 'alert', dataset: { error: 'err.seat_code_wrong' } }, t('err.seat_code_wrong')) : null,
  h('label', { for: 'seat-code' }, t('seat.code.label')), input,
  h('button', { type: 'submit', class: 'primary' }, t('seat.code.take')));
}

// withLink is the sentence t(key) whose {url} is the link url, drawn with a
// place to break after each slash: a narrow screen wraps it between its
// parts, never inside a word of it (the room code).
export function withLink(t, key, url) {
  const MARK = '\u0000';
  const [before, after] = t(key, { url: MARK }).split(MARK);
  const parts = url.split(/(?<=\/)/).flatMap((part) => [part, h('wbr')]);
  return [before, ...parts.slice(0, -1), after];
}

// stepData is what a screen's main element says of the step it shows, as data-*
// attributes: which step (phase, day, night, wake, speaker, reason), whether
// it is handing over (closing), and the revision (version, tick) it comes from.
// Tests read them; nothing in them is secret.
export function stepData(v) {
  const p = v.phase;
  return {
    phase: p.name, day: p.day, night: p.night, wake: p.wake || 0, speaker: p.speaker || '', reason: p.reason || '',
    closing: p.closing || p.resuming || p.paused ? '1' : '', version: v.version, tick: v.tick || 0,
  };
}

// phaseKey names the phase a view is in: a page brings its title back into
// view when it changes.
export function phaseKey(v) {
  const p = v.phase;
  // The deal's hand-over is the game's first page, no longer the lobby.
  const name = p.name === 'lobby' && p.closing ? 'dealt' : p.name;
  return `${name}:${p.day}:${p.night}`;
}

export function timer(t, cls = '') {
  return h('div', { class: ['timer', 'js-timer', cls], role: 'timer', 'aria-label': t('phase.timer') });
}

// closingLine counts a hand-over down in words ("Next step in 3 seconds"); the
// session's tick writes it. It is no live region: a line read out every second
// would drown the rest.
export function closingLine(cls = '') {
  return h('p', { class: ['closing-line', 'js-closing', cls] });
}

// phaseTitle names the phase in words.
export function phaseTitle(t, view) {
  const p = view.phase;
  return t('phase.' + p.name, { night: p.night, day: p.day });
}

export function label(t, view, id) {
  return playerLabel(t, playerIndex(view.players), id);
}

// seatList shows every seat with its state in words and symbols.
// opts: {me, roles: 'public' (only cards everyone has seen: a phone must not show
// its own or its teammates' cards to a neighbour), true (all the view has: the
// moderator), false (none), compact, controls(player) for host buttons}
export function seatList(t, view, opts = {}) {
  const p = view.phase;
  const shown = publicRoles(view);
  const nominated = new Set((p.nominations || []).map((n) => n.target));
  const voted = new Set(p.voted || []);
  const done = new Set((view.night && view.night.done) || []);
  const speaker = p.speaker;
  const items = view.players.map((pl) => {
    const states = [];
    if (pl.removed) states.push([ICON.removed, t('seat.removed'), 'removed']);
    else if (!pl.alive) states.push([ICON.dead, t('seat.dead'), 'dead']);
    if (speaker === pl.id) states.push([ICON.speaking, t('seat.speaking'), 'speaking']);
    if (nominated.has(pl.id) && pl.alive) states.push([ICON.nominated, t('seat.nominated'), 'nominated']);
    if ((p.name === 'vote' || p.name === 'vote_all') && voted.has(pl.id)) states.push([ICON.voted, t('seat.voted'), 'voted']);
    if (view.night && done.has(pl.id)) states.push([ICON.done, t('seat.done'), 'done']);
    if (pl.warnings) states.push([ICON.warning, t('seat.warnings', { count: pl.warnings }), 'warned']);
    const me = opts.me === pl.id;
    const showRole = opts.roles === true || (opts.roles === 'public' && shown.has(pl.id));
    const role = showRole && pl.role ? roleName(t, pl.role, view.rules) : '';
    return h('li', {
      class: ['seat', pl.alive ? 'alive' : 'out', speaker === pl.id && 'is-speaking', me && 'me', role && 'team-' + pl.team],
      dataset: { player: pl.id, role: role ? pl.role : undefined },
    },
    h('span', { class: 'seat-no', 'aria-hidden': 'true' }, String(pl.seat)),
    h('span', { class: 'seat-main' },
      h('span', { class: 'seat-name' }, h('span', { class: 'sr-only' }, t('player.label', { seat: pl.seat, name: isolate(pl.name) })), h('bdi', { 'aria-hidden': 'true' }, pl.name), me ? h('span', { class: 'you-tag' }, ' ' + ICON.you + ' ' + t('seat.you')) : null),
      role ? h('span', { class: 'seat-role' }, (ICON[pl.team] || '') + ' ' + role) : null,
      h('span', { class: 'seat-states' }, states.length
        ? states.map(([icon, word, cls]) => h('span', { class: ['state', cls] }, icon + ' ' + word))
        : h('span', { class: 'state alive' }, ICON.alive + ' ' + t('seat.alive')))),
    opts.controls ? opts.controls(pl) : null);
  });
  return h('ol', { class: ['seats', opts.compact && 'compact'], 'aria-label': t('host.players') }, items);
}

// storyList renders the game's events as chapters of sentences.
export function storyList(t, view, opts = {}) {
  const chapters = story(view.events, { t, players: playerIndex(view.players), rules: view.rules }, opts);
  return h('div', { class: 'story' }, chapters.map((c) => h('section', { class: 'chapter' },
    h('h3', null, c.title),
    h('ul', null, c.items.map((it) => h('li', { class: 'ev ev-' + it.type }, it.text,
      it.lines ? h('ul', { class: 'tally' }, it.lines.map((l) => h('li', null, l))) : null))))));
}

// rolesList shows everyone's card (game over, moderator): the name on a line of
// its own, the card and how the player ended below it.
export function rolesList(t, view) {
  return h('ul', { class: 'roles' }, view.players.map((pl) => h('li', { class: ['role-row', 'team-' + (pl.team || 'none'), !pl.alive && 'out'], dataset: { player: pl.id, role: pl.role || undefined } },
    h('span', { class: 'seat-no', 'aria-hidden': 'true' }, String(pl.seat)),
    h('span', { class: 'seat-main' },
      h('span', { class: 'seat-name' }, h('span', { class: 'sr-only' }, t('player.label', { seat: pl.seat, name: isolate(pl.name) })), h('bdi', { 'aria-hidden': 'true' }, pl.name)),
      h('span', { class: 'role-line' },
        h('span', { class: 'seat-role' }, pl.role ? (ICON[pl.team] || '') + ' ' + roleName(t, pl.role, view.rules) : '?'),
        h('span', { class: 'state' }, pl.removed ? ICON.removed + ' ' + t('seat.removed') : pl.alive ? ICON.alive + ' ' + t('seat.alive') : ICON.dead + ' ' + t('seat.dead')))))));
}

// LONG_WORD is the longest word of a name that fits a half-width target button
// on a 390 px phone inside a card (about 95 px of text: "Gheorghe" does not
// fit); with a longer one the buttons take the whole width, so that no name
// breaks inside a word. COMPACT_WORD is the same for the compact grid of the
// night and the vote (about 135 px of smaller text), where only the button
// of such a name takes a row of its own, so that the grid stays short.
const LONG_WORD = 7;
const COMPACT_WORD = 12;

// longWord: a word of the player's name is longer than n letters.
function longWord(p, n) {
  return !!p && p.name.split(/[\s-]+/).some((w) => [...w].length > n);
}


// targetButtons: one big button per target player. opts.me marks the viewer's
// own seat ("★ You", data-me), so that nobody picks themselves by mistake;
// opts.picked, when not undefined, makes the buttons a pick to confirm, the
// picked one pressed (a list: each of them, where a pick names several);
// opts.previous marks a choice made before and taken back
// ("your last choice"); opts.compact makes them the compact grid that a
// phone's night and vote fit on one screen with (app.css).
export function targetButtons(t, view, targets, onPick, { disabled, cls, focus, me, picked, previous, compact } = {}) {
  const idx = playerIndex(view.players);
  const list = targets || [];
  const wide = !compact && list.some((id) => longWord(idx.get(id), LONG_WORD));
  const isPicked = (id) => (Array.isArray(picked) ? picked.includes(id) : picked === id);
  return h('div', { class: ['targets', wide && 'wide', compact && 'compact', cls], dataset: { task: focus || 'target' } }, list.map((id) => {
    const p = idx.get(id);
    const mine = me !== undefined && me !== null && id === me;
    return h('button', {
      type: 'button', class: ['target', mine && 'me', isPicked(id) && 'picked', previous === id && 'previous', compact && longWord(p, COMPACT_WORD) && 'whole-row'], disabled: !!disabled,
      'aria-pressed': picked === undefined ? undefined : String(isPicked(id)),
      dataset: { target: id, focus: (focus || 't') + ':' + id, me: mine ? '' : undefined },
      onclick: () => onPick(id),
    },
    h('span', { class: 'target-seat', 'aria-hidden': 'true' }, p ? String(p.seat) : '?'),
    h('span', { class: 'target-text', 'aria-hidden': 'true' },
      h('bdi', { class: 'target-name' }, p ? p.name : playerLabel(t, idx, id)),
      mine ? h('span', { class: 'target-tag' }, ICON.you + '\u00a0' + t('seat.you')) : null,
      previous === id ? h('span', { class: 'target-tag' }, '↺ ' + t('vote.previous')) : null),
    h('span', { class: 'sr-only' }, playerLabel(t, idx, id) + (mine ? ', ' + t('seat.you') : '')));
  }));
}

// morningCard opens a day with what the night brought, in big letters: who was
// killed (and the card shown), or that nobody died, who was healed, the
// Commissar's public check. It is null outside the day that follows a night.
export function morningCard(t, view, cls = 'card') {
  const p = view.phase;
  if (!['intro', 'last_word', 'day'].includes(p.name)) return null;
  const out = nightOutcome(view.events);
  if (!out) return null;
  const ctx = { t, players: playerIndex(view.players), rules: view.rules };
  const lines = out.events.map((e) => ({ type: e.type, text: eventText(e, ctx) })).filter((l) => l.text);
  return h('section', { class: [cls, 'morning'], dataset: { screen: 'morning' }, 'aria-live': 'polite' },
    h('h2', { class: 'morning-title' }, '☀ ' + t('morning.title', { night: out.night })),
    lines.length
      ? h('ul', { class: 'morning-news' }, lines.map((l) => h('li', { class: ['big-line', 'ev-' + l.type] }, l.text)))
      : h('p', { class: 'big-line' }, t('morning.meeting')));
}

// seatingCard announces the seats drawn by lot: each seat's number and player,
// and, on a phone, the viewer's own seat.
export function seatingCard(t, view, { me, cls = 'card' } = {}) {
  const mine = me ? view.players.find((p) => p.id === me) : null;
  return h('section', { class: [cls, 'seating'], dataset: { screen: 'seating' } },
    h('h2', null, '⚄ ' + t('seats.drawn')),
    mine ? h('p', { class: 'big-line' }, ICON.you + ' ' + t('seats.yours', { seat: mine.seat })) : null,
    h('p', { class: 'muted' }, t('seats.help')),
    h('ol', { class: 'seating-list' }, view.players.map((p) => h('li', { class: ['seating-seat', p.id === me && 'me'] },
      h('span', { class: 'seat-no', 'aria-hidden': 'true' }, String(p.seat)),
      h('span', { class: 'seat-name' }, h('span', { class: 'sr-only' }, t('player.label', { seat: p.seat, name: isolate(p.name) })), h('bdi', { 'aria-hidden': 'true' }, p.name))))));
}

// nextLine says, in a hand-over, what comes next ("#5 Ann, your minute"); the
// session's tick counts down below it (closingLine).
export function nextLine(t, view, me, cls = '') {
  const text = nextStepText(t, view.phase.next, playerIndex(view.players), me);
  return text ? h('p', { class: ['next-line', cls], dataset: { next: view.phase.next.name } }, text) : null;
}

export function roleTitle(t, role, rules) {
  return t(roleKey(role, rules));
}

// soundBar switches the shared screen's sounds: the narrator, who reads the
// announcements aloud, and the time signals. state: {voice, cues}; onVoice and
// onCues get the new setting.
export function soundBar(t, { voice, cues, canVoice, onVoice, onCues }) {
  const toggle = (on, action, onKey, offKey, icon, help, onClick) => h('button', {
    type: 'button', class: ['secondary', 'toggle', on && 'on'], 'aria-pressed': on ? 'true' : 'false', dataset: { action }, title: t(help),
    onclick: onClick,
  }, h('span', { 'aria-hidden': 'true' }, icon + (on ? ' ✓' : ' ✗')), ' ' + t(on ? onKey : offKey));
  return h('div', { class: 'sound-bar', role: 'group', 'aria-label': t('sound.title') },
    canVoice ? toggle(voice, 'voice', 'host.voice.on', 'host.voice.off', '❝', 'sound.voice.help', () => onVoice(!voice)) : null,
    toggle(cues, 'cues', 'host.cues.on', 'host.cues.off', '♪', 'sound.cues.help', () => onCues(!cues)));
}

// notice shows a one-time message from the session (an action that failed).
export function noticeBox(t, session) {
  if (!session || !session.notice) return null;
  const n = session.notice;
  session.notice = null;
  return h('div', { class: 'notice', role: 'alert' }, t(n.key, n.params || {}));
}
