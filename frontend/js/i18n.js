// i18n: message lookup and whole-sentence templates with named placeholders.
// No DOM access here; the node tests import this module directly.
//
// A message is either a string with {named} placeholders, or, when it depends on a
// number, an object keyed by plural category (Intl.PluralRules: one, few, many,
// other) whose count is the param named "count".

export const LANGS = ['en', 'ru', 'uk', 'ro'];

// LOCALES holds the languages loaded so far, by code: a page loads only the
// one it shows (loadLang), each a module of its own (locales/*.js), so a
// phone downloads one language, not four.
export const LOCALES = {};

// LOADERS import each language's messages: written out one by one (not one
// import with the code in its path) so that the site's bundler makes each its
// own file.
const LOADERS = {
  en: () => import('./locales/en.js'),
  ru: () => import('./locales/ru.js'),
  uk: () => import('./locales/uk.js'),
  ro: () => import('./locales/ro.js'),
};

const loading = {};
const loadedListeners = new Set();
// early are the languages makeT was asked for before they were loaded.
const early = new Set();

// loadLang resolves once lang's messages are loaded (an unknown lang: English),
// and rejects when they could not be fetched.
export function loadLang(lang) {
  const l = LANGS.includes(lang) ? lang : 'en';
  if (LOCALES[l]) return Promise.resolve();
  if (!loading[l]) {
    loading[l] = LOADERS[l]().then((m) => {
      LOCALES[l] = m.default;
      if (early.delete(l)) for (const fn of loadedListeners) fn(l);
    }, (err) => {
      delete loading[l]; // to be tried again
      throw err;
    });
  }
  return loading[l];
}

// loaded reports whether lang's messages are loaded.
export function loaded(lang) {
  return !!LOCALES[lang];
}

// onLoaded calls fn(lang) when the messages of a language arrive that makeT
// was asked for before they had: text drawn meanwhile in another language is
// to be drawn again.
export function onLoaded(fn) {
  loadedListeners.add(fn);
}

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

// message returns the raw message for key in lang, falling back to English
// (when it is loaded), or undefined when no language has it. A language not
// loaded yet reads as English, or as the first language loaded, until it is.
export function message(lang, key) {
  const table = LOCALES[lang] || LOCALES.en || LOCALES[LANGS.find((l) => LOCALES[l])] || {};
  if (Object.prototype.hasOwnProperty.call(table, key)) return table[key];
  if (LOCALES.en && Object.prototype.hasOwnProperty.call(LOCALES.en, key)) return LOCALES.en[key];
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

// makeT binds translate to one language: t(key, params). A language not
// loaded yet starts loading (onLoaded hears when it is there).
export function makeT(lang) {
  const l = LANGS.includes(lang) ? lang : 'en';
  if (!LOCALES[l]) {
    early.add(l);
    loadLang(l).catch(() => {});
  }
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
