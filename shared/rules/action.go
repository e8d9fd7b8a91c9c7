package rules

// ActionType names what an action does (DESIGN.md, "HTTP API").
type ActionType string

// Action types.
const (
	// Host actions.
	ActStart      ActionType = "start"
	ActKick       ActionType = "kick"
	ActSeat       ActionType = "seat"
	ActConfigure  ActionType = "configure"
	ActAdvance    ActionType = "advance"
	ActPause      ActionType = "pause"
	ActResume     ActionType = "resume"
	ActWarn       ActionType = "warn"
	ActRemove     ActionType = "remove"
	ActManiacSide ActionType = "maniac_side"
	ActLock       ActionType = "lock"    // close the lobby to new players
	ActUnlock     ActionType = "unlock"  // open it again
	ActBan        ActionType = "ban"     // remove a player from the lobby and refuse their device
	ActReseat     ActionType = "reseat"  // move a seat to another device: the service gives a one-time link (Move)
	ActCorrect    ActionType = "correct" // take the host's latest decision back (correct.go)
	ActTapFor     ActionType = "tap_for" // the moderator taps for a seat whose phone died mid-wake (tapfor.go)
	// Any player.
	ActLeave     ActionType = "leave"
	ActSleep     ActionType = "sleep"
	ActNominate  ActionType = "nominate"
	ActWithdraw  ActionType = "withdraw"
	ActEndSpeech ActionType = "end_speech"
	ActVote      ActionType = "vote"
	ActVoteAll   ActionType = "vote_all"
	ActTestament ActionType = "testament"
	ActRaiseHand ActionType = "raise_hand"
	ActBestMove  ActionType = "best_move" // the first night's killed names up to three players (Options.BestMove)
	// Roles.
	ActKill    ActionType = "kill"
	ActCheck   ActionType = "check"
	ActHeal    ActionType = "heal"
	ActProtect ActionType = "protect"
	ActDefend  ActionType = "defend"
	ActShoot   ActionType = "shoot"
	ActReveal  ActionType = "reveal"
)

// hostActions are the types only the host token may send.
var hostActions = map[ActionType]bool{
	ActStart: true, ActKick: true, ActSeat: true, ActConfigure: true, ActAdvance: true,
	ActPause: true, ActResume: true, ActWarn: true, ActRemove: true, ActManiacSide: true,
	ActLock: true, ActUnlock: true, ActBan: true, ActReseat: true, ActCorrect: true, ActTapFor: true,
}

// playerActions are the types a seated player may send.
var playerActions = map[ActionType]bool{
	ActLeave: true, ActSleep: true, ActNominate: true, ActWithdraw: true, ActEndSpeech: true,
	ActVote: true, ActVoteAll: true, ActTestament: true, ActRaiseHand: true, ActBestMove: true, ActKill: true, ActCheck: true,
	ActHeal: true, ActProtect: true, ActDefend: true, ActShoot: true, ActReveal: true,
}

// Known reports whether t is an action type of the game, of the host's or a
// player's: what a log may name, where any other text a client sent may not.
func (t ActionType) Known() bool { return hostActions[t] || playerActions[t] }

// Verdict is what a night-killed Commissar's testament names a player
// (R-CLASSIC-06).
type Verdict string

// Verdicts.
const (
	VerdictMafia  Verdict = "mafia"
	VerdictHonest Verdict = "honest"
)

// Action is one thing an actor does. ID is the client's own id for the action, used by
// the service to apply a retried request once; the engine ignores it.
type Action struct {
	ID     string     `json:"id"`
	Type   ActionType `json:"type"`
	Target string     `json:"target,omitempty"`
	// Seat is the new seat number for "seat".
	Seat int `json:"seat,omitempty"`
	// Yes is the answer of a "vote_all".
	Yes *bool `json:"yes,omitempty"`
	// Targets are the players a "best_move" names, each once.
	Targets []string `json:"targets,omitempty"`
	// Verdict is what a "testament" names its target (R-CLASSIC-06).
	Verdict Verdict `json:"verdict,omitempty"`
	// Side is "alone" or "mafia" in a "maniac_side" (R-MANIAC-01).
	Side ManiacSide `json:"side,omitempty"`
	// Foul names the foul of a "warn" or a "remove" (Fouls, R-SPORT-16); it may
	// be left out for a breach the rules do not name.
	Foul string `json:"foul,omitempty"`
	// Tap is the seat's own night tap in a "tap_for", as its phone would have
	// sent it: the moderator taps it for the seat named by Target.
	Tap *Tap `json:"tap,omitempty"`
	// Options are the new rules in a "configure".
	Options *Options `json:"options,omitempty"`
	// Now, on an "advance" during a hand-over, ends the hand-over at once.
	// Without it such an advance is refused: it comes from a page that had not
	// yet seen the step end ("next" pressed just as the speaker said "Thank
	// you"), and must not cut the hand-over short for everyone else.
	Now bool `json:"now,omitempty"`
	// Deal is the random seed the dealer shuffles with at "start". The server fills
	// it from crypto/rand; it never comes from a client.
	Deal [32]byte `json:"-"`
}
