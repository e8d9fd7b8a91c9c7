// The protocol's page, told from the example of docs/PROTOCOL.md.
import test from 'node:test';
import strict from 'node:assert/strict';

// Every name in a sentence is isolated (story.js isolate, U+2068 … U+2069);
// the sentences here are compared without the isolates, which "names are
// isolated" checks on their own.
const bare = (x) => (typeof x === 'string' ? x.replace(/[\u2068\u2069]/g, '') : Array.isArray(x) ? x.map(bare) : x);
const assert = { ...strict, equal: (a, b, m) => strict.equal(bare(a), b, m), deepEqual: (a, b, m) => strict.deepEqual(bare(a), b, m) };
import { readFileSync } from 'node:fs';
import { makeT, LANGS, loadLang } from '../js/i18n.js';
import { seatRows, course, winnerLine, file } from '../js/protocol.js';

// The pages load one language each; these tests read every one.
await Promise.all(LANGS.map(loadLang));

const doc = readFileSync(new URL('../../docs/PROTOCOL.md', import.meta.url), 'utf8');
const example = JSON.parse(doc.slice(doc.indexOf('```json\n') + 8, doc.lastIndexOf('```')));
example.rules = { preset: 'sport' };

const en = makeT('en');

test('the seats: card, fouls, and how and when each player left, with the rule', () => {
  const rows = seatRows(en, example);
  assert.equal(rows.length, 10);
  assert.deepEqual([rows[0].role, rows[0].team, rows[0].left], ['Don', 'mafia', null]);
  assert.deepEqual(rows[2].fouls, ['⚠1 “honestly” or “I swear”']);
  assert.deepEqual(rows[4].left, { text: 'Day 1: the all-leave vote', rule: 'R-SPORT-07' }, 'R-SPORT-07: the car crash sends both away');
  assert.deepEqual(rows[1].left, null);
  assert.deepEqual(rows[6].left, { text: 'Night 2: the mafia’s shot', rule: 'R-SPORT-10' });
  assert.deepEqual(rows[7].left, { text: 'Day 2: removed by the host: peeking at night', rule: 'R-SPORT-16' });
});

test('the course: nights and days in order, every shot, check and ballot', () => {
  const { sections, marks } = course(en, example);
  assert.deepEqual(sections.map((s) => s.title), ['Night 1', 'Day 1', 'Night 2', 'Day 2']);
  const rows = (i) => Object.fromEntries(sections[i].rows.map((r) => [r.label, r.items.map((x) => x.text)]));
  assert.deepEqual(sections[0].rows, [], 'R-SPORT-02: the meeting night has nothing to tell');
  assert.deepEqual(rows(2), {
    Shots: ['1 → 7', '2 → 7', '3 → 7'],
    Checks: ['4 → 1: black', '1 → 4: the Sheriff'],
    Out: ['7: the mafia’s shot'],
    'Best move': ['7 → 1, 2, 9: 2 black'],
  });
  const day = rows(1);
  assert.deepEqual(day.Nominations, ['1 → 5', '2 → 6']);
  assert.deepEqual(day['Vote 1'], ['6 ← 1, 2, 3, 9, 10*', '5 ← 4, 5, 6, 7, 8', 'tie: 5, 6']);
  assert.deepEqual(day['All leave?'], ['yes: 1, 2, 3, 4, 5, 6', 'no: 7, 8, 9, 10']);
  assert.equal(sections[1].rows.find((r) => r.label === 'Out').items[0].rule, 'R-SPORT-07');
  assert.deepEqual(marks, { missing: true, half: false }, 'R-SPORT-05: a missing vote is marked');
});

test('the seats whose tap the moderator made, their phone dead, in every language (issue 28)', () => {
  const nights = example.nights.map((n) => (n.night === 2 ? { ...n, tappedFor: [{ at: 18, seat: 2 }, { at: 24, seat: 5 }] } : n));
  for (const lang of LANGS) {
    const t = makeT(lang);
    const row = course(t, { ...example, nights }).sections[2].rows.find((r) => r.label === t('proto.row.tapped_for'));
    assert.deepEqual(row && row.items.map((x) => x.text), ['2, 5'], lang);
  }
  assert.ok(!course(en, example).sections[2].rows.some((r) => r.label === en('proto.row.tapped_for')), 'a night with no such tap has no row');
});

test('the winner and the rule, in the game’s language', () => {
  assert.deepEqual(winnerLine(en, example), { text: 'The mafia wins!', rule: 'R-SPORT-14' });
  assert.equal(winnerLine(en, { ...example, winner: undefined }), null);
  const ru = makeT('ru');
  assert.equal(seatRows(ru, example)[6].left.text, 'Ночь 2: выстрел мафии');
  assert.deepEqual(course(ru, example).sections[2].rows[1].items.map((x) => x.text), ['4 → 1: чёрный', '1 → 4: шериф']);
});

test('the best move and how many of its seats were black, in every language', () => {
  const line = (t, black) => {
    const p = { ...example, nights: example.nights.map((n) => (n.bestMoves ? { ...n, bestMoves: n.bestMoves.map((m) => ({ ...m, black })) } : n)) };
    const row = course(t, p).sections[2].rows.at(-1);
    return [row.label, ...row.items.map((x) => x.text)];
  };
  assert.deepEqual(line(en, 1), ['Best move', '7 → 1, 2, 9: 1 black']);
  assert.deepEqual(line(makeT('ru'), 2), ['Лучший ход', '7 → 1, 2, 9: 2 чёрных']);
  assert.deepEqual(line(makeT('uk'), 1), ['Найкращий хід', '7 → 1, 2, 9: 1 чорний']);
  assert.deepEqual(line(makeT('ro'), 0), ['Cea mai bună mutare', '7 → 1, 2, 9: 0 negri']);
  const without = { ...example, nights: example.nights.map(({ bestMoves, ...n }) => n) };
  assert.ok(!course(en, without).sections[2].rows.some((r) => r.label === 'Best move'), 'no best move, no row');
});

test('the download is the protocol itself, named after the room code', () => {
  const f = file(example);
  assert.equal(f.name, 'K7QX2M.json');
  assert.deepEqual(JSON.parse(f.text), example);
});

test('the corrections: each decision taken back, in its day or night, in every language', () => {
  const p = { ...example, corrections: [{ at: 30, day: 1, undid: 'warn', seat: 3 }, { at: 31, day: 1, undid: 'advance' }, { at: 90, night: 2, undid: 'pause' }] };
  const { sections } = course(en, p);
  const row = (title) => sections.find((s) => s.title === title).rows.find((r) => r.label === 'Corrected by the moderator');
  assert.deepEqual(row('Day 1').items.map((x) => x.text), [`the warning to #3 ${p.seats[2].name}`, 'the last step forward']);
  assert.deepEqual(row('Night 2').items.map((x) => x.text), ['the pause']);
  assert.equal(row('Day 2'), undefined);
  for (const lang of ['ru', 'uk', 'ro']) {
    const t = makeT(lang);
    const day = course(t, p).sections.find((s) => s.kind === 'day' && s.rows.some((r) => r.label === t('proto.row.corrected')));
    assert.ok(day, lang + ': the corrections have a row');
  }
});
