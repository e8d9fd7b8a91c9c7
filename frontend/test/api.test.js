import test from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { retried, sendAction, joinGame, takeSeat, deviceId, playAgain, getView, RETRY_MAX_MS, PAD_BLOCK, padded } from '../js/api.js';

// A browser's localStorage, in memory.
globalThis.localStorage = {
  items: new Map(),
  getItem(k) { return this.items.has(k) ? this.items.get(k) : null; },
  setItem(k, v) { this.items.set(k, String(v)); },
  removeItem(k) { this.items.delete(k); },
};

// fakeFetch answers with the given [status, headers] in turn and records each
// request's body.
function fakeFetch(answers) {
  const sent = [];
  globalThis.fetch = async (path, init) => {
    sent.push({ path, method: init.method, type: init.headers['Content-Type'], hash: init.headers['x-amz-content-sha256'], raw: init.body, body: init.body === undefined ? undefined : JSON.parse(init.body) });
    const [status, headers = {}] = answers[Math.min(sent.length, answers.length) - 1];
    return new Response(status === 201 || status === 200 ? '{"ok":true}' : '{"error":{"code":"busy","message":"busy"}}', { status, headers });
  };
  return sent;
}

function recorder() {
  const waits = [];
  return { waits, wait: async (ms) => { waits.push(ms); } };
}

test('a 503 or 429 is tried again after its Retry-After, anything else is the answer', async () => {
  const answers = [{ status: 503, retryAfterMs: 2000 }, { status: 429, retryAfterMs: 1000 }, { status: 0, retryAfterMs: null }, { status: 201 }];
  const r = recorder();
  let n = 0;
  const res = await retried(async () => answers[n++], { tries: 4, wait: r.wait });
  assert.equal(res.status, 201);
  assert.deepEqual(r.waits, [2000, 1000, 1600]); // the third has no Retry-After: 400 ms doubled twice
  for (const status of [400, 401, 404, 409, 415]) {
    let calls = 0;
    const got = await retried(async () => { calls++; return { status }; }, { wait: r.wait });
    assert.equal(got.status, status);
    assert.equal(calls, 1, `status ${status} is final`);
  }
});

test('retries are bounded, and so is a wait', async () => {
  const r = recorder();
  let calls = 0;
  const res = await retried(async () => { calls++; return { status: 503, retryAfterMs: 3600000 }; }, { tries: 3, wait: r.wait });
  assert.equal(res.status, 503);
  assert.equal(calls, 3);
  assert.deepEqual(r.waits, [RETRY_MAX_MS, RETRY_MAX_MS]);
});

test('an action is resent with the same id, as application/json', async () => {
  const sent = fakeFetch([[503, { 'Retry-After': '1' }], [503, { 'Retry-After': '2' }], [200]]);
  const r = recorder();
  const res = await sendAction('K7QX2M', 'tok', { type: 'vote', target: 'p2' }, { wait: r.wait });
  assert.equal(res.status, 200);
  assert.deepEqual(r.waits, [1000, 2000]);
  assert.equal(sent.length, 3);
  assert.ok(sent[0].body.id && sent.every((s) => s.body.id === sent[0].body.id), 'one id for every try');
  assert.ok(sent.every((s) => s.type === 'application/json' && s.method === 'POST'));
});

test('a join is resent with the same join id and this device\'s id', async () => {
  const sent = fakeFetch([[503, { 'Retry-After': '1' }], [201]]);
  const r = recorder();
  const res = await joinGame('K7QX2M', 'Аня', 'join-0123456789abcdef', { wait: r.wait });
  assert.equal(res.status, 201);
  assert.equal(sent.length, 2);
  assert.equal(sent[0].path, '/api/games/K7QX2M/players');
  for (const s of sent) assert.deepEqual(s.body, { name: 'Аня', joinId: 'join-0123456789abcdef', device: deviceId() });
  assert.match(deviceId(), /^[0-9a-f]{32}$/);
  assert.equal(deviceId(), deviceId(), 'the device id is kept');
});

test('a seat key is sent without a name, resent with the same join id', async () => {
  const sent = fakeFetch([[503, { 'Retry-After': '1' }], [201]]);
  const r = recorder();
  const res = await takeSeat('K7QX2M', 'key-0123456789abcdefghij', 'join-0123456789abcdef', '', { wait: r.wait });
  assert.equal(res.status, 201);
  assert.equal(sent.length, 2);
  assert.equal(sent[0].path, '/api/games/K7QX2M/players');
  for (const s of sent) assert.deepEqual(s.body, { seatKey: 'key-0123456789abcdefghij', joinId: 'join-0123456789abcdef', device: deviceId() });
});

test('a seat key goes with the seat code where the game asks for one', async () => {
  const sent = fakeFetch([[201]]);
  await takeSeat('K7QX2M', 'key-0123456789abcdefghij', 'join-0123456789abcdef', '042917');
  assert.deepEqual(sent[0].body, { seatKey: 'key-0123456789abcdefghij', joinId: 'join-0123456789abcdef', device: deviceId(), seatCode: '042917' });
});

test('every POST carries the SHA-256 of its body, which CloudFront signs for the functions; a GET none', async () => {
  const sha = (text) => createHash('sha256').update(text).digest('hex');
  const sent = fakeFetch([[200]]);
  await sendAction('K7QX2M', 'tok', { type: 'vote', target: 'p2', id: 'a1' });
  await playAgain('K7QX2M', 'tok');
  await getView('K7QX2M', 'tok');
  assert.equal(sent[0].hash, sha(sent[0].raw));
  assert.equal(sent[1].raw, undefined);
  assert.equal(sent[1].hash, sha(''), 'a POST without a body hashes the empty one');
  assert.equal(sent[2].method, 'GET');
  assert.equal(sent[2].hash, undefined);
});

// Through TLS, anyone on the table's Wi-Fi sees each request's length: a
// night tap must be as long whatever it does and whoever sends it.
test('every night tap is one block long, whatever it does and names, and parses as sent', async () => {
  const sent = fakeFetch([[200]]);
  const taps = [{ type: 'sleep' }, { type: 'kill', target: 'p3' }, { type: 'check', target: 'p10' }, { type: 'heal', target: 'p1' },
    { type: 'protect', target: 'p30' }, { type: 'defend', target: 'p12' }, { type: 'shoot', target: 'p7' }];
  for (const tap of taps) await sendAction('K7QX2M', 'tok', tap);
  const sizes = sent.map((s) => new TextEncoder().encode(s.raw).length);
  assert.deepEqual(sizes, taps.map(() => PAD_BLOCK));
  sent.forEach((s, i) => assert.deepEqual(s.body, { ...taps[i], id: s.body.id }));
  assert.ok(sent.every((s) => /^\{.*\} *$/.test(s.raw)), 'padded with spaces after the object');
});

test('a body is padded to a whole number of blocks of UTF-8, and no further', () => {
  const block = (text) => new TextEncoder().encode(padded(text)).length;
  assert.equal(block('{}'), PAD_BLOCK);
  assert.equal(block('x'.repeat(PAD_BLOCK)), PAD_BLOCK);
  assert.equal(block('x'.repeat(PAD_BLOCK + 1)), 2 * PAD_BLOCK);
  assert.equal(block(JSON.stringify({ name: 'Аня'.repeat(30) })), 2 * PAD_BLOCK, 'Cyrillic counts two bytes a letter');
});
