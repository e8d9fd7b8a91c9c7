// Package protocol is the record of one game that a club keeps and imports: every
// seat with its name, card, fouls and how and when it left; every night's acts
// (each black player's shot, the checks and their answers, the saves) and what
// they led to; every day's nominations and vote rounds, ballot by ballot; the
// winner; and for each outcome the rule of docs/RULES.md that decided it, as the
// engine recorded it (rules.Event.Rule).
//
// Of builds it from a game's state alone, with no I/O: it reads the game's whole
// story (rules.History), the past the store keeps beside a long game's story
// included. Its JSON is versioned (SchemaVersion) and documented in
// docs/PROTOCOL.md.
//
//	s = rules.Advance(s, now)
//	p := protocol.Of(s)
//	if !p.Over { /* the moderator's live record; nobody else may see it yet */ }
//	data, _ := json.Marshal(p)
//
// Who may see a protocol is not this package's business: before the end it
// holds every secret of the game, and the service gives it to the moderator only.
package protocol
