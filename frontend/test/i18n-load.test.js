// A page loads the one language it shows (issue 28): each file of node's test
// runner is a process of its own, so here no language is loaded at the start.
import test from 'node:test';
import assert from 'node:assert/strict';
import { LOCALES, loadLang, loaded, onLoaded, makeT } from '../js/i18n.js';

test('a language is loaded when asked for, and only it', async () => {
  assert.deepEqual(Object.keys(LOCALES), []);
  const heard = [];
  onLoaded((l) => heard.push(l));
  await loadLang('ru');
  assert.deepEqual(Object.keys(LOCALES), ['ru']);
  assert.ok(loaded('ru') && !loaded('en'));
  assert.equal(makeT('ru')('app.title'), 'Город засыпает');
  // English is not loaded: a key missing from Russian comes back as itself.
  assert.equal(makeT('ru')('no.such.key'), 'no.such.key');
  // A language not loaded yet reads as one that is, and loads.
  const en = makeT('en');
  assert.equal(en('app.title'), 'Город засыпает');
  await loadLang('en');
  assert.equal(en('app.title'), 'City Sleeps');
  // Only the language drawn before it was there is to be drawn again.
  assert.deepEqual(heard, ['en']);
  // An unknown language is English.
  await loadLang('xx');
  assert.deepEqual(Object.keys(LOCALES).sort(), ['en', 'ru']);
});
