// i18n completeness: every key in every language, the same placeholders, every
// plural category the language needs, and the formatting rules.
import test from 'node:test';
import assert from 'node:assert/strict';
import { LOCALES, LANGS, loadLang, format, placeholders, translate, makeT, pickLang, roleKey, sheriffVariant, usesCommissar } from '../js/i18n.js';
import { schema } from './rules.js';

// The pages load one language each; these tests read every one.
await Promise.all(LANGS.map(loadLang));

const { options: OPTIONS, groups: GROUPS, presets: PRESETS } = schema;

const en = LOCALES.en;

function forms(msg) {
  return typeof msg === 'object' ? Object.entries(msg) : [['', msg]];
}

function placeholdersOf(msg) {
  const all = new Set();
  for (const [, text] of forms(msg)) for (const p of placeholders(text)) all.add(p);
  return [...all].sort();
}

test('every language has every English key, and no others', () => {
  for (const lang of LANGS) {
    const table = LOCALES[lang];
    const missing = Object.keys(en).filter((k) => !(k in table));
    const extra = Object.keys(table).filter((k) => !(k in en));
    assert.deepEqual(missing, [], `${lang} lacks keys`);
    assert.deepEqual(extra, [], `${lang} has keys English does not`);
  }
});

test('every message uses the same placeholders in every language', () => {
  for (const lang of LANGS) {
    for (const [key, msg] of Object.entries(en)) {
      const want = placeholdersOf(msg);
      for (const [form, text] of forms(LOCALES[lang][key])) {
        const got = placeholders(text);
        // A plural form may leave {count} out ("You speak next."), nothing else.
        const gotAll = typeof msg === 'object' ? [...new Set([...got, 'count'])].sort() : got;
        const wantAll = typeof msg === 'object' ? [...new Set([...want, 'count'])].sort() : want;
        assert.deepEqual(gotAll, wantAll, `${lang} ${key}${form ? '.' + form : ''}: ${text}`);
      }
    }
  }
});

test('plural messages have every category the language needs, and plain ones are strings', () => {
  for (const lang of LANGS) {
    const cats = new Intl.PluralRules(lang).resolvedOptions().pluralCategories;
    for (const [key, msg] of Object.entries(en)) {
      const m = LOCALES[lang][key];
      assert.equal(typeof m, typeof msg, `${lang} ${key}: plural in one language, plain in another`);
      if (typeof m === 'object') {
        for (const c of cats) assert.ok(typeof m[c] === 'string' && m[c].length > 0, `${lang} ${key} lacks the "${c}" form`);
        assert.ok(typeof m.other === 'string', `${lang} ${key} lacks "other"`);
      } else {
        assert.ok(m.trim().length > 0, `${lang} ${key} is empty`);
      }
    }
  }
});

test('no message is built from fragments: no message starts or ends with a space or a dangling joiner', () => {
  for (const lang of LANGS) {
    for (const [key, msg] of Object.entries(LOCALES[lang])) {
      for (const [, text] of forms(msg)) {
        assert.equal(text, text.trim(), `${lang} ${key} has padding: "${text}"`);
        assert.ok(!/(^|\s)(and|и|і|și|or|или|або|sau)$/i.test(text), `${lang} ${key} ends in a joiner: "${text}"`);
      }
    }
  }
});

test('translations are not left in English', () => {
  const same = (lang) => Object.keys(en).filter((k) => typeof en[k] === 'string' && en[k] === LOCALES[lang][k] && /[a-z]{4,}/.test(en[k]));
  // Words that are the same in both languages (names of roles, placeholders only).
  const allowed = new Set(['role.doctor', 'role.maniac', 'opt.doctor', 'opt.maniac', 'role.don', 'opt.don', 'host.choice', 'player.label', 'player.with_role', 'rules.change', 'rules.seconds']);
  for (const lang of ['ru', 'uk', 'ro']) {
    assert.deepEqual(same(lang).filter((k) => !allowed.has(k)), [], `${lang} has untranslated messages`);
  }
});

test('every option, choice, group and preset of the home form has a label and a help line', () => {
  for (const lang of LANGS) {
    const t = makeT(lang);
    for (const o of OPTIONS) {
      assert.ok(t.has('opt.' + o.key), `${lang} opt.${o.key}`);
      assert.ok(t.has('opt.' + o.key + '.help'), `${lang} opt.${o.key}.help`);
      for (const c of o.choices || []) assert.ok(t.has(`opt.${o.key}.${c}`), `${lang} opt.${o.key}.${c}`);
    }
    for (const g of GROUPS) assert.ok(t.has('group.' + g), `${lang} group.${g}`);
    for (const p of PRESETS) assert.ok(t.has('preset.' + p) && t.has(`preset.${p}.help`), `${lang} preset.${p}`);
  }
});

test('format fills named placeholders and leaves unknown ones visible', () => {
  assert.equal(format('{a} and {b}', { a: 1, b: 'x' }), '1 and x');
  assert.equal(format('{a} {missing}', { a: '<b>' }), '<b> {missing}');
  assert.equal(format('{a}{a}', { a: 0 }), '00');
  assert.deepEqual(placeholders('{x} {y} {x}'), ['x', 'y']);
});

test('translate picks plural forms by count', () => {
  assert.equal(translate('en', 'host.count', { count: 1 }), '1 player');
  assert.equal(translate('en', 'host.count', { count: 5 }), '5 players');
  assert.equal(translate('ru', 'host.count', { count: 1 }), '1 игрок');
  assert.equal(translate('ru', 'host.count', { count: 3 }), '3 игрока');
  assert.equal(translate('ru', 'host.count', { count: 5 }), '5 игроков');
  assert.equal(translate('ru', 'host.count', { count: 21 }), '21 игрок');
  assert.equal(translate('uk', 'host.count', { count: 2 }), '2 гравці');
  assert.equal(translate('ro', 'host.count', { count: 2 }), '2 jucători');
  assert.equal(translate('ro', 'host.count', { count: 20 }), '20 de jucători');
  assert.equal(translate('en', 'phase.closing', { count: 1 }), 'Next step in 1 second');
  assert.equal(translate('en', 'phase.closing', { count: 4 }), 'Next step in 4 seconds');
  assert.equal(translate('ru', 'phase.closing', { count: 4 }), 'Следующий шаг — через 4 секунды');
  assert.equal(translate('ru', 'phase.closing', { count: 5 }), 'Следующий шаг — через 5 секунд');
  assert.equal(translate('uk', 'phase.closing', { count: 1 }), 'Наступний крок — за 1 секунду');
  assert.equal(translate('ro', 'phase.closing', { count: 10 }), 'Pasul următor începe peste 10 secunde');
  assert.equal(translate('en', 'no.such.key'), 'no.such.key');
});

test('the language defaults from the browser', () => {
  assert.equal(pickLang(['ru-RU', 'en']), 'ru');
  assert.equal(pickLang(['de-DE', 'uk']), 'uk');
  assert.equal(pickLang(['ro']), 'ro');
  assert.equal(pickLang(['fr-FR']), 'en');
  assert.equal(pickLang([]), 'en');
});

test('the Sheriff is the Commissar in the classic and party rules', () => {
  assert.ok(usesCommissar({ preset: 'classic' }) && usesCommissar({ preset: 'party' }));
  assert.ok(!usesCommissar({ preset: 'sport' }) && !usesCommissar({ preset: 'maniac' }));
  assert.equal(translate('ru', roleKey('sheriff', { preset: 'classic' })), 'Комиссар');
  assert.equal(translate('ru', roleKey('sheriff', { preset: 'sport' })), 'Шериф');
  assert.equal(translate('uk', roleKey('sheriff', { preset: 'party' })), 'Комісар');
  assert.equal(translate('ro', roleKey('sheriff', { preset: 'maniac' })), 'Șerif');
  assert.equal(translate('ru', roleKey('cinderella', { preset: 'party' })), 'Золушка');
  assert.equal(translate('ru', roleKey('lover', {})), 'Любовница');
  assert.equal(translate('ru', roleKey('citizen', {})), 'Мирный житель');
  assert.equal(sheriffVariant('ev.revealed', { preset: 'party' }), 'ev.revealed.commissar');
});

test('list formatting joins names the way each language does', () => {
  assert.equal(makeT('en').list(['A', 'B', 'C']), 'A, B, and C');
  assert.equal(makeT('ru').list(['A', 'B']), 'A и B');
  assert.equal(makeT('ro').list(['A', 'B']), 'A și B');
});
