// i18n: message lookup and whole-sentence templates with named placeholders.
// No DOM access here; the node tests import this module directly.
//
// A message is either a string with {named} placeholders, or, when it depends on a
// number, an object keyed by plural category (Intl.PluralRules: one, few, many,
// other) whose count is the param named "count".

import en from './locales/en.js';
import ru from './locales/ru.js';
import uk from './locales/uk.js';
import ro from './locales/ro.js';

export const LOCALES = { en, ru, uk, ro };
export const LANGS = ['en', 'ru', 'uk', 'ro'];

// Native names of the languages: the same in every language, so not translated.
export const LANG_NAMES = { en: 'English', ru: 'Русский', uk: 'Українська', ro: 'Română' };

const PLACEHOLDER = /\{([a-zA-Z_][a-zA-Z0-9_]*)\}/g;

// pickLang returns the supported language that best matches a list of BCP 47 tags
// (navigator.languages), or "en".
export function pickLang(tags) {
  for (const tag of tags || []) {
    const base = String(tag || '').toLowerCase().split(/[-_]/)[0];
    if (LANGS.includes(base)) return base;
  }
  return 'en';
}

// placeholders lists the {names} a template uses, sorted and unique.
export function placeholders(template) {
  const out = new Set();
  for (const m of String(template).matchAll(PLACEHOLDER)) out.add(m[1]);
  return [...out].sort();
}

// format fills {name} placeholders from params. A missing param stays visible as
// {name} so that a mistake shows instead of silently vanishing.
export function format(template, params = {}) {
  return String(template).replace(PLACEHOLDER, (whole, name) =>
    Object.prototype.hasOwnProperty.call(params, name) && params[name] !== undefined && params[name] !== null
      ? String(params[name])
      : whole);
}

const pluralCache = new Map();
function pluralRules(lang) {
  if (!pluralCache.has(lang)) pluralCache.set(lang, new Intl.PluralRules(lang));
  return pluralCache.get(lang);
}

// message returns the raw message for key in lang, falling back to English, or
// undefined when no language has it.
export function message(lang, key) {
  const table = LOCALES[lang] || LOCALES.en;
  if (Object.prototype.hasOwnProperty.call(table, key)) return table[key];
  if (Object.prototype.hasOwnProperty.call(LOCALES.en, key)) return LOCALES.en[key];
  return undefined;
}

// translate returns the sentence for key in lang with params filled in. Unknown keys
// come back as the key itself, so they are easy to spot.
export function translate(lang, key, params = {}) {
  let msg = message(lang, key);
  if (msg === undefined) return key;
  if (typeof msg === 'object') {
    const n = Number(params.count);
    const cat = pluralRules(lang).select(Number.isFinite(n) ? n : 0);
    msg = msg[cat] ?? msg.other;
  }
  return format(msg, params);
}

// has reports whether key exists (in lang or in English).
export function has(lang, key) {
  return message(lang, key) !== undefined;
}

// makeT binds translate to one language: t(key, params).
export function makeT(lang) {
  const l = LANGS.includes(lang) ? lang : 'en';
  const t = (key, params) => translate(l, key, params);
  t.lang = l;
  t.has = (key) => has(l, key);
  // list joins items the way the language does ("A, B and C").
  t.list = (items) => {
    try {
      return new Intl.ListFormat(l, { style: 'long', type: 'conjunction' }).format(items);
    } catch {
      return items.join(', ');
    }
  };
  return t;
}

// usesCommissar: the classic and party rule texts call the Sheriff "the Commissar"
// (Комиссар); the sport and maniac texts say Sheriff (Шериф).
export function usesCommissar(rules) {
  const p = rules && rules.preset;
  return p === 'classic' || p === 'party';
}

// roleKey is the message key of a role's name under these rules.
export function roleKey(role, rules) {
  if (role === 'sheriff' && usesCommissar(rules)) return 'role.commissar';
  return 'role.' + role;
}

// sheriffVariant picks between two keys that name the Sheriff: key + ".commissar" or
// key + ".sheriff".
export function sheriffVariant(key, rules) {
  return key + (usesCommissar(rules) ? '.commissar' : '.sheriff');
}
