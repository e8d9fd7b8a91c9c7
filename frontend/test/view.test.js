import test from 'node:test';
import assert from 'node:assert/strict';
import { normalize } from '../js/view.js';

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
