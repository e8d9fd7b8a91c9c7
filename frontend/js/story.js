// The story of a game: events turned into whole sentences in the viewer's language.
// No DOM access.

import { roleKey, sheriffVariant } from './i18n.js';
import { tally, yesNo, isYesNo } from './tally.js';

// playerIndex maps player id to the player of a view.
export function playerIndex(players) {
  const m = new Map();
  for (const p of players || []) m.set(p.id, p);
  return m;
}

// isolate sets a name apart from the text around it (Unicode's first-strong
// isolate, U+2068 … U+2069): a right-to-left name, or one that ends in
// "#5", is laid out on its own and cannot reorder the seat numbers and words
// beside it. Every name a page shows in a sentence goes through it; a name
// alone in its element is in a <bdi> (ui.js).
export function isolate(name) {
  return '\u2068' + name + '\u2069';
}

// playerLabel names a player with seat and name ("#4 Anna").
export function playerLabel(t, players, id) {
  const p = players instanceof Map ? players.get(id) : playerIndex(players).get(id);
  if (!p) return t('player.unknown');
  return t('player.label', { seat: p.seat, name: isolate(p.name) });
}

// roleName is a role's name under the game's rules (Sheriff or Commissar).
export function roleName(t, role, rules) {
  return role ? t(roleKey(role, rules)) : '';
}

function names(ctx, ids) {
  return ctx.t.list((ids || []).map((id) => playerLabel(ctx.t, ctx.players, id)));
}

// eventText renders one event as a sentence, or null for events the story leaves
// out. ctx = {t, players: Map, rules}.
export function eventText(ev, ctx) {
  const { t, rules } = ctx;
  const P = (id) => playerLabel(t, ctx.players, id);
  const params = {
    actor: ev.actor ? P(ev.actor) : '',
    target: ev.target ? P(ev.target) : '',
    night: ev.night || 0,
    day: ev.day || 0,
  };
  switch (ev.type) {
    case 'joined':
    case 'left':
    case 'kicked':
    case 'started':
    case 'night_fell':
    case 'morning':
    case 'missed':
    case 'day_began':
    case 'muted':
    case 'nominated':
    case 'withdrawn':
    case 'treated':
    case 'defended':
    case 'paused':
    case 'resumed':
    case 'shot':
    case 'hand':
    case 'moved':
    case 'tapped_for':
      return t('ev.' + ev.type, params);
    case 'act':
      return t(t.has('ev.act.' + ev.result) ? 'ev.act.' + ev.result : 'ev.act.other', params);
    case 'checked':
      if (ev.result === 'sheriff' || ev.result === 'not_sheriff') return t(sheriffVariant('ev.checked.' + ev.result, rules), params);
      return t(ev.result === 'black' ? 'ev.checked.black' : 'ev.checked.red', params);
    case 'commissar':
      return t(sheriffVariant(ev.result === 'right' ? 'ev.commissar.right' : 'ev.commissar.wrong', rules), params);
    case 'sheriff_missed':
      return t(sheriffVariant('ev.sheriff_missed', rules), params);
    case 'revealed':
      return t(sheriffVariant('ev.revealed', rules), params);
    case 'killed':
      return t('ev.killed', params);
    case 'healed':
      if (ev.result === 'protected') return t('ev.healed.protected', params);
      if (ev.result === 'refused') return t('ev.healed.refused', params);
      return t(ev.target ? 'ev.healed.named' : 'ev.healed', params);
    case 'not_voted':
      return t(ev.result === 'lost' ? 'ev.not_voted.lost' : 'ev.not_voted.wait', params);
    case 'tie':
      if (ev.result === 'four_left' || ev.result === 'half_vote') return t('ev.tie.' + ev.result, params);
      return t('ev.tie', { names: names(ctx, ev.targets || [ev.target]) });
    case 'eliminated':
      return t('ev.eliminated.' + (['testament', 'reveal'].includes(ev.result) ? ev.result : 'vote'), params);
    case 'acquitted': {
      const key = 'ev.acquitted.' + ev.result;
      return t(t.has(key) ? key : 'ev.acquitted.other', params);
    }
    case 'testament':
      return t(ev.result === 'mafia' ? 'ev.testament.mafia' : 'ev.testament.honest', params);
    case 'best_move':
      return t('ev.best_move', { ...params, names: names(ctx, ev.targets) });
    case 'warned':
      return withFoul(t('ev.warned', { ...params, count: Number(ev.result) || 1 }), ev, t);
    case 'removed':
      return withFoul(t(ev.result === 'fouls' ? 'ev.removed.fouls' : 'ev.removed', params), ev, t);
    case 'role':
      return t('ev.role', { ...params, role: roleName(t, ev.role, rules) });
    case 'maniac_side':
      // A lone Maniac read as the town's plays on the town's side (R-MANIAC-11).
      if (ev.result === 'mafia') return t('ev.maniac_side.mafia', params);
      return t(rules && rules.loneManiac === 'town' ? 'ev.maniac_side.town' : 'ev.maniac_side.alone', params);
    case 'corrected':
      return t(t.has('ev.corrected.' + ev.result) ? 'ev.corrected.' + ev.result : 'ev.corrected', params);
    case 'game_over':
      return t('winner.' + (['town', 'mafia', 'maniac'].includes(ev.result) ? ev.result : 'town'));
    case 'vote_result':
      return t(isYesNo(ev) ? (ev.result === 'justify' ? 'ev.vote_result.justify' : 'ev.vote_result.all') : 'ev.vote_result');
    default:
      return null;
  }
}

// withFoul adds what a warning or a removal was for, when the host named it
// (R-SPORT-16).
function withFoul(text, ev, t) {
  return ev.foul && t.has('foul.' + ev.foul) ? text + ' ' + t('ev.foul', { foul: t('foul.' + ev.foul) }) : text;
}

// voteLines renders the ballots of a vote_result event: who voted for whom.
export function voteLines(ev, ctx) {
  const { t } = ctx;
  if (isYesNo(ev)) {
    // A side nobody voted for has no line: "Stay: 0 votes — " says nothing.
    const { yes, no } = yesNo(ev.ballots);
    const out = [];
    if (yes.length) out.push(t('tally.yes', { count: yes.length, voters: names(ctx, yes) }));
    if (no.length) out.push(t('tally.no', { count: no.length, voters: names(ctx, no) }));
    return out;
  }
  const { rows, abstained } = tally(ev.ballots);
  const out = rows.map((r) => {
    const voters = [...r.voters.map((id) => playerLabel(t, ctx.players, id)),
      ...r.half.map((id) => t('tally.half', { voter: playerLabel(t, ctx.players, id) }))];
    return t('tally.row', { target: playerLabel(t, ctx.players, r.target), count: r.votes, voters: t.list(voters) });
  });
  if (abstained.length) out.push(t('tally.abstained', { count: abstained.length, voters: names(ctx, abstained) }));
  return out;
}

const LOBBY_EVENTS = new Set(['joined', 'left', 'kicked']);

// tidy makes the events read once each. Once the game is over every event is
// visible, and a night act is there twice: the moderator's record of it (act)
// and what its maker saw (a black player's aim, a check with its answer). The
// aim and the bare check go, the answered check stays. The players tied for
// the most votes, one event each, become one event with targets.
export function tidy(events) {
  const list = events || [];
  const key = (e) => `${e.night || 0}:${e.actor || ''}:${e.target || ''}`;
  const acts = new Set(list.filter((e) => e.type === 'act' && e.result === 'kill').map(key));
  const answered = new Set(list.filter((e) => e.type === 'checked').map(key));
  const out = [];
  for (const e of list) {
    if (e.type === 'shot' && acts.has(key(e))) continue;
    if (e.type === 'act' && e.result === 'check' && answered.has(key(e))) continue;
    const prev = out[out.length - 1];
    if (e.type === 'tie' && !e.result && prev && prev.type === 'tie' && !prev.result && prev.day === e.day) {
      out[out.length - 1] = { ...prev, targets: [...(prev.targets || [prev.target]), e.target] };
      continue;
    }
    out.push(e);
  }
  return out;
}

// story groups events into chapters (the lobby, each night, each day) of
// sentences: [{title, items: [{type, text, lines?}]}]. Lobby comings and goings are
// left out unless withLobby is set.
export function story(events, ctx, { withLobby = false, skip = null } = {}) {
  const { t } = ctx;
  const chapters = [];
  let current = null;
  const open = (title) => {
    current = { title, items: [] };
    chapters.push(current);
  };
  for (const ev of tidy(events)) {
    if (!withLobby && LOBBY_EVENTS.has(ev.type)) continue;
    if (skip && skip(ev)) continue;
    if (ev.type === 'night_fell') open(t('chapter.night', { night: ev.night || 0 }));
    else if (ev.type === 'day_began') open(t('chapter.day', { day: ev.day || 0 }));
    else if (!current) open(t('chapter.start'));
    const text = eventText(ev, ctx);
    if (text === null) continue;
    const item = { type: ev.type, text };
    if (ev.type === 'vote_result') {
      // A vote nobody voted in has nothing to list; the verdict after it says so.
      item.lines = voteLines(ev, ctx);
      if (!item.lines.length) continue;
    }
    current.items.push(item);
  }
  return chapters.filter((c) => c.items.length > 0);
}

// lastVote returns the latest vote_result event, or null, also when a night has
// fallen since: yesterday's vote is no longer news.
export function lastVote(events) {
  for (let i = (events || []).length - 1; i >= 0; i--) {
    if (events[i].type === 'vote_result') return events[i];
    if (events[i].type === 'night_fell') return null;
  }
  return null;
}

// announcements are the public news since the last night fell or day began: what
// the shared screen shows in big letters and may read aloud.
export function announcements(events) {
  const list = events || [];
  let start = 0;
  for (let i = list.length - 1; i >= 0; i--) {
    if (list[i].type === 'night_fell' || list[i].type === 'morning' || list[i].type === 'day_began') {
      start = i;
      break;
    }
  }
  return list.slice(start).filter((e) => !LOBBY_EVENTS.has(e.type) && e.type !== 'act' && e.type !== 'shot' && e.type !== 'checked');
}

// SPOKEN are the event types a host would say aloud; a best move the host
// repeats after its maker, as a club's host confirms the seats named.
export const SPOKEN = new Set(['night_fell', 'morning', 'killed', 'missed', 'healed', 'treated', 'sheriff_missed',
  'commissar', 'day_began', 'eliminated', 'acquitted', 'defended', 'tie', 'not_voted', 'revealed', 'removed', 'game_over', 'role', 'best_move']);

// bestMoveOf is the best move player id made, or null: one a game at most.
export function bestMoveOf(events, id) {
  return (events || []).find((e) => e.type === 'best_move' && e.actor === id) || null;
}

// OUTCOME are the events that tell what a night brought, announced as the day
// opens.
const OUTCOME = new Set(['killed', 'missed', 'healed', 'treated', 'sheriff_missed', 'commissar', 'role', 'eliminated']);

// nightOutcome returns what the last night brought, when the city has woken from
// it and neither a vote nor a night has come since: {night, events}, the events
// that tell it in order (who was killed, and the card shown, or that nobody
// died; who was healed; the Commissar's public check), or null. After the day's
// vote the news is the vote's: the last words that follow it are no morning.
export function nightOutcome(events) {
  const list = events || [];
  let i = list.length - 1;
  while (i >= 0 && list[i].type !== 'morning') {
    if (list[i].type === 'night_fell' || list[i].type === 'vote_result') return null;
    i--;
  }
  if (i < 0) return null;
  const out = [];
  for (let j = i + 1; j < list.length && list[j].type !== 'day_began' && list[j].type !== 'night_fell'; j++) {
    if (OUTCOME.has(list[j].type) && !list[j].to) out.push(list[j]);
  }
  return { night: list[i].night || 0, events: out };
}

// nextStepText says what a hand-over leads to (the view's phase.next), as a host
// would announce it: "#5 Ann, your minute", "The vote", "The city falls asleep".
// me is the viewer's player id, if any. It returns '' when there is nothing to say.
export function nextStepText(t, next, players, me) {
  if (!next || !next.name) return '';
  const who = next.speaker ? playerLabel(t, players, next.speaker) : '';
  const mine = !!next.speaker && next.speaker === me;
  switch (next.name) {
    case 'intro':
      return mine ? t('next.intro.you') : t('next.intro', { name: who });
    case 'day':
      if (next.reason === 'extra') return mine ? t('next.extra.you') : t('next.extra', { name: who });
      return mine ? t('next.speech.you') : t('next.speech', { name: who });
    case 'defence':
      return mine ? t('next.defence.you') : t('next.defence', { name: who });
    case 'last_word':
      return mine ? t('next.last_word.you') : t('next.last_word', { name: who });
    case 'vote':
      return t('next.vote');
    case 'vote_all':
      return t('next.vote_all');
    case 'night':
      // A night's later wake (Options.Wakes) follows its first without a morning.
      return next.wake > 1 ? t('next.wake') : t('next.night');
    case 'morning':
      return t('next.morning');
    case 'count':
      return t('next.count');
    case 'game_over':
      return t('next.game_over');
    default:
      return '';
  }
}

// seatsDrawn reports whether the seats were just drawn by lot and are worth
// announcing: the rules draw them, and the game is in the hand-over after the
// deal or in its first night.
export function seatsDrawn(view) {
  const p = view && view.phase;
  if (!p || !view.rules || !view.rules.drawSeats) return false;
  return (p.name === 'lobby' && !!p.closing) || (p.name === 'night' && p.night === 1);
}
