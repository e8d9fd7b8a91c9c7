// Home: start a game (rule set, custom options, moderator, language), join one, or
// go back to the last one. /new?preset=…&lang=… starts a game without the form.

import { h, replace } from '../dom.js';
import * as api from '../api.js';
import { LANGS, LANG_NAMES } from '../i18n.js';
import { ruleBook, rulesName } from '../options.js';
import { topbar } from '../ui.js';

// hostUrl is the host's control link: the token stays in the fragment, which
// browsers never send to the server.
export function hostUrl(code, token) {
  return `/#host=${encodeURIComponent(code)}&t=${encodeURIComponent(token)}`;
}

// screenUrl is the public shared screen of a game.
export function screenUrl(code) {
  return `/#screen=${encodeURIComponent(code)}`;
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
    error: null,
    creating: !!auto,
    // asking: a person moderates, and this device must say which it is
    // before the game is made (deviceQuestion).
    asking: false,
    joinCode: '',
    // An evening (several tables and rounds, one standings) rather than one
    // game; its size and the names typed in.
    evening: params.get('evening') === '1',
    tables: 1,
    rounds: 4,
    roster: '',
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
    if (auto) start();
    else render();
  }

  // start makes the game the form describes; where a person moderates, it
  // first asks what this device is, since the moderator's console shows
  // every card.
  function start() {
    if (form.evening) {
      createEvening();
      return;
    }
    if (form.moderator === 'host') {
      form.creating = false;
      form.asking = true;
      render();
      return;
    }
    create(request(), 'host');
  }

  // create makes the game and opens it on this device as what it is: the
  // host's page ('host': the app's shared screen with the host's controls,
  // or the moderator's console), or the public shared screen ('screen'),
  // which keeps the host's token only to hand the console to the
  // moderator's phone, and never reads a card.
  async function create(req, device) {
    form.creating = true;
    form.asking = false;
    form.error = null;
    render();
    const res = await api.createGame(req);
    if (res.status === 201 || res.status === 200) {
      const { code, hostToken } = res.body;
      (device === 'screen' ? api.consoleKey : api.host).set(code, hostToken);
      api.prefs.setLast({ code, kind: device });
      app.go(device === 'screen' ? screenUrl(code) : hostUrl(code, hostToken), true);
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

  // createEvening makes the evening the form describes and opens its
  // organiser's page here: its token is kept on this device, as a host's is.
  // Each table's game goes to its moderator from that page, so no device
  // question is asked.
  async function createEvening() {
    form.creating = true;
    form.error = null;
    render();
    const players = form.roster.split('\n').map((n) => n.trim().normalize('NFC')).filter(Boolean);
    const res = await api.createEvening({ ...request(), tables: form.tables, rounds: form.rounds, ...(players.length ? { players } : {}) });
    if (res.status === 201 && res.body) {
      api.organizer.set(res.body.code, res.body.organizerToken);
      app.go('/#evening=' + res.body.code, true);
      return;
    }
    form.creating = false;
    const c = api.errorCode(res);
    form.error = app.t.has('evening.err.' + c) ? app.t('evening.err.' + c)
      : c === 'invalid' || c === 'invalid_options' || c === 'bad_field' || c.startsWith('name_') ? app.t('err.rules', { message: api.errorMessage(res) })
        : app.t(res.status === 0 ? 'err.network' : 'err.generic');
    render();
  }

  // request is the create request of the form: the rule set, and the
  // options changed in it (all of them for a custom mix).
  function request() {
    const req = { preset: form.preset, moderator: form.moderator, lang: form.lang };
    if (form.preset === 'custom') req.options = { ...form.options };
    else if (book.changes(form.options).length) req.options = Object.fromEntries(book.changes(form.options).map((o) => [o.key, form.options[o.key]]));
    return req;
  }

  function shareLink() {
    const q = new URLSearchParams();
    q.set('preset', form.preset);
    q.set('lang', form.lang);
    q.set('moderator', form.moderator);
    for (const [k, v] of book.toQuery(form.options)) q.set(k, v);
    return `${location.origin}/new?${q.toString()}`;
  }

  // setPreset picks a rule set: its own defaults, or for a custom mix the
  // rules as they stand.
  function setPreset(p) {
    form.preset = p;
    form.options = p === 'custom' ? { ...form.options, preset: 'custom' } : book.presetOptions(p);
    render();
  }

  // setOption changes one rule; the rule set stays, changed (rulesName).
  function setOption(key, value) {
    form.options = { ...form.options, [key]: value };
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
    if (form.asking) {
      replace(app.root, bar, h('main', { class: 'home' }, deviceQuestion(t)));
      return;
    }
    const changed = form.preset !== 'custom' && book.changes(form.options).length > 0;
    const presets = h('fieldset', { class: 'presets' }, h('legend', null, t('preset.label')),
      book.presets.map((p) => h('label', { class: ['choice', form.preset === p && 'on'] },
        h('input', { type: 'radio', name: 'preset', value: p, checked: form.preset === p, dataset: { focus: 'preset:' + p }, onchange: () => setPreset(p) }),
        h('span', { class: 'choice-text' }, h('strong', null, t('preset.' + p)), h('span', { class: 'help' }, t('preset.' + p + '.help'))))),
      changed ? h('p', { class: 'rules-name', role: 'status' }, rulesName(t, book, form.options)) : null);

    const moderator = h('fieldset', { class: 'moderator' }, h('legend', null, t('home.moderator')),
      ['app', 'host'].map((m) => h('label', { class: ['choice', form.moderator === m && 'on'] },
        h('input', { type: 'radio', name: 'moderator', value: m, checked: form.moderator === m, dataset: { focus: 'mod:' + m }, onchange: () => { form.moderator = m; render(); } }),
        h('span', { class: 'choice-text' }, h('strong', null, t('home.mod.' + m)), h('span', { class: 'help' }, t('home.mod.' + m + '.help'))))));

    const lang = h('label', { class: 'field' }, h('span', { class: 'field-label' }, t('home.lang')),
      h('select', { name: 'lang', dataset: { focus: 'gamelang' }, onchange: (e) => { form.lang = e.target.value; render(); } },
        LANGS.map((l) => h('option', { value: l, selected: form.lang === l, lang: l }, LANG_NAMES[l]))));

    // A redraw keeps the rules unfolded as the page has them.
    const unfolded = form.preset === 'custom' || changed || !!(document.querySelector('details.options') || {}).open;
    const opts = h('details', { class: 'options', open: unfolded }, h('summary', null, t('home.customise')),
      book.groups.map((g) => h('fieldset', { class: 'opt-group' }, h('legend', null, t('group.' + g)),
        book.options.filter((o) => o.group === g).map((o) => optionField(t, o)))));

    const share = shareLink();
    const shareBox = h('div', { class: 'share' }, h('p', { class: 'field-label' }, t('home.share')),
      h('input', { type: 'text', readonly: true, value: share, 'aria-label': t('home.share'), onfocus: (e) => e.target.select() }),
      h('p', { class: 'help' }, t('home.share.help')));

    const newGame = h('form', {
      class: 'card new-game', onsubmit: (e) => {
        e.preventDefault();
        start();
      },
    },
    h('h2', null, t('home.new')),
    form.error ? h('p', { class: 'error', role: 'alert' }, form.error) : null,
    kind(t), form.evening ? eveningFields(t) : null,
    presets, moderator, lang, opts,
    h('button', { type: 'submit', class: 'primary big', dataset: { action: 'create' } }, t(form.evening ? 'evening.create' : 'home.create')),
    form.evening ? null : shareBox);

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
      resumeLink(t), newGame, join));
  }

  // kind asks for one game or an evening of many (docs/EVENING.md).
  function kind(t) {
    return h('fieldset', { class: 'kind' }, h('legend', null, t('home.kind')),
      [false, true].map((ev) => h('label', { class: ['choice', form.evening === ev && 'on'] },
        h('input', { type: 'radio', name: 'kind', value: ev ? 'evening' : 'game', checked: form.evening === ev, dataset: { focus: 'kind:' + ev }, onchange: () => { form.evening = ev; render(); } }),
        h('span', { class: 'choice-text' }, h('strong', null, t(ev ? 'home.kind.evening' : 'home.kind.game')), h('span', { class: 'help' }, t(ev ? 'home.kind.evening.help' : 'home.kind.game.help'))))));
  }

  // eveningFields: the evening's tables and rounds, and the names typed in
  // (phones that scan its QR code join as well).
  function eveningFields(t) {
    const count = (key, min, max) => h('label', { class: 'field' }, h('span', { class: 'field-label' }, t('evening.' + key)),
      h('input', { type: 'number', name: key, inputmode: 'numeric', min: String(min), max: String(max), value: String(form[key]), dataset: { focus: 'ev-' + key },
        onchange: (e) => { const n = Number.parseInt(e.target.value, 10); if (Number.isFinite(n)) form[key] = Math.min(max, Math.max(min, n)); render(); } }));
    return h('fieldset', { class: 'evening-fields' }, h('legend', null, t('home.kind.evening')),
      count('tables', 1, 10), count('rounds', 1, 12),
      h('label', { class: 'field' }, h('span', { class: 'field-label' }, t('evening.names')),
        h('textarea', { name: 'players', rows: '6', dataset: { focus: 'ev-names' }, 'aria-describedby': 'ev-names-help', oninput: (e) => { form.roster = e.target.value; } }, form.roster),
        h('span', { class: 'help', id: 'ev-names-help' }, t('evening.names.help'))));
  }

  // resumeLink goes back to the last game this browser was at, as what it
  // was there: a player's phone, the shared screen, or the host's page.
  function resumeLink(t) {
    const last = api.prefs.last();
    if (!last || !last.code) return null;
    const token = last.kind === 'host' ? api.host.get(last.code) : null;
    const href = last.kind === 'screen' ? screenUrl(last.code) : token ? hostUrl(last.code, token) : '/join/' + last.code;
    const key = last.kind === 'player' ? 'home.resume' : 'home.resume.host';
    return h('p', { class: 'resume' }, h('a', { class: 'button secondary', href }, t(key, { code: last.code })));
  }

  // deviceQuestion asks, where a person moderates, what this device is: the
  // moderator's own, which becomes the console and shows every card, or a
  // screen the table sees, which becomes the shared screen and shows none.
  function deviceQuestion(t) {
    const way = (device, key) => h('button', { type: 'button', class: ['choice-button', device === 'screen' ? 'primary' : 'secondary'], dataset: { action: 'device', device }, onclick: () => create(request(), device) },
      h('strong', null, t(key)), h('span', { class: 'help' }, t(key + '.help')));
    return h('section', { class: 'card device-question', dataset: { screen: 'device' } },
      h('h2', null, t('home.device')),
      h('p', null, t('home.device.help')),
      h('p', { class: 'muted' }, rulesName(t, book, form.options)),
      h('div', { class: 'ways' }, way('screen', 'home.device.screen'), way('host', 'home.device.console')),
      h('button', { type: 'button', class: 'secondary', dataset: { action: 'back' }, onclick: () => { form.asking = false; render(); } }, t('common.back')));
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
      // A choice is a row of radios: its words wrap, where a drop-down would
      // cut them to its width.
      return h('div', { class: 'opt opt-choice', role: 'radiogroup', 'aria-labelledby': id, 'aria-describedby': id + '-help' },
        h('span', { id, class: 'opt-name' }, t('opt.' + o.key)),
        o.choices.map((c) => h('label', { class: ['opt-line', v === c && 'on'] },
          h('input', { type: 'radio', name: id, value: c, checked: v === c, dataset: { focus: id + ':' + c }, onchange: () => setOption(o.key, c) }),
          h('span', null, t('opt.' + o.key + '.' + c)))),
        h('p', { class: 'help', id: id + '-help' }, t('opt.' + o.key + '.help')));
    }
    return h('div', { class: 'opt' }, h('label', { for: id, class: 'opt-name' }, t('opt.' + o.key)), input,
      h('p', { class: 'help', id: id + '-help' }, t('opt.' + o.key + '.help')));
  }

  return { unmount() {}, rerender: render };
}
