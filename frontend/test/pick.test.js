import test from 'node:test';
import assert from 'node:assert/strict';
import { togglePick } from '../js/pick.js';

test('a pick of several seats: a tap adds a seat up to the most, a second tap takes it out', () => {
  let picked = [];
  for (const id of ['p4', 'p1', 'p7']) picked = togglePick(picked, id, 3);
  assert.deepEqual(picked, ['p4', 'p1', 'p7']);
  assert.deepEqual(togglePick(picked, 'p9', 3), ['p4', 'p1', 'p7'], 'a fourth seat changes nothing');
  assert.deepEqual(togglePick(picked, 'p1', 3), ['p4', 'p7']);
  assert.deepEqual(togglePick(togglePick(picked, 'p1', 3), 'p9', 3), ['p4', 'p7', 'p9']);
  assert.deepEqual(picked, ['p4', 'p1', 'p7'], 'the pick given is left as it was');
});
