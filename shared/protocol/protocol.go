package protocol

import (
	"time"

	"citysleeps/shared/rules"
)

// SchemaVersion is the version of the protocol's JSON (docs/PROTOCOL.md). It
// goes up when a field goes or changes its meaning; a new field leaves it.
const SchemaVersion = 1

// Protocol is the record of one game. Seats are named by their numbers: every
// seat a fact names is a number of Seats. Every fact has At, its place in the
// game's course: the facts of one protocol compare by it, the earlier first, and
// the nights and days by the At of their beginning. It is an order, not an id.
type Protocol struct {
	SchemaVersion int           `json:"schemaVersion"`
	Code          string        `json:"code"`
	Lang          string        `json:"lang"`
	Moderator     string        `json:"moderator"`
	Created       time.Time     `json:"created"`
	Rules         rules.Options `json:"rules"`
	// Over: the game has ended. Before that the record grows, and it is the
	// moderator's alone.
	Over bool `json:"over"`
	// Complete: every night and day is told whole. A game too long for the
	// store lost its oldest nights; WholeFrom is the first one told whole.
	Complete  bool         `json:"complete"`
	WholeFrom int          `json:"wholeFrom,omitempty"`
	Winner    rules.Team   `json:"winner,omitempty"`
	WinRule   rules.RuleID `json:"winRule,omitempty"`
	// ManiacSide is the host's last word on the Maniac's side (R-MANIAC-01).
	ManiacSide *Side   `json:"maniacSide,omitempty"`
	Seats      []Seat  `json:"seats"`
	Nights     []Night `json:"nights"`
	Days       []Day   `json:"days"`
	// Corrections are the host's decisions taken back, in the order they
	// were: the rest of the protocol is the game as it went on after them.
	Corrections []Correction `json:"corrections,omitempty"`
}

// Correction is one decision the host took back (rules.ActCorrect): a
// warning, a removal, a "next", a pause, the Maniac's side.
type Correction struct {
	At int `json:"at"`
	When
	Undid rules.ActionType `json:"undid"`
	// Seat is the player the decision was about (a warning's, a removal's).
	Seat int `json:"seat,omitempty"`
}

// When places a fact in the game: in night n (from nightfall to the day's first
// speech: the morning and its last words, day 0's introductions), or in day n.
// Exactly one of the two is set. Night n comes before day n.
type When struct {
	Night int `json:"night,omitempty"`
	Day   int `json:"day,omitempty"`
}

// Seat is one player: seat number, id, name and card, and what became of them.
type Seat struct {
	Seat  int        `json:"seat"`
	ID    string     `json:"id"`
	Name  string     `json:"name"`
	Role  rules.Role `json:"role,omitempty"`
	Team  rules.Team `json:"team,omitempty"`
	Alive bool       `json:"alive"`
	Fouls []Foul     `json:"fouls,omitempty"`
	// Left is how and when the player left the game; nil while they play.
	Left *Departure `json:"left,omitempty"`
}

// Foul is one warning (R-SPORT-16): the count it brought the player to, and the
// foul the host named, if any.
type Foul struct {
	At int `json:"at"`
	When
	Count int    `json:"count"`
	Foul  string `json:"foul,omitempty"`
}

// How a player left the game (Departure.How).
const (
	LeftKilled    = "killed"    // at night; Cause says by whom
	LeftVote      = "vote"      // by the day's vote; Vote says which round
	LeftRemoved   = "removed"   // by the host
	LeftFouls     = "fouls"     // by warnings
	LeftTestament = "testament" // named in the Commissar's testament (R-CLASSIC-07)
	LeftReveal    = "reveal"    // named by the Commissar who showed his card (R-PARTY-04)
)

// Departure is how and when a player left, and the rule that decided it.
type Departure struct {
	At   int `json:"at"`
	Seat int `json:"seat"`
	When
	How   string `json:"how"`
	Cause string `json:"cause,omitempty"` // killed: rules.Cause…
	Vote  int    `json:"vote,omitempty"`  // vote: the round of the day's votes (1, 2, …)
	Foul  string `json:"foul,omitempty"`  // removed, fouls: the foul named
	// Rule decided it.
	Rule rules.RuleID `json:"rule,omitempty"`
}

// Night is one night: the acts of the night as they were made, and what the
// morning told.
type Night struct {
	At    int   `json:"at"`
	Night int   `json:"night"`
	Acts  []Act `json:"acts"`
	// Left: who died, and who else left the game before the day (a removal, a
	// testament's victim).
	Left []Departure `json:"left"`
	// Saved: who was saved from death, by whom and by which rule.
	Saved []Save `json:"saved,omitempty"`
	// Refused: the Doctor named a player already saved once, and saved the
	// night's other victim, if any (R-MANIAC-07).
	Refused []int `json:"refused,omitempty"`
	// Missed: nobody died ("the morning is good").
	Missed bool `json:"missed,omitempty"`
	// SheriffMissed: the Commissar shot a citizen, and nobody died of it
	// (R-CLASSIC-11).
	SheriffMissed bool `json:"sheriffMissed,omitempty"`
	// Treated: the Doctor's patient was healthy anyway (R-CLASSIC-11).
	Treated int `json:"treated,omitempty"`
	// Commissar: "right" or "wrong", the public check (R-PARTY-03).
	Commissar  string      `json:"commissar,omitempty"`
	Testaments []Testament `json:"testaments,omitempty"`
	// BestMoves: the night's killed named the players they took for black
	// (rules.Options.BestMove; the first night whose shots count only).
	BestMoves []BestMove `json:"bestMoves,omitempty"`
	// TappedFor: the seats whose tap the moderator made, their phone dead
	// (rules.ActTapFor). The tap itself is the seat's, in Acts (a "sleep"
	// is in no list), so a club sees which acts no phone made.
	TappedFor []Hand `json:"tappedFor,omitempty"`
}

// Act is one night act: a shot (kill), a check with its answer, a heal, a
// protection, an Advocate's defence, the Commissar's shot.
type Act struct {
	At     int              `json:"at"`
	Seat   int              `json:"seat"`
	Act    rules.ActionType `json:"act"`
	Target int              `json:"target"`
	// Answer is a check's: "black" or "red" (the Sheriff's), "sheriff" or
	// "not_sheriff" (the Don's).
	Answer string `json:"answer,omitempty"`
	// Late: a black player's shot after the mafia's time, which counts as none
	// (Rule: R-MANIAC-03).
	Late bool         `json:"late,omitempty"`
	Rule rules.RuleID `json:"rule,omitempty"`
}

// Save is one player saved from the night's death.
type Save struct {
	Seat int `json:"seat"`
	// By is the saver's role: doctor, lover or cinderella.
	By   rules.Role   `json:"by,omitempty"`
	Rule rules.RuleID `json:"rule,omitempty"`
}

// Testament is a night-killed Commissar's last word (R-CLASSIC-06).
type Testament struct {
	At      int    `json:"at"`
	Seat    int    `json:"seat"`
	Target  int    `json:"target"`
	Verdict string `json:"verdict"`
}

// BestMove is the best move of a player killed on the first night: the seats
// named in the last word, and how many of them were black, which a club's
// ratings count and the table learns only at the end.
type BestMove struct {
	At      int   `json:"at"`
	Seat    int   `json:"seat"`
	Targets []int `json:"targets"`
	Black   int   `json:"black"`
}

// Day is one day: its nominations and vote rounds, and how it ended.
type Day struct {
	At          int          `json:"at"`
	Day         int          `json:"day"`
	Nominations []Nomination `json:"nominations"`
	// Hands: who raised a hand for a further speech, in order (R-MANIAC-09).
	Hands    []Hand      `json:"hands,omitempty"`
	Revealed *Hand       `json:"revealed,omitempty"` // the Commissar showed his card (R-PARTY-04)
	Votes    []Vote      `json:"votes"`
	Left     []Departure `json:"left"`
	// Defended: sentenced, and kept by the Advocate (R-PARTY-06).
	Defended []Defence `json:"defended,omitempty"`
	// Stayed: nobody left by the vote today, why and by which rule.
	Stayed *Stay `json:"stayed,omitempty"`
}

// Nomination is one player put up for the vote, in the order made.
type Nomination struct {
	At     int `json:"at"`
	By     int `json:"by"`
	Target int `json:"target"`
}

// Hand is a seat's gesture at a moment: a hand raised, a card shown, a tap the
// moderator made for it.
type Hand struct {
	At   int `json:"at"`
	Seat int `json:"seat"`
}

// Kinds of vote (Vote.Kind).
const (
	VoteCandidates = "vote"      // for one of the candidates (the nominees, or anyone)
	VoteHalf       = "half"      // last night's victim's half vote between two (R-CLASSIC-10)
	VoteAllLeave   = "all_leave" // "shall they all leave?", yes or no (R-SPORT-07)
	VoteJustify    = "justify"   // "shall he leave?" after his justification, yes or no (R-MANIAC-10)
)

// Vote is one vote round of a day, ballot by ballot.
type Vote struct {
	At      int      `json:"at"`
	Round   int      `json:"round"`
	Kind    string   `json:"kind"`
	Ballots []Ballot `json:"ballots"`
	// Tied: the players tied for the most votes.
	Tied []int `json:"tied,omitempty"`
	// NotVoted: who did not vote in a compulsory vote, counted without them
	// (R-MANIAC-10).
	NotVoted []int `json:"notVoted,omitempty"`
}

// Ballot is one voter's vote: for Target (none: abstained), yes or no (Yes, in
// a yes/no vote), a half vote, or a vote not given and counted for the last
// nominee (Missing, R-SPORT-05).
type Ballot struct {
	Voter   int   `json:"voter"`
	Target  int   `json:"target,omitempty"`
	Yes     *bool `json:"yes,omitempty"`
	Half    bool  `json:"half,omitempty"`
	Missing bool  `json:"missing,omitempty"`
}

// Defence is a sentence the Advocate's protection undid.
type Defence struct {
	Seat int          `json:"seat"`
	Rule rules.RuleID `json:"rule,omitempty"`
}

// Stay is why nobody left by the day's vote (rules.Acquittal), and the rule.
type Stay struct {
	At   int          `json:"at"`
	Why  string       `json:"why"`
	Rule rules.RuleID `json:"rule,omitempty"`
}

// Side is the Maniac's side, as the host last set it.
type Side struct {
	At   int              `json:"at"`
	Side rules.ManiacSide `json:"side"`
}
