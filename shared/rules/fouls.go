package rules

import "slices"

// Fouls the host may name when warning or removing a player (R-SPORT-16). The rule
// set decides what each one costs, and the story says which was given.
const (
	// FoulWords: saying "honestly" or "I swear": a warning in text 002 (rule 3),
	// removal at once in text 003; Options.ForbiddenWords decides.
	FoulWords = "words"
	// FoulSpeech: speaking out of turn or past one's time: a warning (text 002
	// rules 17-19, text 003).
	FoulSpeech = "speech"
	// FoulAbuse: oaths, bets, appeals to religion, obscenity, insults: the host
	// may remove the player (text 002 rules 2 and 22) or warn them (rule 21).
	FoulAbuse = "abuse"
	// FoulPeeking: looking at night: removal (text 002 rule 4, text 001).
	FoulPeeking = "peeking"
	// FoulPrompting: showing the Sheriff or the Don at night whom to check:
	// removal (text 002 rules 12 and 13).
	FoulPrompting = "prompting"
)

// Fouls lists every foul, in the order a host is offered them.
var Fouls = []string{FoulWords, FoulSpeech, FoulAbuse, FoulPeeking, FoulPrompting}

// foulCosts reports what a foul may cost under these rules: a warning, removal,
// or either, as the host judges.
func (o Options) foulCosts(foul string) (warning, removal bool) {
	switch foul {
	case FoulWords:
		return o.ForbiddenWords != ForbiddenRemoval, o.ForbiddenWords == ForbiddenRemoval
	case FoulSpeech:
		return true, false
	case FoulAbuse:
		return true, true
	}
	return false, true
}

// countsFouls reports whether these rules count fouls at all (R-SPORT-16):
// rules without warnings (classic, party, maniac) name none, and their host
// removes a player for a breach the rules leave unnamed.
func (o Options) countsFouls() bool {
	return o.WarningsToMute > 0 || o.WarningsToRemove > 0
}

// foulsFor lists the fouls a warn or a remove may name: a foul goes with the
// action that gives what the rules say it costs, and none where the rules
// count no fouls.
func (o Options) foulsFor(action ActionType) []string {
	if !o.countsFouls() {
		return nil
	}
	return slices.DeleteFunc(slices.Clone(Fouls), func(f string) bool {
		warning, removal := o.foulCosts(f)
		return !(action == ActWarn && warning || action == ActRemove && removal)
	})
}

// foulRefusal explains why a warn or a remove may not name this foul.
func (o Options) foulRefusal(action ActionType, foul string) *Error {
	if !slices.Contains(Fouls, foul) {
		return refusal(ErrBadField, "foul must be one of words, speech, abuse, peeking, prompting")
	}
	if !o.countsFouls() {
		return refusal(ErrBadField, "these rules name no fouls: send the removal without one")
	}
	if action == ActWarn {
		return refusal(ErrBadField, "under these rules that foul removes the player: send remove")
	}
	return refusal(ErrBadField, "under these rules that foul costs a warning: send warn")
}
