import test from 'node:test';
import assert from 'node:assert/strict';

// A page just big enough for keepAwake: a document whose listeners the test
// calls, a body, and canvases and videos that record what is done to them.
const listeners = new Map(); // type -> Set of functions
const body = [];
let allowPlay = false; // whether a video's play() is let through, as a tap would
let plays = 0;

function fakeVideo() {
  const attrs = {};
  return {
    style: {}, paused: true, isConnected: false,
    setAttribute: (k, v) => { attrs[k] = String(v); },
    getAttribute: (k) => attrs[k] ?? null,
    play() {
      plays++;
      if (!allowPlay) return Promise.reject(new Error('NotAllowedError'));
      this.paused = false;
      return Promise.resolve();
    },
    pause() { this.paused = true; },
    remove() { this.isConnected = false; body.splice(body.indexOf(this), 1); },
  };
}

function fakeStream() {
  const tracks = [{ kind: 'video', readyState: 'live', stop() { this.readyState = 'ended'; } }];
  return { getTracks: () => tracks, addTrack: (t) => tracks.push(t) };
}

globalThis.window = { MediaStream: class {} };
globalThis.navigator = { vendor: 'Google Inc.' };
globalThis.document = {
  visibilityState: 'visible',
  body: { appendChild: (el) => { el.isConnected = true; body.push(el); } },
  addEventListener: (type, fn) => { if (!listeners.has(type)) listeners.set(type, new Set()); listeners.get(type).add(fn); },
  removeEventListener: (type, fn) => { if (listeners.has(type)) listeners.get(type).delete(fn); },
  createElement: (tag) => (tag === 'video' ? fakeVideo()
    : { captureStream: fakeStream, getContext: () => ({ fillRect() {} }) }),
};
const { keepAwake } = await import('../js/device.js');

const settle = () => new Promise((r) => setImmediate(r));
const tap = () => { for (const fn of [...(listeners.get('click') || [])]) fn(); };
const waitsForTap = () => (listeners.get('click') || new Set()).size > 0;

test('without a Wake Lock, a hidden video keeps the screen on from the first tap, and goes at game over', async () => {
  allowPlay = false;
  keepAwake(true);
  await settle();
  assert.equal(body.length, 1);
  const v = body[0];
  assert.ok(v.paused && waitsForTap(), 'refused before a tap, it waits for one');
  assert.equal(v.muted, true);
  assert.equal(v.getAttribute('aria-hidden'), 'true');
  assert.equal(v.getAttribute('playsinline'), '');
  assert.deepEqual([v.style.position, v.style.opacity, v.style.pointerEvents, v.style.width, v.style.height], ['fixed', '0', 'none', '1px', '1px']);
  const refused = plays;
  keepAwake(true); // the next view: no new video, no new try before the tap
  await settle();
  assert.equal(body.length, 1);
  assert.equal(plays, refused);

  allowPlay = true;
  tap();
  await settle();
  assert.ok(!v.paused && !waitsForTap());

  const tracks = v.srcObject.getTracks();
  keepAwake(false);
  assert.ok(v.paused && !v.isConnected && v.srcObject === null && body.length === 0);
  assert.ok(tracks.every((t) => t.readyState === 'ended'));
  tap();
  await settle();
  assert.equal(body.length, 0, 'a tap after the game brings nothing back');
});

test('a Wake Lock granted makes no video; one refused leaves it to the video', async () => {
  allowPlay = true;
  let grant = true;
  const sentinels = [];
  navigator.wakeLock = {
    request: async () => {
      if (!grant) throw new Error('NotAllowedError');
      const s = { released: false, release: async () => { s.released = true; }, addEventListener() {} };
      sentinels.push(s);
      return s;
    },
  };
  keepAwake(true);
  await settle();
  assert.equal(sentinels.length, 1);
  assert.equal(body.length, 0);
  keepAwake(false);
  assert.ok(sentinels[0].released);

  grant = false;
  keepAwake(true);
  await settle();
  assert.equal(body.length, 1);
  assert.ok(!body[0].paused);
  keepAwake(false);
  assert.equal(body.length, 0);
  delete navigator.wakeLock;
});

test('a Wake Lock granted after the game ended is let go at once', async () => {
  let resolve;
  const s = { released: false, release: async () => { s.released = true; }, addEventListener() {} };
  navigator.wakeLock = { request: () => new Promise((r) => { resolve = r; }) };
  keepAwake(true);
  keepAwake(false); // game over while the browser is still asking
  resolve(s);
  await settle();
  assert.ok(s.released);
  assert.equal(body.length, 0);
  delete navigator.wakeLock;
});
