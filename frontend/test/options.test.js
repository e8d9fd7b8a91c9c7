import test from 'node:test';
import assert from 'node:assert/strict';
import { ruleBook, rulesName } from '../js/options.js';
import { makeT, LANGS, loadLang } from '../js/i18n.js';
import { schema } from './rules.js';

// The pages load one language each; these tests read every one.
await Promise.all(LANGS.map(loadLang));

const book = ruleBook(schema);

test('every preset names every option', () => {
  for (const p of book.presets) {
    const o = book.presetOptions(p);
    assert.equal(o.preset, p);
    for (const opt of book.options) assert.notEqual(o[opt.key], undefined, `${p} ${opt.key}`);
  }
  assert.equal(book.presetOptions('nonsense'), null);
  assert.equal(book.presetOptions('constructor'), null);
});

test('a preset is handed out as a copy', () => {
  book.presetOptions('sport').speech = 1;
  assert.equal(book.presetOptions('sport').speech, 60);
});

test('every preset hands over for 3 seconds, and a link may set 0 to 10', () => {
  for (const p of book.presets) assert.equal(book.presetOptions(p).handOver, 3, p);
  assert.deepEqual(book.options.find((o) => o.key === 'handOver'), { key: 'handOver', type: 'int', min: 0, max: 10, group: 'timers' });
  assert.equal(book.fromQuery('custom', new URLSearchParams('handOver=0')).handOver, 0);
  assert.equal(book.fromQuery('sport', new URLSearchParams('handOver=11')).handOver, 3);
  assert.deepEqual(book.toQuery({ ...book.presetOptions('sport'), handOver: 10 }), [['handOver', '10']]);
});

test('options round-trip through a link', () => {
  const o = { ...book.presetOptions('sport'), preset: 'custom', speech: 45, doctor: true, ties: 'none' };
  const q = new URLSearchParams(book.toQuery(o));
  assert.equal(q.toString(), 'doctor=1&ties=none&speech=45');
  const back = book.fromQuery('custom', q);
  assert.deepEqual(back, o);
});

test('a rule set changed keeps its name, and its link says what changed', () => {
  const o = { ...book.presetOptions('sport'), speech: 30 };
  assert.deepEqual(book.toQuery(o), [['speech', '30']]);
  assert.deepEqual(book.fromQuery('sport', new URLSearchParams('speech=30')), o);
  assert.equal(rulesName(makeT('en'), book, o), 'Sport, changed: Monologue: 30 s');
  assert.equal(rulesName(makeT('en'), book, { ...o, doctor: true }), 'Sport, changed: Doctor: on and Monologue: 30 s');
  assert.equal(rulesName(makeT('en'), book, book.presetOptions('sport')), 'Sport');
  // Without the schema, or for a custom mix, the rule set's name alone.
  assert.equal(rulesName(makeT('en'), null, o), 'Sport');
  assert.equal(rulesName(makeT('en'), book, { ...o, preset: 'custom' }), 'Custom');
  for (const lang of LANGS) assert.doesNotMatch(rulesName(makeT(lang), book, { ...o, ties: 'none' }), /\{|rules\.|opt\./, lang);
});

test('bad link values are ignored', () => {
  const o = book.fromQuery('custom', new URLSearchParams('speech=1&ties=boom&doctor=maybe&x=1&night=90'));
  const base = book.presetOptions('sport');
  assert.equal(o.speech, base.speech);
  assert.equal(o.ties, base.ties);
  assert.equal(o.doctor, base.doctor);
  assert.equal(o.night, 90);
});
