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

  // toQuery turns options into link parameters: only what differs from the
  // defaults of "custom", booleans as 1/0.
  function toQuery(opts) {
    const base = defaults.custom;
    const out = [];
    for (const o of options) {
      const v = opts[o.key];
      if (v === undefined || v === base[o.key]) continue;
      out.push([o.key, o.type === 'bool' ? (v ? '1' : '0') : String(v)]);
    }
    return out;
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

  return { presets, options, groups, presetOptions, toQuery, fromQuery };
}
