import test from 'node:test';
import assert from 'node:assert/strict';
import { tally, yesNo, isYesNo } from '../js/tally.js';

test('tally counts votes per candidate, most first, with voters', () => {
  const r = tally([
    { voter: 'p1', target: 'p3' }, { voter: 'p2', target: 'p4' }, { voter: 'p3', target: 'p4' },
    { voter: 'p4', target: 'p3' }, { voter: 'p5', target: 'p4' }, { voter: 'p6' },
  ], ['p3', 'p4']);
  assert.deepEqual(r.rows.map((x) => [x.target, x.votes, x.voters]), [['p4', 3, ['p2', 'p3', 'p5']], ['p3', 2, ['p1', 'p4']]]);
  assert.deepEqual(r.abstained, ['p6']);
  assert.deepEqual(r.leaders, ['p4']);
});

test('a tie keeps the candidates\' order and names both leaders', () => {
  const r = tally([{ voter: 'a', target: 'x' }, { voter: 'b', target: 'y' }], ['y', 'x', 'z']);
  assert.deepEqual(r.rows.map((x) => x.target), ['y', 'x', 'z']);
  assert.deepEqual(r.leaders, ['y', 'x']);
});

test('a half vote counts one half (R-CLASSIC-10)', () => {
  const r = tally([{ voter: 'a', target: 'x' }, { voter: 'b', target: 'y' }, { voter: 'dead', target: 'y', half: true }]);
  assert.equal(r.rows[0].target, 'y');
  assert.equal(r.rows[0].votes, 1.5);
  assert.deepEqual(r.rows[0].half, ['dead']);
});

test('no ballots, no leaders', () => {
  const r = tally([], ['a']);
  assert.deepEqual(r.leaders, []);
  assert.deepEqual(tally(undefined).rows, []);
});

test('yes/no votes', () => {
  assert.deepEqual(yesNo([{ voter: 'a', yes: true }, { voter: 'b' }, { voter: 'c', yes: false }]), { yes: ['a'], no: ['b', 'c'] });
  assert.ok(isYesNo({ type: 'vote_result', result: 'car_crash' }));
  assert.ok(!isYesNo({ type: 'vote_result' }));
});
