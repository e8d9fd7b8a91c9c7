// The rules a host can choose, as the server describes them (GET /api/rules,
// rules.OptionSchema): the presets with their defaults, and every option's
// kind, range or choices and group. The page keeps no copy of its own.
// Labels are the i18n keys opt.<key>, help lines opt.<key>.help and choice
// names opt.<key>.<choice>. No DOM access.

// ruleBook wraps the server's schema in what the home form needs.
export function ruleBook(schema) {
  const { presets, defaults, options, groups } = schema;

  // presetOptions returns a copy of one rule set's defaults, or null.
  function presetOptions(name) {
    return Object.hasOwn(defaults, name) ? { ...defaults[name] } : null;
  }

  // changes lists the options that differ from the defaults of their rule
  // set (opts.preset; custom starts from its own), in the form's order.
  function changes(opts) {
    const base = presetOptions(opts.preset) || defaults.custom;
    return options.filter((o) => opts[o.key] !== undefined && opts[o.key] !== base[o.key]);
  }

  // toQuery turns options into link parameters: only what differs from the
  // defaults of their rule set, booleans as 1/0.
  function toQuery(opts) {
    return changes(opts).map((o) => [o.key, o.type === 'bool' ? (opts[o.key] ? '1' : '0') : String(opts[o.key])]);
  }

  // fromQuery reads options from link parameters (a URLSearchParams or a
  // [key, value] list) on top of a preset; unknown keys and bad values are
  // ignored.
  function fromQuery(presetName, params) {
    const opts = presetOptions(presetName) || presetOptions('custom');
    opts.preset = presetName;
    const entries = typeof params.entries === 'function' ? [...params.entries()] : params;
    for (const [k, raw] of entries) {
      const o = options.find((x) => x.key === k);
      if (!o) continue;
      if (o.type === 'bool') {
        if (raw === '1' || raw === 'true') opts[k] = true;
        else if (raw === '0' || raw === 'false') opts[k] = false;
      } else if (o.type === 'int') {
        const n = Number.parseInt(raw, 10);
        if (Number.isFinite(n) && n >= o.min && n <= o.max) opts[k] = n;
      } else if (o.choices.includes(raw)) {
        opts[k] = raw;
      }
    }
    return opts;
  }

  return { presets, options, groups, presetOptions, changes, toQuery, fromQuery };
}

// rulesName names the rules a game plays by, with t: the rule set, and what
// was changed in it ("Sport, changed: Monologue: 30 s"). A custom mix is
// named by itself: it has no rule set to differ from. book may be null
// (the schema not loaded yet): then the rule set alone.
export function rulesName(t, book, opts) {
  const preset = opts.preset || 'custom';
  const name = t('preset.' + preset);
  const changed = book && preset !== 'custom' ? book.changes(opts) : [];
  if (!changed.length) return name;
  const items = changed.map((o) => t('rules.change', { option: t('opt.' + o.key), value: optionValue(t, o, opts[o.key]) }));
  return t('rules.changed', { preset: name, changes: t.list(items) });
}

// optionValue words one option's value: on or off, a choice's name, seconds
// for a timer, else the number.
export function optionValue(t, o, v) {
  if (o.type === 'bool') return t(v ? 'opt.on' : 'opt.off');
  if (o.type === 'choice') return t('opt.' + o.key + '.' + v);
  return o.group === 'timers' ? t('rules.seconds', { count: v }) : String(v);
}
