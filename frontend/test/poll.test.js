import test from 'node:test';
import assert from 'node:assert/strict';
import { nextDelay, isTransient, Poller, BACKOFF_MAX_MS } from '../js/poll.js';

test('the delay follows the server while all is well', () => {
  assert.equal(nextDelay({ pollAfterMs: 700 }), 700);
  assert.equal(nextDelay({ pollAfterMs: 10 }), 250); // never faster than 250 ms
  assert.equal(nextDelay({ pollAfterMs: 999999 }), 30000);
  assert.equal(nextDelay({}), 2000);
});

test('a hidden page polls slower', () => {
  assert.equal(nextDelay({ pollAfterMs: 700, hidden: true }), 5000);
  assert.equal(nextDelay({ pollAfterMs: 3000, hidden: true }), 15000);
  assert.equal(nextDelay({ pollAfterMs: 30000, hidden: true }), 60000);
});

test('failures back off exponentially with jitter, up to a cap', () => {
  const mid = () => 0.5; // no jitter
  assert.equal(nextDelay({ failures: 1, random: mid }), 1000);
  assert.equal(nextDelay({ failures: 2, random: mid }), 2000);
  assert.equal(nextDelay({ failures: 3, random: mid }), 4000);
  assert.equal(nextDelay({ failures: 10, random: mid }), BACKOFF_MAX_MS);
  assert.equal(nextDelay({ failures: 1000, random: mid }), BACKOFF_MAX_MS);
  assert.equal(nextDelay({ failures: 1, random: () => 0 }), 750);
  assert.equal(nextDelay({ failures: 1, random: () => 0.999999 }), 1250);
  assert.ok(nextDelay({ failures: 5, random: () => 0.99 }) <= BACKOFF_MAX_MS);
});

test('which errors are worth retrying', () => {
  for (const s of [0, 408, 429, 500, 502, 503]) assert.ok(isTransient(s), String(s));
  for (const s of [400, 401, 403, 404, 409]) assert.ok(!isTransient(s), String(s));
});

// fakeTimers runs scheduled callbacks on demand.
function fakeTimers() {
  let now = 0;
  let seq = 0;
  const pending = new Map();
  return {
    setTimeout: (f, ms) => { const id = ++seq; pending.set(id, { f, at: now + ms }); return id; },
    clearTimeout: (id) => pending.delete(id),
    now: () => now,
    next() {
      const [id, job] = [...pending.entries()].sort((a, b) => a[1].at - b[1].at)[0] || [];
      if (!job) return null;
      pending.delete(id);
      now = job.at;
      job.f();
      return job.at;
    },
    get size() { return pending.size; },
  };
}

const tick = () => new Promise((r) => setImmediate(r));

test('the poller sends the ETag, skips 304s, and follows pollAfterMs', async () => {
  const timers = fakeTimers();
  const seen = [];
  const etags = [];
  const answers = [
    { status: 200, etag: '"v1"', body: { version: 1, pollAfterMs: 700 } },
    { status: 304, pollAfterMs: 800 },
    { status: 200, etag: '"v2"', body: { version: 2, pollAfterMs: 1500 } },
  ];
  const p = new Poller({ fetchView: async (etag) => { etags.push(etag); return answers.shift(); }, onView: (v) => seen.push(v.version), timers, random: () => 0.5 });
  p.start();
  await tick();
  assert.deepEqual(seen, [1]);
  assert.equal(timers.next(), 700);
  await tick();
  assert.deepEqual(seen, [1]); // 304: nothing new, but a new pace from its header
  assert.equal(timers.next(), 1500);
  await tick();
  assert.deepEqual(seen, [1, 2]);
  assert.deepEqual(etags, [null, '"v1"', '"v1"']);
  p.stop();
  assert.equal(timers.size, 0);
});

test('the poller backs off on failures, reports them, and recovers', async () => {
  const timers = fakeTimers();
  const status = [];
  const answers = [{ status: 0 }, { status: 503 }, { status: 200, body: { version: 1, pollAfterMs: 1000 } }];
  const p = new Poller({
    fetchView: async () => { const a = answers.shift(); if (a.status === 0) throw new Error('offline'); return a; },
    onView: () => {}, onStatus: (s) => status.push(s), timers, random: () => 0.5,
  });
  p.start();
  await tick();
  assert.deepEqual(status, [{ failures: 1, live: false }]);
  assert.equal(timers.next(), 1000);
  await tick();
  assert.deepEqual(status.at(-1), { failures: 2, live: false });
  assert.equal(timers.next(), 3000); // 1000 + 2000
  await tick();
  assert.deepEqual(status.at(-1), { failures: 0, live: true });
  assert.equal(p.failures, 0);
  p.stop();
});

test('a final error stops polling', async () => {
  const timers = fakeTimers();
  let fatal = null;
  const p = new Poller({ fetchView: async () => ({ status: 401, body: { error: { code: 'unauthorized' } } }), onView: () => {}, onFatal: (s) => { fatal = s; }, timers });
  p.start();
  await tick();
  assert.equal(fatal, 401);
  assert.equal(timers.size, 0);
});

test('an older view never replaces a newer one', async () => {
  const timers = fakeTimers();
  const seen = [];
  let resolve;
  const p = new Poller({ fetchView: () => new Promise((r) => { resolve = r; }), onView: (v) => seen.push(v.version), timers });
  p.start();
  // An action's answer (version 5) arrives while a poll that read version 4 is on its way.
  assert.ok(p.accept({ version: 5 }));
  resolve({ status: 200, body: { version: 4 } });
  await tick();
  assert.deepEqual(seen, [5]);
  assert.ok(!p.accept({ version: 3 }));
  // The same version with a later tick (a deadline passed) is newer; an earlier tick is not.
  assert.ok(p.accept({ version: 5, tick: 2 }));
  assert.ok(!p.accept({ version: 5, tick: 1 }));
  assert.ok(p.accept({ version: 6 }));
  p.stop();
});

test('now() polls at once, or right after a poll under way', async () => {
  const timers = fakeTimers();
  let calls = 0;
  let resolve;
  const p = new Poller({ fetchView: () => { calls++; return new Promise((r) => { resolve = r; }); }, onView: () => {}, timers });
  p.start();
  p.now(); // a poll is under way: another follows it
  assert.equal(calls, 1);
  resolve({ status: 304 });
  await tick();
  assert.equal(calls, 2);
  p.stop();
});

test('the poller takes the hint from the header of every answer, a 304 included', async () => {
  const timers = fakeTimers();
  const answers = [
    { status: 200, etag: '"v1"', pollAfterMs: 7400, body: { version: 1, pollAfterMs: 7400 } },
    { status: 304, pollAfterMs: 3150 },
    { status: 200, etag: '"v2"', pollAfterMs: 8150, body: { version: 2, pollAfterMs: 8150 } },
  ];
  const p = new Poller({ fetchView: async () => answers.shift(), onView: () => {}, timers, random: () => 0.5 });
  p.start();
  await tick();
  assert.equal(timers.next(), 7400);
  await tick();
  assert.equal(timers.next(), 7400 + 3150); // the 304's header, not the view's old hint
  await tick();
  assert.equal(timers.next(), 7400 + 3150 + 8150);
  p.stop();
});
