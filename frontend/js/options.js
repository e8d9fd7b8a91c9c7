// Rule options as data: what the home screen's custom form offers, and the preset
// defaults (a copy of shared/rules/options.go Preset, kept in step by a Go test in
// frontend/e2e). No DOM access.

export const PRESETS = ['classic', 'sport', 'party', 'maniac', 'custom'];

// OPTIONS lists every rule option of the engine, in the order the form shows them.
// Labels are the i18n keys opt.<key>, help lines opt.<key>.help and choice names
// opt.<key>.<choice>.
export const OPTIONS = [
  { key: 'minPlayers', type: 'int', min: 3, max: 30, group: 'table' },
  { key: 'maxPlayers', type: 'int', min: 3, max: 30, group: 'table' },
  { key: 'mafia', type: 'int', min: 0, max: 10, group: 'table' },
  { key: 'mafiaFormula', type: 'choice', choices: ['classic', 'party'], group: 'table' },
  { key: 'drawSeats', type: 'bool', group: 'table' },
  { key: 'don', type: 'bool', group: 'roles' },
  { key: 'sheriff', type: 'bool', group: 'roles' },
  { key: 'doctor', type: 'bool', group: 'roles' },
  { key: 'lover', type: 'bool', group: 'roles' },
  { key: 'advocate', type: 'bool', group: 'roles' },
  { key: 'cinderella', type: 'bool', group: 'roles' },
  { key: 'maniac', type: 'bool', group: 'roles' },
  { key: 'maniacSide', type: 'choice', choices: ['alone', 'mafia'], group: 'roles' },
  { key: 'loneManiac', type: 'choice', choices: ['last_two', 'town'], group: 'roles' },
  { key: 'openRoles', type: 'bool', group: 'win' },
  { key: 'win', type: 'choice', choices: ['parity', 'elimination'], group: 'win' },
  { key: 'lastPairMafia', type: 'bool', group: 'win' },
  { key: 'firstNightMeeting', type: 'bool', group: 'night' },
  { key: 'mafiaKill', type: 'choice', choices: ['unanimous', 'don', 'majority'], group: 'night' },
  { key: 'eyesClosed', type: 'bool', group: 'night' },
  { key: 'donChecks', type: 'bool', group: 'night' },
  { key: 'commissar', type: 'choice', choices: ['check', 'public', 'shoot', 'check_or_shoot'], group: 'night' },
  { key: 'doctorVictims', type: 'bool', group: 'night' },
  { key: 'doctorOncePerPlayer', type: 'bool', group: 'night' },
  { key: 'doctorNamesPatient', type: 'bool', group: 'night' },
  { key: 'doubleDeath', type: 'bool', group: 'night' },
  { key: 'introRound', type: 'bool', group: 'day' },
  { key: 'voting', type: 'choice', choices: ['nominees', 'anyone'], group: 'day' },
  { key: 'nominationsPerSpeech', type: 'int', min: 1, max: 3, group: 'day' },
  { key: 'maxNominees', type: 'int', min: 0, max: 30, group: 'day' },
  { key: 'nomineeDefence', type: 'bool', group: 'day' },
  { key: 'day1SingleNomineeStays', type: 'bool', group: 'day' },
  { key: 'nonVoters', type: 'choice', choices: ['last_nominee', 'abstain', 'compulsory'], group: 'day' },
  { key: 'ties', type: 'choice', choices: ['car_crash', 'revote', 'justify', 'none'], group: 'day' },
  { key: 'tieRepeats', type: 'int', min: 0, max: 5, group: 'day' },
  { key: 'fourLeftNoRevote', type: 'bool', group: 'day' },
  { key: 'halfVote', type: 'bool', group: 'day' },
  { key: 'voteChange', type: 'bool', group: 'day' },
  { key: 'lastWords', type: 'choice', choices: ['all', 'town_night', 'sheriff_night', 'none'], group: 'day' },
  { key: 'testament', type: 'bool', group: 'day' },
  { key: 'testamentKills', type: 'bool', group: 'day' },
  { key: 'revealAfter', type: 'int', min: 0, max: 5, group: 'day' },
  { key: 'warningsToMute', type: 'int', min: 0, max: 10, group: 'fouls' },
  { key: 'warningsToRemove', type: 'int', min: 0, max: 10, group: 'fouls' },
  { key: 'forbiddenWords', type: 'choice', choices: ['warning', 'removal'], group: 'fouls' },
  { key: 'speech', type: 'int', min: 5, max: 600, group: 'timers' },
  { key: 'defence', type: 'int', min: 5, max: 600, group: 'timers' },
  { key: 'lastWord', type: 'int', min: 5, max: 600, group: 'timers' },
  { key: 'intro', type: 'int', min: 5, max: 600, group: 'timers' },
  { key: 'extraSpeech', type: 'int', min: 0, max: 600, group: 'timers' },
  { key: 'night', type: 'int', min: 10, max: 1800, group: 'timers' },
  { key: 'mafiaTime', type: 'int', min: 0, max: 600, group: 'timers' },
  { key: 'vote', type: 'int', min: 5, max: 600, group: 'timers' },
  { key: 'handOver', type: 'int', min: 0, max: 10, group: 'timers' },
];

export const GROUPS = ['table', 'roles', 'win', 'night', 'day', 'fouls', 'timers'];

// presetOptions returns the defaults of one rule set, as the engine's Preset does.
export function presetOptions(name) {
  const base = {
    preset: name,
    minPlayers: 10, maxPlayers: 10, mafia: 0, mafiaFormula: 'classic',
    don: true, sheriff: true, doctor: false, lover: false, advocate: false, cinderella: false, maniac: false,
    openRoles: false, win: 'parity', lastPairMafia: false,
    drawSeats: true, mafiaKill: 'unanimous', eyesClosed: true, firstNightMeeting: true, introRound: false,
    voting: 'nominees', nominationsPerSpeech: 1, maxNominees: 0, nomineeDefence: false,
    day1SingleNomineeStays: true, nonVoters: 'last_nominee', ties: 'car_crash', tieRepeats: 1,
    fourLeftNoRevote: true, halfVote: false, voteChange: false, lastWords: 'all',
    commissar: 'check', testament: false, testamentKills: false, revealAfter: 0, doubleDeath: false,
    donChecks: true, doctorVictims: false, doctorOncePerPlayer: false, doctorNamesPatient: false,
    maniacSide: 'alone', loneManiac: 'last_two', warningsToMute: 3, warningsToRemove: 4, forbiddenWords: 'warning',
    speech: 60, defence: 30, lastWord: 60, intro: 30, extraSpeech: 0, night: 60, mafiaTime: 0, vote: 30, handOver: 8,
  };
  switch (name) {
    case 'sport':
    case 'custom':
      break;
    case 'classic':
      Object.assign(base, {
        minPlayers: 5, maxPlayers: 20, don: false, donChecks: false, drawSeats: false,
        openRoles: true, win: 'elimination', mafiaKill: 'majority', eyesClosed: false,
        voting: 'anyone', nonVoters: 'abstain', ties: 'revote',
        day1SingleNomineeStays: false, fourLeftNoRevote: false,
        lastWords: 'sheriff_night', testament: true, warningsToMute: 0, warningsToRemove: 0, voteChange: true,
      });
      break;
    case 'party':
      Object.assign(base, {
        minPlayers: 9, maxPlayers: 30, mafiaFormula: 'party', don: false, donChecks: false, drawSeats: false,
        advocate: true, cinderella: true, openRoles: true, win: 'elimination', lastPairMafia: true,
        mafiaKill: 'majority', eyesClosed: false, commissar: 'public', revealAfter: 1, doubleDeath: true,
        maxNominees: 3, nomineeDefence: true, day1SingleNomineeStays: false, fourLeftNoRevote: false,
        nonVoters: 'abstain', ties: 'revote', tieRepeats: 2, lastWords: 'none',
        warningsToMute: 0, warningsToRemove: 0, voteChange: true,
      });
      break;
    case 'maniac':
      Object.assign(base, {
        doctor: true, maniac: true, drawSeats: false, openRoles: true, mafiaKill: 'don', eyesClosed: false,
        introRound: true, voting: 'anyone', nonVoters: 'compulsory', ties: 'justify',
        day1SingleNomineeStays: false, fourLeftNoRevote: false,
        lastWords: 'town_night', commissar: 'check_or_shoot',
        doctorVictims: true, doctorOncePerPlayer: true, defence: 60, lastWord: 30, extraSpeech: 30, mafiaTime: 30,
        warningsToMute: 0, warningsToRemove: 0,
      });
      break;
    default:
      return null;
  }
  return base;
}

// optionsToQuery turns options into link parameters: only what differs from the
// sport defaults (the base of "custom"), booleans as 1/0.
export function optionsToQuery(opts) {
  const base = presetOptions('sport');
  const out = [];
  for (const o of OPTIONS) {
    const v = opts[o.key];
    if (v === undefined || v === base[o.key]) continue;
    out.push([o.key, o.type === 'bool' ? (v ? '1' : '0') : String(v)]);
  }
  return out;
}

// optionsFromQuery reads options from link parameters (a URLSearchParams or a
// [key, value] list) on top of a preset; unknown keys and bad values are ignored.
export function optionsFromQuery(presetName, params) {
  const opts = presetOptions(presetName === 'custom' ? 'sport' : presetName) || presetOptions('sport');
  opts.preset = presetName;
  const entries = typeof params.entries === 'function' ? [...params.entries()] : params;
  for (const [k, raw] of entries) {
    const o = OPTIONS.find((x) => x.key === k);
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
