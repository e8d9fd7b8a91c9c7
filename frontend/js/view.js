// normalize makes a view from the server safe to draw: every list the screens
// read is an array (Go sends an empty list as null), every optional object has
// its lists too. No DOM access.
export function normalize(view) {
  if (!view || typeof view !== 'object') return view;
  const arr = (x) => (Array.isArray(x) ? x : []);
  const v = { ...view };
  v.players = arr(v.players);
  v.actions = arr(v.actions).map((a) => ({ ...a, targets: arr(a.targets) }));
  v.events = arr(v.events).map((e) => (e.ballots === undefined || Array.isArray(e.ballots) ? e : { ...e, ballots: [] }));
  v.rules = v.rules || {};
  const p = { ...(v.phase || {}) };
  p.name = p.name || 'lobby';
  for (const k of ['queue', 'candidates', 'nominations', 'voted']) p[k] = arr(p[k]);
  p.speaker = p.speaker || null;
  p.endsAt = p.endsAt || null;
  v.phase = p;
  if (v.you) v.you = { ...v.you, checks: arr(v.you.checks), shots: arr(v.you.shots), victims: arr(v.you.victims) };
  if (v.night) v.night = { ...v.night, choices: arr(v.night.choices), done: arr(v.night.done), victims: arr(v.night.victims) };
  return v;
}
