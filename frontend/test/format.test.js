import test from 'node:test';
import assert from 'node:assert/strict';
import { clock, remaining, countdown, closingSeconds, skewFrom, timeSignal } from '../js/format.js';

test('clock shows m:ss, rounding up', () => {
  assert.equal(clock(60000), '1:00');
  assert.equal(clock(59001), '1:00');
  assert.equal(clock(59000), '0:59');
  assert.equal(clock(1), '0:01');
  assert.equal(clock(0), '0:00');
  assert.equal(clock(-5000), '0:00');
  assert.equal(clock(600000), '10:00');
  assert.equal(clock(undefined), '0:00');
});

test('remaining counts to a deadline, corrected by the clock skew', () => {
  const end = '2030-01-01T00:01:00Z';
  const now = Date.parse('2030-01-01T00:00:00Z');
  assert.equal(remaining(end, now), 60000);
  assert.equal(remaining(end, now, 10000), 50000); // the server is 10 s ahead
  assert.equal(remaining(end, now + 120000), 0);
  assert.equal(remaining(null, now), null);
  assert.equal(remaining('not a date', now), null);
});

test('countdown describes running, paused and absent timers', () => {
  const now = Date.parse('2030-01-01T00:00:00Z');
  assert.deepEqual(countdown({ endsAt: '2030-01-01T00:00:08Z' }, now), { ms: 8000, seconds: 8, text: '0:08', urgent: true, paused: false });
  assert.equal(countdown({ endsAt: '2030-01-01T00:00:45Z' }, now).urgent, false);
  assert.deepEqual(countdown({ endsAt: null, paused: true, pausedLeftMs: 30500 }, now), { ms: 30500, seconds: 31, text: '0:31', urgent: false, paused: true });
  assert.equal(countdown({ endsAt: null }, now), null);
  assert.equal(countdown(null, now), null);
});

test('a hand-over counts its seconds down only while the phase is closing or resuming', () => {
  const now = Date.parse('2030-01-01T00:00:00Z');
  assert.equal(closingSeconds({ closing: true, endsAt: '2030-01-01T00:00:04Z' }, now), 4);
  assert.equal(closingSeconds({ closing: true, endsAt: '2030-01-01T00:00:04Z' }, now + 3500), 1);
  assert.equal(closingSeconds({ closing: true, endsAt: '2030-01-01T00:00:04Z' }, now + 9000), 0);
  assert.equal(closingSeconds({ closing: true, endsAt: '2030-01-01T00:00:04Z' }, now, 2000), 2); // the server is 2 s ahead
  // Resuming: the hand-over runs to endsAt while the step's timer stays frozen.
  const resuming = { resuming: true, endsAt: '2030-01-01T00:00:08Z', pausedLeftMs: 42000 };
  assert.equal(closingSeconds(resuming, now), 8);
  assert.deepEqual(countdown(resuming, now + 5000), { ms: 42000, seconds: 42, text: '0:42', urgent: false, paused: true });
  assert.equal(closingSeconds({ endsAt: '2030-01-01T00:00:04Z' }, now), null);
  assert.equal(closingSeconds({ closing: true, endsAt: null }, now), null);
  assert.equal(closingSeconds(null, now), null);
});

test('skew from the Date header ignores differences within its resolution', () => {
  const t = Date.parse('2030-01-01T00:00:00Z');
  assert.equal(skewFrom('Tue, 01 Jan 2030 00:00:00 GMT', t + 300), 0);
  assert.equal(skewFrom('Tue, 01 Jan 2030 00:00:10 GMT', t), 10500);
  assert.equal(skewFrom('Tue, 01 Jan 2030 00:00:00 GMT', t + 5000), -4500);
  assert.equal(skewFrom(null, t), 0);
  assert.equal(skewFrom('garbage', t), 0);
});

test('the time signals sound at ten seconds left and at zero, once each', () => {
  assert.equal(timeSignal(11, 10), 'soon');
  assert.equal(timeSignal(12, 9), 'soon'); // a tick that skipped a second
  assert.equal(timeSignal(10, 9), null);
  assert.equal(timeSignal(1, 0), 'end');
  assert.equal(timeSignal(12, 0), 'end'); // straight to zero: the end signal only
  assert.equal(timeSignal(0, 0), null);
  assert.equal(timeSignal(null, 10), null); // a page just opened stays quiet
  assert.equal(timeSignal(9, null), null);
  assert.equal(timeSignal(5, 30), null); // a new step
});
