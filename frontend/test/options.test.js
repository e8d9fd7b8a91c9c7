import test from 'node:test';
import assert from 'node:assert/strict';
import { OPTIONS, PRESETS, presetOptions, optionsToQuery, optionsFromQuery } from '../js/options.js';

test('every preset names every option', () => {
  for (const p of PRESETS) {
    const o = presetOptions(p);
    assert.equal(o.preset, p);
    for (const opt of OPTIONS) assert.notEqual(o[opt.key], undefined, `${p} ${opt.key}`);
  }
  assert.equal(presetOptions('nonsense'), null);
});

test('every preset hands over for 8 seconds, and a link may set 0 to 10', () => {
  for (const p of PRESETS) assert.equal(presetOptions(p).handOver, 8, p);
  assert.deepEqual(OPTIONS.find((o) => o.key === 'handOver'), { key: 'handOver', type: 'int', min: 0, max: 10, group: 'timers' });
  assert.equal(optionsFromQuery('custom', new URLSearchParams('handOver=0')).handOver, 0);
  assert.equal(optionsFromQuery('sport', new URLSearchParams('handOver=11')).handOver, 8);
  assert.deepEqual(optionsToQuery({ ...presetOptions('sport'), handOver: 10 }), [['handOver', '10']]);
});

test('options round-trip through a link', () => {
  const o = { ...presetOptions('sport'), preset: 'custom', speech: 45, doctor: true, ties: 'none' };
  const q = new URLSearchParams(optionsToQuery(o));
  assert.equal(q.toString(), 'doctor=1&ties=none&speech=45');
  const back = optionsFromQuery('custom', q);
  assert.deepEqual(back, o);
});

test('bad link values are ignored', () => {
  const o = optionsFromQuery('custom', new URLSearchParams('speech=1&ties=boom&doctor=maybe&x=1&night=90'));
  const base = presetOptions('sport');
  assert.equal(o.speech, base.speech);
  assert.equal(o.ties, base.ties);
  assert.equal(o.doctor, base.doctor);
  assert.equal(o.night, 90);
});
