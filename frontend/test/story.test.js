import test from 'node:test';
import strict from 'node:assert/strict';

// Every name in a sentence is isolated (story.js isolate, U+2068 … U+2069);
// the sentences here are compared without the isolates, which "names are
// isolated" checks on their own.
const bare = (x) => (typeof x === 'string' ? x.replace(/[\u2068\u2069]/g, '') : Array.isArray(x) ? x.map(bare) : x);
const assert = { ...strict, equal: (a, b, m) => strict.equal(bare(a), b, m), deepEqual: (a, b, m) => strict.deepEqual(bare(a), b, m) };
import { readFileSync } from 'node:fs';
import { makeT, LANGS, loadLang } from '../js/i18n.js';
import { eventText, voteLines, story, playerIndex, playerLabel, announcements, lastVote, tidy, nightOutcome, nextStepText, seatsDrawn, bestMoveOf, SPOKEN } from '../js/story.js';

// The pages load one language each; these tests read every one.
await Promise.all(LANGS.map(loadLang));

const players = playerIndex([
  { id: 'p1', seat: 1, name: 'Аня' }, { id: 'p2', seat: 2, name: 'Bob' }, { id: 'p3', seat: 3, name: '<b>Eve</b>' },
]);

// Every event type of shared/rules/events.go, with the results each can carry.
const EVENTS = [
  { type: 'joined', target: 'p1' }, { type: 'left', target: 'p1' }, { type: 'kicked', target: 'p1' },
  { type: 'started' }, { type: 'night_fell', night: 1 }, { type: 'shot', actor: 'p1', target: 'p2' },
  ...['kill', 'check', 'heal', 'protect', 'defend', 'shoot', 'shot', 'odd'].map((r) => ({ type: 'act', actor: 'p1', target: 'p2', result: r })),
  ...['black', 'red', 'sheriff', 'not_sheriff'].map((r) => ({ type: 'checked', actor: 'p1', target: 'p2', result: r })),
  { type: 'commissar', result: 'right' }, { type: 'commissar', result: 'wrong' },
  { type: 'morning' }, { type: 'killed', target: 'p2' }, { type: 'missed' },
  { type: 'healed' }, { type: 'healed', target: 'p2' }, { type: 'healed', target: 'p2', result: 'protected' }, { type: 'healed', target: 'p2', result: 'refused' },
  { type: 'treated', target: 'p2' }, { type: 'sheriff_missed' }, { type: 'day_began', day: 1 }, { type: 'muted', target: 'p1' },
  { type: 'hand', target: 'p1' }, { type: 'nominated', actor: 'p1', target: 'p2' }, { type: 'withdrawn', actor: 'p1', target: 'p2' },
  { type: 'vote_result', ballots: [{ voter: 'p1', target: 'p2' }] }, { type: 'vote_result', result: 'car_crash', ballots: [{ voter: 'p1', yes: true }] },
  { type: 'vote_result', result: 'justify', ballots: [] },
  { type: 'tie', target: 'p1' }, { type: 'tie', result: 'four_left' }, { type: 'tie', target: 'p1', result: 'half_vote' },
  { type: 'not_voted', target: 'p1', result: 'wait' }, { type: 'not_voted', target: 'p1', result: 'lost' },
  ...['vote', 'testament', 'reveal'].map((r) => ({ type: 'eliminated', target: 'p2', result: r })),
  ...['no_nominees', 'single_nominee', 'no_votes', 'four_left', 'tie', 'all_stay', 'justified', 'removed', 'new_reason'].map((r) => ({ type: 'acquitted', result: r })),
  { type: 'defended', target: 'p2' }, { type: 'testament', actor: 'p1', target: 'p2', result: 'mafia' }, { type: 'testament', actor: 'p1', target: 'p2', result: 'honest' },
  { type: 'best_move', actor: 'p1', targets: ['p2', 'p3'] },
  { type: 'revealed', actor: 'p1' }, { type: 'warned', target: 'p1', result: '2' }, { type: 'removed', target: 'p1' }, { type: 'removed', target: 'p1', result: 'fouls' },
  ...['words', 'speech', 'abuse', 'peeking', 'prompting'].map((foul) => ({ type: 'warned', target: 'p1', result: '1', foul })),
  { type: 'removed', target: 'p1', foul: 'words' }, { type: 'removed', target: 'p1', result: 'fouls', foul: 'speech' },
  { type: 'role', target: 'p2', role: 'don' }, { type: 'paused' }, { type: 'resumed' },
  { type: 'maniac_side', result: 'alone' }, { type: 'maniac_side', result: 'mafia' }, { type: 'moved', target: 'p2' }, { type: 'tapped_for', target: 'p2' },
  ...['warn', 'remove'].map((result) => ({ type: 'corrected', result, target: 'p2' })),
  ...['advance', 'pause', 'maniac_side'].map((result) => ({ type: 'corrected', result })),
  { type: 'game_over', result: 'town' }, { type: 'game_over', result: 'mafia' }, { type: 'game_over', result: 'maniac' },
];

test('every event reads as a whole sentence in every language, with no key or placeholder left', () => {
  for (const lang of LANGS) {
    const t = makeT(lang);
    for (const rules of [{ preset: 'sport' }, { preset: 'party' }, { preset: 'maniac', loneManiac: 'town' }]) {
      for (const ev of EVENTS) {
        const text = eventText(ev, { t, players, rules });
        assert.equal(typeof text, 'string', `${lang} ${JSON.stringify(ev)}`);
        assert.ok(!/\{[a-z]+\}/i.test(text), `${lang} ${ev.type}: placeholder left in "${text}"`);
        assert.ok(!/^(ev|winner)\./.test(text), `${lang} ${ev.type}: key "${text}"`);
        for (const id of [ev.actor, ev.target].filter(Boolean)) {
          assert.ok(text.includes(players.get(id).name), `${lang} ${ev.type}: "${text}" does not name ${id}`);
        }
      }
    }
  }
});

test('unknown events are left out of the story', () => {
  assert.equal(eventText({ type: 'from_the_future' }, { t: makeT('en'), players, rules: {} }), null);
});

test('the Commissar is named by the rule set', () => {
  const t = makeT('ru');
  assert.equal(eventText({ type: 'commissar', result: 'right' }, { t, players, rules: { preset: 'party' } }), 'Комиссар был прав.');
  assert.equal(eventText({ type: 'checked', actor: 'p1', target: 'p2', result: 'sheriff' }, { t, players, rules: { preset: 'sport' } }), '№1 Аня проверяет №2 Bob: это Шериф.');
  assert.equal(eventText({ type: 'role', target: 'p2', role: 'sheriff' }, { t, players, rules: { preset: 'classic' } }), 'Карта игрока №2 Bob: Комиссар.');
});

test('a warning or a removal says the foul it was for (R-SPORT-16)', () => {
  const t = makeT('en');
  assert.equal(eventText({ type: 'warned', target: 'p1', result: '1', foul: 'words' }, { t, players, rules: {} }), '#1 Аня gets warning number 1. Foul: “honestly” or “I swear”.');
  assert.equal(eventText({ type: 'removed', target: 'p1' }, { t, players, rules: {} }), '#1 Аня is removed from the game.');
});

test('names go in as plain text', () => {
  const t = makeT('en');
  assert.equal(eventText({ type: 'killed', target: 'p3' }, { t, players, rules: {} }), '#3 <b>Eve</b> was killed tonight.');
  assert.equal(playerLabel(t, players, 'nobody'), 'someone');
});

test('names are isolated, so that a right-to-left name cannot move the seat numbers beside it', () => {
  const t = makeT('en');
  const rtl = playerIndex([{ id: 'p5', seat: 5, name: 'אבג #5' }, { id: 'p6', seat: 6, name: 'Dan' }]);
  strict.equal(playerLabel(t, rtl, 'p5'), '#5 \u2068אבג #5\u2069');
  strict.equal(eventText({ type: 'killed', target: 'p6' }, { t, players: rtl, rules: {} }), '#6 \u2068Dan\u2069 was killed tonight.');
});

test('vote lines say who voted for whom', () => {
  const t = makeT('en');
  const ctx = { t, players, rules: {} };
  assert.deepEqual(voteLines({ type: 'vote_result', ballots: [
    { voter: 'p1', target: 'p2' }, { voter: 'p3', target: 'p2' }, { voter: 'p2', target: 'p1' }, { voter: 'p2x' },
  ] }, ctx), ['#2 Bob: 2 votes — #1 Аня and #3 <b>Eve</b>', '#1 Аня: 1 vote — #2 Bob', '1 abstained: someone']);
  assert.deepEqual(voteLines({ type: 'vote_result', result: 'car_crash', ballots: [{ voter: 'p1', yes: true }, { voter: 'p2' }, { voter: 'p3' }] }, ctx),
    ['Leave: 1 vote — #1 Аня', 'Stay: 2 votes — #2 Bob and #3 <b>Eve</b>']);
  const ru = voteLines({ type: 'vote_result', ballots: [{ voter: 'p1', target: 'p2' }, { voter: 'p3', target: 'p2' }] }, { ...ctx, t: makeT('ru') });
  assert.deepEqual(ru, ['№2 Bob: 2 голоса — №1 Аня и №3 <b>Eve</b>']);
});

test('the story groups events by night and day', () => {
  const t = makeT('en');
  const chapters = story([
    { type: 'joined', target: 'p1' }, { type: 'started' }, { type: 'night_fell', night: 1 }, { type: 'morning', night: 1 },
    { type: 'day_began', day: 1 }, { type: 'vote_result', day: 1, ballots: [{ voter: 'p1', target: 'p2' }] }, { type: 'unknown' },
  ], { t, players, rules: {} });
  assert.deepEqual(chapters.map((c) => c.title), ['Before the first night', 'Night 1', 'Day 1']);
  assert.deepEqual(chapters[2].items.map((i) => i.type), ['day_began', 'vote_result']);
  assert.deepEqual(chapters[2].items[1].lines, ['#2 Bob: 1 vote — #1 Аня']);
  assert.equal(story([{ type: 'joined', target: 'p1' }], { t, players, rules: {} }).length, 0);
  assert.deepEqual(story([{ type: 'day_began', day: 2 }, { type: 'vote_result', day: 2, ballots: [] }, { type: 'acquitted', day: 2, result: 'no_votes' }],
    { t, players, rules: {} })[0].items.map((i) => i.type), ['day_began', 'acquitted']);
  assert.equal(story([{ type: 'joined', target: 'p1' }], { t, players, rules: {} }, { withLobby: true }).length, 1);
});

test('announcements are the news since night fell or morning came', () => {
  const evs = [{ type: 'night_fell' }, { type: 'shot' }, { type: 'morning' }, { type: 'killed', target: 'p1' }, { type: 'checked' }];
  assert.deepEqual(announcements(evs).map((e) => e.type), ['morning', 'killed']);
  assert.equal(lastVote([{ type: 'vote_result', day: 1 }, { type: 'vote_result', day: 2 }, { type: 'morning' }]).day, 2);
  assert.equal(lastVote([]), null);
  assert.equal(lastVote([{ type: 'vote_result', day: 1 }, { type: 'night_fell' }, { type: 'morning' }]), null);
});

test('every event type of the rules engine has a sentence', () => {
  const src = readFileSync(new URL('../../shared/rules/events.go', import.meta.url), 'utf8');
  const types = [...src.matchAll(/^\s*Ev\w+\s+EventType\s*=\s*"(\w+)"/gm)].map((m) => m[1]);
  assert.ok(types.length > 20, 'events.go was read');
  const covered = new Set(EVENTS.map((e) => e.type));
  for (const type of types) {
    assert.ok(covered.has(type), `story.test.js does not try the event "${type}"`);
    assert.notEqual(eventText({ type, actor: 'p1', target: 'p2', result: 'x' }, { t: makeT('en'), players, rules: {} }), null, type);
  }
});

test('at game over the story tells each night act once', () => {
  const t = makeT('en');
  // A finished game shows every event: the moderator's record of each act, the
  // black team's aims and each check with its answer.
  const events = [
    { type: 'night_fell', night: 2 },
    { type: 'act', night: 2, actor: 'p1', target: 'p2', result: 'kill', to: 'mod' },
    { type: 'shot', night: 2, actor: 'p1', target: 'p2', to: 'mafia' },
    { type: 'act', night: 2, actor: 'p3', target: 'p1', result: 'check', to: 'mod' },
    { type: 'checked', night: 2, actor: 'p3', target: 'p1', result: 'black', to: 'p3' },
    { type: 'act', night: 2, actor: 'p2', target: 'p3', result: 'heal', to: 'mod' },
    { type: 'morning', night: 2 },
  ];
  const [night] = story(events, { t, players, rules: {} });
  assert.deepEqual(night.items.map((i) => i.text), [
    'The city falls asleep.',
    '#1 Аня chose to kill #2 Bob.',
    '#3 <b>Eve</b> checked #1 Аня: black.',
    '#2 Bob chose to heal #3 <b>Eve</b>.',
    'The city wakes up.',
  ]);
  // A black player's own aim, with no moderator's record beside it, stays.
  assert.equal(tidy([{ type: 'shot', night: 2, actor: 'p1', target: 'p2' }]).length, 1);
});

test('players tied for the most votes make one sentence', () => {
  for (const lang of LANGS) {
    const t = makeT(lang);
    const [day] = story([{ type: 'day_began', day: 1 }, { type: 'tie', day: 1, target: 'p1' }, { type: 'tie', day: 1, target: 'p2' }], { t, players, rules: {} });
    const ties = day.items.filter((i) => i.type === 'tie');
    assert.equal(ties.length, 1, lang);
    assert.ok(ties[0].text.includes('Аня') && ties[0].text.includes('Bob'), `${lang}: ${ties[0].text}`);
  }
});

test('no tally line ends with a dangling dash', () => {
  for (const lang of LANGS) {
    const ctx = { t: makeT(lang), players, rules: {} };
    const lines = voteLines({ type: 'vote_result', result: 'car_crash', ballots: [{ voter: 'p1', yes: true }, { voter: 'p2', yes: true }] }, ctx);
    assert.equal(lines.length, 1, `${lang}: ${lines}`);
    for (const l of lines) assert.ok(!/[—–-]\s*$/.test(l), `${lang}: "${l}"`);
  }
});

test('the day opens with what the night brought', () => {
  const evs = [
    { type: 'night_fell', night: 2 }, { type: 'act', night: 2, actor: 'p1', target: 'p2', result: 'kill', to: 'mod' },
    { type: 'morning', night: 2 }, { type: 'commissar', night: 2, result: 'right' }, { type: 'killed', night: 2, target: 'p2' },
    { type: 'role', night: 2, target: 'p2', role: 'doctor' }, { type: 'checked', night: 2, actor: 'p3', target: 'p1', result: 'black', to: 'p3' },
    { type: 'day_began', day: 2 }, { type: 'nominated', day: 2, actor: 'p1', target: 'p3' },
  ];
  const out = nightOutcome(evs);
  assert.equal(out.night, 2);
  assert.deepEqual(out.events.map((e) => e.type), ['commissar', 'killed', 'role']);
  // A quiet night says so; a night that has fallen again has no outcome yet.
  assert.deepEqual(nightOutcome([{ type: 'morning', night: 3 }, { type: 'missed', night: 3 }]).events.map((e) => e.type), ['missed']);
  assert.equal(nightOutcome([...evs, { type: 'night_fell', night: 3 }]), null);
  // The last word after the day's vote is the vote's, not the morning's.
  assert.equal(nightOutcome([...evs, { type: 'vote_result', day: 2, ballots: [] }, { type: 'eliminated', day: 2, target: 'p3', result: 'vote' }]), null);
  assert.equal(nightOutcome([{ type: 'started' }]), null);
});

test('the hand-over names what comes next, in every language', () => {
  for (const lang of LANGS) {
    const t = makeT(lang);
    const said = (next, me) => nextStepText(t, next, players, me);
    assert.ok(said({ name: 'day', speaker: 'p2' }).includes('Bob'), `${lang}: ${said({ name: 'day', speaker: 'p2' })}`);
    assert.ok(!said({ name: 'day', speaker: 'p2' }, 'p2').includes('Bob'), `${lang}: the speaker is told "your minute"`);
    for (const name of ['intro', 'defence', 'last_word']) assert.ok(said({ name, speaker: 'p1' }).includes('Аня'), `${lang} ${name}`);
    assert.notEqual(said({ name: 'night', wake: 2 }), said({ name: 'night', wake: 1 }), `${lang}: a second wake is not nightfall`);
    for (const name of ['vote', 'vote_all', 'night', 'morning', 'count', 'game_over']) {
      const text = said({ name });
      assert.ok(text && !/^next\./.test(text), `${lang} ${name}: ${text}`);
    }
    assert.equal(said(null), '');
    assert.equal(said({ name: 'from_the_future' }), '');
  }
  assert.equal(nextStepText(makeT('en'), { name: 'day', speaker: 'p5x' }, players, null), 'someone, your minute');
});

test('the seats drawn by lot are announced after the deal and in the first night', () => {
  const rules = { drawSeats: true };
  assert.ok(seatsDrawn({ rules, phase: { name: 'lobby', closing: true } }));
  assert.ok(seatsDrawn({ rules, phase: { name: 'night', night: 1 } }));
  assert.ok(!seatsDrawn({ rules, phase: { name: 'lobby' } }));
  assert.ok(!seatsDrawn({ rules, phase: { name: 'night', night: 2 } }));
  assert.ok(!seatsDrawn({ rules: { drawSeats: false }, phase: { name: 'night', night: 1 } }));
});

test('a best move names its maker and every seat it names, in every language, and nothing of their cards', () => {
  const ev = { type: 'best_move', night: 2, actor: 'p3', targets: ['p1', 'p2'] };
  const want = {
    en: '#3 <b>Eve</b>’s best move: #1 Аня and #2 Bob.',
    ru: 'Лучший ход игрока №3 <b>Eve</b>: №1 Аня и №2 Bob.',
    uk: 'Найкращий хід гравця №3 <b>Eve</b>: №1 Аня і №2 Bob.',
    ro: 'Cea mai bună mutare a jucătorului #3 <b>Eve</b>: #1 Аня și #2 Bob.',
  };
  for (const lang of LANGS) {
    const t = makeT(lang);
    assert.equal(eventText(ev, { t, players, rules: { preset: 'sport', bestMove: true } }), want[lang], lang);
  }
  assert.ok(SPOKEN.has('best_move'), 'the host repeats the seats named');
  const events = [{ type: 'killed', target: 'p3' }, ev, { type: 'day_began', day: 2 }];
  assert.equal(bestMoveOf(events, 'p3'), ev);
  assert.equal(bestMoveOf(events, 'p1'), null);
  assert.deepEqual(announcements(events.slice(0, 2)).map((e) => e.type), ['killed', 'best_move'], 'the shared screen shows it with the news');
});
