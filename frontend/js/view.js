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

// publicRoles are the players whose cards everyone has seen: shown on leaving
// with open cards, revealed, or the game is over.
export function publicRoles(view) {
  const out = new Set();
  for (const e of view.events || []) if (e.type === 'role' && e.target) out.add(e.target);
  if (view.phase && view.phase.name === 'game_over') for (const p of view.players) out.add(p.id);
  return out;
}

// publicPart is what of a (normalized) moderator's view the whole table may
// see: the cards shown to all, the story told to all, and of the night only
// who has tapped, not what, nor what each seat may tap (tap_for). The console
// draws it while its cards are hidden, so that a hidden card is nowhere in the
// page, as a phone's card is not while it lies face down.
export function publicPart(view) {
  const shown = publicRoles(view);
  const players = view.players.map((p) => (shown.has(p.id) ? p : { ...p, role: undefined, team: undefined }));
  const night = view.night ? { choices: [], done: view.night.done, victims: [] } : undefined;
  const actions = view.actions.filter((a) => a.type !== 'tap_for');
  return { ...view, players, actions, events: view.events.filter((e) => !e.to), night };
}
