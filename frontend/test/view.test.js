import test from 'node:test';
import assert from 'node:assert/strict';
import { normalize, publicPart } from '../js/view.js';

test('null lists from the server become empty arrays', () => {
  const v = normalize({ version: 3, players: null, actions: [{ type: 'sleep' }], events: null, phase: { name: 'night', nominations: null },
    you: { id: 'p1', checks: null }, night: { choices: null, done: null } });
  assert.deepEqual(v.players, []);
  assert.deepEqual(v.events, []);
  assert.deepEqual(v.actions, [{ type: 'sleep', targets: [] }]);
  assert.deepEqual(v.phase.nominations, []);
  assert.equal(v.phase.speaker, null);
  assert.deepEqual(v.you.checks, []);
  assert.deepEqual(v.night.choices, []);
  assert.deepEqual(v.night.done, []);
  assert.equal(v.version, 3);
});

test('a full view passes through unchanged in substance', () => {
  const view = { version: 1, players: [{ id: 'p1' }], actions: [], events: [{ type: 'started' }], rules: { preset: 'sport' },
    phase: { name: 'day', speaker: 'p1', endsAt: '2030-01-01T00:00:00Z', queue: ['p1'], candidates: [], nominations: [], voted: [] } };
  assert.deepEqual(normalize(view), view);
  assert.equal(normalize({ phase: { name: 'day', closing: true } }).phase.closing, true);
  assert.equal(normalize(null), null);
});

test('the public part of a moderator\'s view holds no card, act or choice the table has not seen', () => {
  const v = normalize({
    phase: { name: 'night', night: 2 },
    players: [{ id: 'p1', role: 'mafia', team: 'mafia' }, { id: 'p2', role: 'sheriff', team: 'town' }, { id: 'p3', role: 'citizen', team: 'town', alive: false }],
    events: [{ type: 'role', target: 'p3', role: 'citizen' }, { type: 'act', actor: 'p1', target: 'p2', result: 'kill', to: 'mod' }, { type: 'night_fell', night: 2 }],
    night: { choices: [{ actor: 'p1', type: 'kill', target: 'p2' }], done: ['p1'], victims: ['p2'], late: [] },
    // What a seat still to tap may tap tells its card (issue 28).
    actions: [{ type: 'advance' }, { type: 'tap_for', targets: ['p2'], taps: [{ target: 'p2', actions: [{ type: 'check', targets: ['p1'] }, { type: 'sleep' }] }] }],
  });
  const p = publicPart(v);
  assert.deepEqual(p.actions.map((a) => a.type), ['advance']);
  assert.deepEqual(p.players.map((x) => x.role), [undefined, undefined, 'citizen']);
  assert.deepEqual(p.events.map((e) => e.type), ['role', 'night_fell']);
  assert.deepEqual(p.night, { choices: [], done: ['p1'], victims: [] });
  assert.doesNotMatch(JSON.stringify(p), /mafia|sheriff|kill|check/);
  // At the end every card is the table's.
  const over = publicPart({ ...v, phase: { name: 'game_over' } });
  assert.deepEqual(over.players.map((x) => x.role), ['mafia', 'sheriff', 'citizen']);
});
