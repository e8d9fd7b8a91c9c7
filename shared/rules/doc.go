// Package rules is the Mafia rules engine: every rule set of docs/RULES.md (classic,
// sport, party, maniac and custom mixes), with no I/O, no clock and no randomness of
// its own. Everything else in City Sleeps — the store, the HTTP API, the Lambda
// functions, the frontend — asks this package what may happen; nothing else decides
// a rule.
//
// A game is a plain State value. Apply takes one action by one actor at a time now
// and returns the next state or an *Error saying why not; a refused action leaves the
// state exactly as it was. Deadlines (speeches, nights, votes) live in the state, and
// Advance applies whatever fell due; Apply and ViewOf call it first. Legal lists what
// an actor may do now — Apply accepts exactly that — and ViewOf is the only way state
// leaves the server: each viewer sees only what the rules let them know.
//
//	opts, _ := rules.Preset(rules.PresetSport)
//	s, _ := rules.New("K7QX2M", opts, rules.ModeratorApp, "ru", now)
//	s, p1, _ := rules.Join(s, "Аня", now)
//	// ... nine more players join ...
//	start := rules.Action{Type: rules.ActStart}
//	rand.Read(start.Deal[:]) // the dealer's seed comes from the caller
//	s, err := rules.Apply(s, rules.Actor{Host: true}, start, now)
//	view := rules.ViewOf(s, rules.Viewer{Player: p1}, now)
//	// view.Actions says what p1 may do now, with the valid targets.
//
// Rule IDs in comments (R-SPORT-07) point at docs/RULES.md; tests name the rule they
// check. Where a rule text is open to more than one reading, the comment says which
// reading the engine takes.
package rules
