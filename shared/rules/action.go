package rules

// Action types (DESIGN.md, "HTTP API").
const (
	// Host actions.
	ActStart      = "start"
	ActKick       = "kick"
	ActSeat       = "seat"
	ActConfigure  = "configure"
	ActAdvance    = "advance"
	ActPause      = "pause"
	ActResume     = "resume"
	ActWarn       = "warn"
	ActRemove     = "remove"
	ActManiacSide = "maniac_side"
	ActLock       = "lock"   // close the lobby to new players
	ActUnlock     = "unlock" // open it again
	ActBan        = "ban"    // remove a player from the lobby and refuse their device
	// Any player.
	ActLeave     = "leave"
	ActSleep     = "sleep"
	ActNominate  = "nominate"
	ActWithdraw  = "withdraw"
	ActEndSpeech = "end_speech"
	ActVote      = "vote"
	ActVoteAll   = "vote_all"
	ActTestament = "testament"
	ActRaiseHand = "raise_hand"
	// Roles.
	ActKill    = "kill"
	ActCheck   = "check"
	ActHeal    = "heal"
	ActProtect = "protect"
	ActDefend  = "defend"
	ActShoot   = "shoot"
	ActReveal  = "reveal"
)

// hostActions are the types only the host token may send.
var hostActions = map[string]bool{
	ActStart: true, ActKick: true, ActSeat: true, ActConfigure: true, ActAdvance: true,
	ActPause: true, ActResume: true, ActWarn: true, ActRemove: true, ActManiacSide: true,
	ActLock: true, ActUnlock: true, ActBan: true,
}

// playerActions are the types a seated player may send.
var playerActions = map[string]bool{
	ActLeave: true, ActSleep: true, ActNominate: true, ActWithdraw: true, ActEndSpeech: true,
	ActVote: true, ActVoteAll: true, ActTestament: true, ActRaiseHand: true, ActKill: true, ActCheck: true,
	ActHeal: true, ActProtect: true, ActDefend: true, ActShoot: true, ActReveal: true,
}

// Action is one thing an actor does. ID is the client's own id for the action, used by
// the service to apply a retried request once; the engine ignores it.
type Action struct {
	ID     string `json:"id"`
	Type   string `json:"type"`
	Target string `json:"target,omitempty"`
	// Seat is the new seat number for "seat".
	Seat int `json:"seat,omitempty"`
	// Yes is the answer of a "vote_all".
	Yes *bool `json:"yes,omitempty"`
	// Verdict is "mafia" or "honest" in a "testament" (R-CLASSIC-06).
	Verdict string `json:"verdict,omitempty"`
	// Side is "alone" or "mafia" in a "maniac_side" (R-MANIAC-01).
	Side string `json:"side,omitempty"`
	// Foul names the foul of a "warn" or a "remove" (Fouls, R-SPORT-16); it may
	// be left out for a breach the rules do not name.
	Foul string `json:"foul,omitempty"`
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
