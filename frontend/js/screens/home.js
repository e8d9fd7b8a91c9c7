// Home: start a game (rule set, custom options, moderator, language), join one, or
// go back to the last one. /new?preset=…&lang=… starts a game without the form.

import { h, replace } from '../dom.js';
import * as api from '../api.js';
import { LANGS, LANG_NAMES } from '../i18n.js';
import { ruleBook } from '../options.js';
import { topbar } from '../ui.js';

// hostUrl is the host's control link: the token stays in the fragment, which
// browsers never send to the server.
export function hostUrl(code, token) {
  return `/#host=${encodeURIComponent(code)}&t=${encodeURIComponent(token)}`;
}

// requestFromQuery reads a /new link into a create request, by the rules the
// server offers (a ruleBook).
export function requestFromQuery(book, params) {
  const preset = book.presets.includes(params.get('preset')) ? params.get('preset') : 'sport';
  const lang = LANGS.includes(params.get('lang')) ? params.get('lang') : undefined;
  const moderator = params.get('moderator') === 'host' ? 'host' : 'app';
  const changed = book.options.some((o) => params.has(o.key));
  const req = { preset, moderator };
  if (lang) req.lang = lang;
  if (preset === 'custom' || changed) {
    req.options = book.fromQuery(preset, params);
  }
  return req;
}

export function homeScreen(app, { auto } = {}) {
  const params = new URLSearchParams(location.search);
  let book = null; // the rules the server offers (ruleBook), once loaded
  let failed = false; // the rules could not be loaded
  const form = {
    preset: params.get('preset') || 'sport',
    moderator: params.get('moderator') === 'host' ? 'host' : 'app',
    lang: LANGS.includes(params.get('lang')) ? params.get('lang') : app.lang,
    options: null,
    custom: false,
    error: null,
    creating: !!auto,
    joinCode: '',
  };
  load();

  // load fetches the rules the form offers, then shows the form (or, for a
  // /new link, creates the game at once).
  async function load() {
    failed = false;
    render();
    const schema = await api.loadRules();
    if (!schema) {
      failed = true;
      form.creating = false;
      render();
      return;
    }
    book = ruleBook(schema);
    if (!book.presets.includes(form.preset)) form.preset = 'sport';
    form.options = book.fromQuery(form.preset, params);
    form.custom = form.preset === 'custom';
    if (auto) create(requestFromQuery(book, params));
    else render();
  }

  async function create(req) {
    form.creating = true;
    form.error = null;
    render();
    const res = await api.createGame(req);
    if (res.status === 201 || res.status === 200) {
      const { code, hostToken } = res.body;
      api.host.set(code, hostToken);
      api.prefs.setLast({ code, kind: 'host' });
      if (req.lang && !api.prefs.lang()) app.setLang(req.lang, false);
      app.go(hostUrl(code, hostToken), true);
      return;
    }
    form.creating = false;
    const c = api.errorCode(res);
    form.error = c === 'invalid_options' || c === 'bad_field'
      ? app.t('err.rules', { message: api.errorMessage(res) })
      : app.t(res.status === 0 ? 'err.network' : 'err.generic');
    if (auto) history.replaceState(null, '', '/' + location.search);
    render();
  }

  function request() {
    const req = { preset: form.preset, moderator: form.moderator, lang: form.lang };
    if (form.custom) req.options = { ...form.options, preset: form.preset };
    return req;
  }

  function shareLink() {
    const q = new URLSearchParams();
    q.set('preset', form.preset);
    q.set('lang', form.lang);
    q.set('moderator', form.moderator);
    if (form.custom) for (const [k, v] of book.toQuery(form.options)) q.set(k, v);
    return `${location.origin}/new?${q.toString()}`;
  }

  function setPreset(p) {
    form.preset = p;
    if (p !== 'custom') {
      form.options = book.presetOptions(p);
      form.custom = false;
    } else {
      form.options = { ...form.options, preset: 'custom' };
      form.custom = true;
    }
    render();
  }

  function setOption(key, value) {
    form.options = { ...form.options, [key]: value };
    if (form.preset !== 'custom') form.preset = 'custom';
    form.custom = true;
    form.options.preset = 'custom';
    render();
  }

  function render() {
    const t = app.t;
    const bar = topbar(t, { lang: app.lang, onLang: (l) => { app.setLang(l); if (!params.get('lang')) form.lang = l; render(); } });
    if (form.creating) {
      replace(app.root, bar, h('main', { class: 'home' }, h('p', { class: 'loading', role: 'status' }, t('home.creating'))));
      return;
    }
    if (!book) {
      replace(app.root, bar, h('main', { class: 'home' }, failed
        ? h('div', { class: 'card' }, h('p', { class: 'error', role: 'alert' }, t('err.network')),
          h('button', { type: 'button', class: 'primary big', onclick: load }, t('common.retry')))
        : h('p', { class: 'loading', role: 'status' }, '…')));
      return;
    }
    const last = api.prefs.last();
    const resume = last && last.code ? h('p', { class: 'resume' }, h('a', {
      class: 'button secondary',
      href: last.kind === 'host' && api.host.get(last.code) ? hostUrl(last.code, api.host.get(last.code)) : '/join/' + last.code,
    }, last.kind === 'host' ? t('home.resume.host', { code: last.code }) : t('home.resume', { code: last.code }))) : null;

    const presets = h('fieldset', { class: 'presets' }, h('legend', null, t('preset.label')),
      book.presets.map((p) => h('label', { class: ['choice', form.preset === p && 'on'] },
        h('input', { type: 'radio', name: 'preset', value: p, checked: form.preset === p, dataset: { focus: 'preset:' + p }, onchange: () => setPreset(p) }),
        h('span', { class: 'choice-text' }, h('strong', null, t('preset.' + p)), h('span', { class: 'help' }, t('preset.' + p + '.help'))))));

    const moderator = h('fieldset', { class: 'moderator' }, h('legend', null, t('home.moderator')),
      ['app', 'host'].map((m) => h('label', { class: ['choice', form.moderator === m && 'on'] },
        h('input', { type: 'radio', name: 'moderator', value: m, checked: form.moderator === m, dataset: { focus: 'mod:' + m }, onchange: () => { form.moderator = m; render(); } }),
        h('span', { class: 'choice-text' }, h('strong', null, t('home.mod.' + m)), h('span', { class: 'help' }, t('home.mod.' + m + '.help'))))));

    const lang = h('label', { class: 'field' }, h('span', { class: 'field-label' }, t('home.lang')),
      h('select', { name: 'lang', dataset: { focus: 'gamelang' }, onchange: (e) => { form.lang = e.target.value; render(); } },
        LANGS.map((l) => h('option', { value: l, selected: form.lang === l, lang: l }, LANG_NAMES[l]))));

    const opts = h('details', { class: 'options', open: form.custom }, h('summary', null, t('home.customise')),
      book.groups.map((g) => h('fieldset', { class: 'opt-group' }, h('legend', null, t('group.' + g)),
        book.options.filter((o) => o.group === g).map((o) => optionField(t, o)))));

    const share = shareLink();
    const shareBox = h('div', { class: 'share' }, h('p', { class: 'field-label' }, t('home.share')),
      h('input', { type: 'text', readonly: true, value: share, 'aria-label': t('home.share'), onfocus: (e) => e.target.select() }),
      h('p', { class: 'help' }, t('home.share.help')));

    const newGame = h('form', {
      class: 'card new-game', onsubmit: (e) => {
        e.preventDefault();
        create(request());
      },
    },
    h('h2', null, t('home.new')),
    form.error ? h('p', { class: 'error', role: 'alert' }, form.error) : null,
    presets, moderator, lang, opts,
    h('button', { type: 'submit', class: 'primary big', dataset: { action: 'create' } }, t('home.create')),
    shareBox);

    const join = h('form', {
      class: 'card join-game', onsubmit: (e) => {
        e.preventDefault();
        const code = api.normCode(form.joinCode);
        if (code) app.go('/join/' + code);
      },
    },
    h('h2', null, t('home.join')),
    h('label', { class: 'field' }, h('span', { class: 'field-label' }, t('home.code')),
      h('input', { type: 'text', name: 'code', autocapitalize: 'characters', autocomplete: 'off', maxlength: '12', value: form.joinCode, dataset: { focus: 'code' }, oninput: (e) => { form.joinCode = e.target.value; } })),
    h('button', { type: 'submit', class: 'secondary big' }, t('home.join.button')));

    replace(app.root, bar, h('main', { class: 'home' },
      h('div', { class: 'hero' }, h('h1', null, t('app.title')), h('p', { class: 'tagline' }, t('app.tagline'))),
      resume, newGame, join));
  }

  function optionField(t, o) {
    const id = 'opt-' + o.key;
    const v = form.options[o.key];
    let input;
    if (o.type === 'bool') {
      input = h('input', { id, type: 'checkbox', checked: !!v, dataset: { focus: id }, onchange: (e) => setOption(o.key, e.target.checked) });
      return h('div', { class: 'opt opt-bool' }, h('label', { for: id, class: 'opt-line' }, input, h('span', { class: 'opt-name' }, t('opt.' + o.key))),
        h('p', { class: 'help', id: id + '-help' }, t('opt.' + o.key + '.help')));
    }
    if (o.type === 'int') {
      input = h('input', {
        id, type: 'number', inputmode: 'numeric', min: String(o.min), max: String(o.max), value: String(v), dataset: { focus: id }, 'aria-describedby': id + '-help',
        onchange: (e) => {
          const n = Number.parseInt(e.target.value, 10);
          if (Number.isFinite(n)) setOption(o.key, Math.min(o.max, Math.max(o.min, n)));
        },
      });
    } else {
      input = h('select', { id, dataset: { focus: id }, 'aria-describedby': id + '-help', onchange: (e) => setOption(o.key, e.target.value) },
        o.choices.map((c) => h('option', { value: c, selected: v === c }, t('opt.' + o.key + '.' + c))));
    }
    return h('div', { class: 'opt' }, h('label', { for: id, class: 'opt-name' }, t('opt.' + o.key)), input,
      h('p', { class: 'help', id: id + '-help' }, t('opt.' + o.key + '.help')));
  }

  return { unmount() {}, rerender: render };
}
