package rules

// The choices of the rule options that are not a number or a switch: each is a
// type of its own, so that the engine compares a choice with its named
// constant, never with a string, and each type lists its allowed values once
// (the option schema, OptionSpecs, offers them and Validate checks them).

// MafiaFormula picks how many black cards a table gets when Options.Mafia is 0.
type MafiaFormula string

const (
	FormulaClassic MafiaFormula = "classic" // R-CLASSIC-01
	FormulaParty   MafiaFormula = "party"   // R-PARTY-01
)

// Win is who wins when.
type Win string

const (
	WinParity      Win = "parity"      // the mafia win once they are as many as the rest (R-SPORT-14)
	WinElimination Win = "elimination" // one side removes the other (R-CLASSIC-08)
)

// MafiaKill is how the team's night shots become one kill.
type MafiaKill string

const (
	KillUnanimous MafiaKill = "unanimous" // every shot on one seat, or a miss (R-SPORT-10)
	KillDon       MafiaKill = "don"       // the Don's shot; with the Don gone, unanimous (R-MANIAC-03)
	KillMajority  MafiaKill = "majority"  // the seat most of the team chose (R-CLASSIC-04)
)

// Voting is who can be voted for.
type Voting string

const (
	VotingNominees Voting = "nominees" // only the day's nominees (R-SPORT-04)
	VotingAnyone   Voting = "anyone"   // any living player (R-CLASSIC-03, R-MANIAC-10)
)

// DayOpener is who opens a day's monologues (R-SPORT-03).
type DayOpener string

const (
	OpenerNextSeat DayOpener = "next_seat" // the next living seat after the day before's opener (texts 000, 002)
	OpenerDaySeat  DayOpener = "day_seat"  // seat n on day n (text 004's closed rules)
)

// NonVoters is what becomes of a vote not cast.
type NonVoters string

const (
	NonVotersLastNominee NonVoters = "last_nominee" // it counts for the last nominee (R-SPORT-05)
	NonVotersAbstain     NonVoters = "abstain"      // a player may vote for nobody (R-PARTY-09)
	NonVotersCompulsory  NonVoters = "compulsory"   // no abstaining; the vote is held open once more (R-MANIAC-10)
)

// Ties is what a tie for most votes leads to.
type Ties string

const (
	TiesCarCrash Ties = "car_crash" // defence, revote, then the all-leave vote (R-SPORT-07)
	TiesRevote   Ties = "revote"    // the day's nominations and vote again (R-PARTY-10)
	TiesJustify  Ties = "justify"   // the tied players justify themselves (R-MANIAC-10)
	TiesNone     Ties = "none"      // everyone stays
)

// LastWords is who gets a last word.
type LastWords string

const (
	LastWordsAll          LastWords = "all"           // everyone who leaves (R-SPORT-09)
	LastWordsTownNight    LastWords = "town_night"    // town players killed at night (R-MANIAC-08)
	LastWordsSheriffNight LastWords = "sheriff_night" // only the Commissar killed at night (R-CLASSIC-06)
	LastWordsNone         LastWords = "none"          // nobody (R-PARTY-09)
)

// Commissar is what the Sheriff does at night.
type Commissar string

const (
	CommissarCheck        Commissar = "check"          // a private check (R-SPORT-12)
	CommissarPublic       Commissar = "public"         // the table hears right or wrong (R-PARTY-03)
	CommissarShoot        Commissar = "shoot"          // he shoots (R-CLASSIC-11)
	CommissarCheckOrShoot Commissar = "check_or_shoot" // he checks or shoots (R-MANIAC-05)
)

// ManiacSide is the side the Maniac plays for (R-MANIAC-01, R-MANIAC-11).
type ManiacSide string

const (
	ManiacAlone ManiacSide = "alone"
	ManiacMafia ManiacSide = "mafia"
)

// LoneManiac is the reading taken of a Maniac who plays alone (R-MANIAC-11).
type LoneManiac string

const (
	LoneLastTwo LoneManiac = "last_two" // a side of his own, winning as one of the last two
	LoneTown    LoneManiac = "town"     // he wins with the town once no black player is left
)

// ForbiddenWords is what saying "honestly" or "I swear" costs (R-SPORT-16).
type ForbiddenWords string

const (
	ForbiddenWarning ForbiddenWords = "warning" // text 002 rule 3
	ForbiddenRemoval ForbiddenWords = "removal" // text 003
)

// choice is one of the option choice types above.
type choice interface {
	~string
}

// names lists choices as the strings the schema offers.
func names[T choice](values ...T) []string {
	out := make([]string, len(values))
	for i, v := range values {
		out[i] = string(v)
	}
	return out
}
