// The protocol of a game (docs/PROTOCOL.md) as its page tells it: the seats, and
// the course of the game night by night and day by day, in the viewer's language.
// No DOM access.
//
// A line is a label and its items; an item is {text, rule}: rule is the ID of
// the rule that decided it (R-SPORT-07), a code of no language that the page
// shows beside the words. Seats are named by their numbers, as a club's
// protocol names them; the seats' table gives the names.

import { roleKey, sheriffVariant } from './i18n.js';
import { isolate } from './story.js';

// seatsText joins seat numbers.
const seatsText = (seats) => (seats || []).join(', ');

// when names a fact's night or day ("Night 2").
function when(t, w) {
  return w.day ? t('chapter.day', { day: w.day }) : t('chapter.night', { night: w.night || 0 });
}

// howLeft says how a player left, without the moment.
function howLeft(t, p, d) {
  const foul = d.foul && t.has('foul.' + d.foul) ? ': ' + t('foul.' + d.foul) : '';
  switch (d.how) {
    case 'killed':
      if (d.cause === 'sheriff') return t(sheriffVariant('proto.how.killed.sheriff', p.rules));
      return t.has('proto.how.killed.' + d.cause) ? t('proto.how.killed.' + d.cause) : '';
    case 'vote': {
      // The round's kind says more than its number: the car crash's all-leave
      // vote, the half vote, the vote after a justification.
      const day = (p.days || []).find((x) => x.day === d.day);
      const kind = day && day.votes && day.votes[d.vote - 1] ? day.votes[d.vote - 1].kind : 'vote';
      return t(t.has('proto.how.vote.' + kind) ? 'proto.how.vote.' + kind : 'proto.how.vote', { round: d.vote || 0 });
    }
    case 'removed':
      return t('proto.how.removed') + foul;
    case 'fouls':
      return t('proto.how.fouls') + foul;
    case 'testament':
    case 'reveal':
      return t(sheriffVariant('proto.how.' + d.how, p.rules));
    default:
      return '';
  }
}

// departure is a departure as an item: "7: the mafia's shot", with its rule.
function departure(t, p, d) {
  const how = howLeft(t, p, d);
  return { text: how ? `${d.seat}: ${how}` : String(d.seat), rule: d.rule };
}

// seatRows are the seats' table: each seat's name, card, fouls and how and
// when the player left ({text, rule}, or null while they play).
export function seatRows(t, p) {
  return (p.seats || []).map((s) => {
    const left = s.left ? howLeft(t, p, s.left) : '';
    return {
      seat: s.seat, name: s.name, team: s.team || '', alive: !!s.alive,
      role: s.role ? t(roleKey(s.role, p.rules)) : '',
      fouls: (s.fouls || []).map((f) => '⚠' + f.count + (f.foul && t.has('foul.' + f.foul) ? ' ' + t('foul.' + f.foul) : '')),
      left: s.left ? { text: left ? `${when(t, s.left)}: ${left}` : when(t, s.left), rule: s.left.rule } : null,
    };
  });
}

// winnerLine is the end of the game with its rule; null while it goes on.
export function winnerLine(t, p) {
  return p.winner ? { text: t('winner.' + p.winner), rule: p.winRule } : null;
}

// course is the game's nights and days in the order they began: [{kind,
// title, rows: [{label, items}]}]; a row with no label is a sentence of its
// own. marks says which signs of the ballots the page must explain.
export function course(t, p) {
  const marks = { missing: false, half: false };
  const sections = [
    ...(p.nights || []).map((n) => ({ at: n.at, kind: 'night', title: t('chapter.night', { night: n.night }),
      rows: [...nightRows(t, p, n), ...corrections(t, p, (c) => c.night === n.night)] })),
    ...(p.days || []).map((d) => ({ at: d.at, kind: 'day', title: t('chapter.day', { day: d.day }),
      rows: [...dayRows(t, p, d, marks), ...corrections(t, p, (c) => c.day === d.day)] })),
  ].sort((a, b) => a.at - b.at);
  return { sections, marks };
}

// corrections are the row of the host's decisions taken back in one night or
// day (those of p.corrections that in keeps), or none.
function corrections(t, p, inside) {
  const items = (p.corrections || []).filter(inside).map((c) => ({
    text: t.has('host.correct.' + c.undid) ? t('host.correct.' + c.undid, { name: c.seat ? label(t, p, c.seat) : '' }) : c.undid,
  }));
  return items.length ? [{ label: t('proto.row.corrected'), items }] : [];
}

const label = (t, p, seat) => {
  const s = (p.seats || [])[seat - 1];
  return s ? t('player.label', { seat, name: isolate(s.name) }) : t('player.unknown');
};

function nightRows(t, p, n) {
  const rows = [];
  const row = (key, items) => { if (items.length) rows.push({ label: key, items }); };
  const team = (seat) => ((p.seats || [])[seat - 1] || {}).team;
  const role = (seat) => ((p.seats || [])[seat - 1] || {}).role;
  const acts = n.acts || [];
  const shots = acts.filter((a) => a.act === 'kill' && team(a.seat) === 'mafia');
  row(t('proto.row.shots'), shots.map((a) => ({
    text: `${a.seat} → ${a.target}` + (a.late ? ` (${t('proto.late')})` : ''), rule: a.late ? a.rule : undefined,
  })));
  const checks = acts.filter((a) => a.act === 'check');
  row(t('proto.row.checks'), checks.map((a) => ({ text: `${a.seat} → ${a.target}` + (a.answer ? ': ' + answer(t, p, a.answer) : '') })));
  // Every other act under its maker's card: the Maniac, the Doctor, the Lover…
  const others = new Map();
  for (const a of acts) {
    if (shots.includes(a) || checks.includes(a)) continue;
    const key = role(a.seat) ? t(roleKey(role(a.seat), p.rules)) : String(a.seat);
    if (!others.has(key)) others.set(key, []);
    others.get(key).push({ text: `${a.seat} → ${a.target}` });
  }
  for (const [key, items] of others) row(key, items);
  row(t('proto.row.out'), (n.left || []).map((d) => departure(t, p, d)));
  row(t('proto.row.saved'), (n.saved || []).map((s) => ({ text: s.by ? `${s.seat}: ${t(roleKey(s.by, p.rules))}` : String(s.seat), rule: s.rule })));
  if ((n.refused || []).length) row(t('proto.row.refused'), [{ text: seatsText(n.refused) }]);
  const say = (text) => rows.push({ label: null, items: [{ text }] });
  if (n.missed) say(t('ev.missed'));
  if (n.sheriffMissed) say(t(sheriffVariant('ev.sheriff_missed', p.rules)));
  if (n.treated) say(t('ev.treated', { target: label(t, p, n.treated) }));
  if (n.commissar === 'right' || n.commissar === 'wrong') say(t(sheriffVariant('ev.commissar.' + n.commissar, p.rules)));
  for (const w of n.testaments || []) {
    say(t(w.verdict === 'mafia' ? 'ev.testament.mafia' : 'ev.testament.honest', { actor: label(t, p, w.seat), target: label(t, p, w.target) }));
  }
  // The best move, with how many of the seats it named were black.
  row(t('proto.row.best_move'), (n.bestMoves || []).map((m) => ({ text: t('proto.best_move', { seat: m.seat, seats: seatsText(m.targets), count: m.black || 0 }) })));
  // The seats whose tap the moderator made, their phone dead in the wake.
  if ((n.tappedFor || []).length) row(t('proto.row.tapped_for'), [{ text: seatsText(n.tappedFor.map((x) => x.seat)) }]);
  return rows;
}

// answer is a check's answer in words.
function answer(t, p, a) {
  if (a === 'sheriff' || a === 'not_sheriff') return t(sheriffVariant('proto.answer.' + a, p.rules));
  return t.has('proto.answer.' + a) ? t('proto.answer.' + a) : a;
}

function dayRows(t, p, d, marks) {
  const rows = [];
  const row = (key, items) => { if (items.length) rows.push({ label: key, items }); };
  row(t('proto.row.nominations'), (d.nominations || []).map((n) => ({ text: `${n.by} → ${n.target}` })));
  if ((d.hands || []).length) row(t('proto.row.hands'), [{ text: seatsText(d.hands.map((h) => h.seat)) }]);
  if (d.revealed) rows.push({ label: null, items: [{ text: t(sheriffVariant('ev.revealed', p.rules), { actor: label(t, p, d.revealed.seat) }) }] });
  for (const v of d.votes || []) row(t(t.has('proto.vote.' + v.kind) ? 'proto.vote.' + v.kind : 'proto.vote.vote', { round: v.round }), voteItems(t, v, marks));
  row(t('proto.row.out'), (d.left || []).map((x) => departure(t, p, x)));
  row(t('proto.row.defended'), (d.defended || []).map((x) => ({ text: String(x.seat), rule: x.rule })));
  if (d.stayed) {
    const key = 'ev.acquitted.' + d.stayed.why;
    rows.push({ label: null, items: [{ text: t(t.has(key) ? key : 'ev.acquitted.other'), rule: d.stayed.rule }] });
  }
  return rows;
}

// voteItems tell a vote round: for each player voted for, who voted for them
// ("6 ← 1, 2, 10*"), or the yes and the no of a yes/no vote; then the tie.
function voteItems(t, v, marks) {
  const ballots = v.ballots || [];
  const items = [];
  if (v.kind === 'all_leave' || v.kind === 'justify') {
    const yes = ballots.filter((b) => b.yes).map((b) => b.voter);
    const no = ballots.filter((b) => !b.yes).map((b) => b.voter);
    if (yes.length) items.push({ text: t('proto.yes', { seats: seatsText(yes) }) });
    if (no.length) items.push({ text: t('proto.no', { seats: seatsText(no) }) });
  } else {
    const by = new Map();
    const abstained = [];
    for (const b of ballots) {
      if (!b.target) {
        abstained.push(b.voter);
        continue;
      }
      if (!by.has(b.target)) by.set(b.target, []);
      marks.missing ||= !!b.missing;
      marks.half ||= !!b.half;
      by.get(b.target).push(b.voter + (b.missing ? '*' : '') + (b.half ? '½' : ''));
    }
    for (const [target, voters] of [...by].sort((a, b) => b[1].length - a[1].length)) items.push({ text: `${target} ← ${voters.join(', ')}` });
    if (abstained.length) items.push({ text: t('proto.abstained', { seats: seatsText(abstained) }) });
  }
  if ((v.tied || []).length) items.push({ text: t('proto.tied', { seats: seatsText(v.tied) }) });
  if ((v.notVoted || []).length) items.push({ text: t('proto.not_voted', { seats: seatsText(v.notVoted) }) });
  return items;
}

// file is the protocol as the JSON file the page downloads, named after the
// room code.
export function file(p) {
  return { name: `${p.code}.json`, text: JSON.stringify(p, null, 2) + '\n' };
}
