package rules

import "slices"

// Options are the rules in force for one game: a preset's defaults with any house
// changes on top. Every switch the rule texts vary on is here, with the rule that
// decides it.
type Options struct {
	// Preset names the rule set the options started from: classic, sport, party,
	// maniac or custom.
	Preset string `json:"preset"`

	// MinPlayers and MaxPlayers bound the table (R-CLASSIC-01, R-SPORT-01, R-PARTY-01).
	MinPlayers int `json:"minPlayers"`
	MaxPlayers int `json:"maxPlayers"`

	// Mafia is the number of black cards including the Don; 0 means "by the table
	// size" as MafiaFormula says.
	Mafia int `json:"mafia"`
	// MafiaFormula picks the automatic count: "classic" (R-CLASSIC-01) or "party"
	// (R-PARTY-01).
	MafiaFormula MafiaFormula `json:"mafiaFormula"`
	// The special roles dealt, one card each. The rest of the town are citizens.
	Don        bool `json:"don"`
	Sheriff    bool `json:"sheriff"`
	Doctor     bool `json:"doctor"`
	Lover      bool `json:"lover"`
	Advocate   bool `json:"advocate"`
	Cinderella bool `json:"cinderella"`
	Maniac     bool `json:"maniac"`

	// OpenRoles shows a leaving player's card to everyone (R-CLASSIC-03); closed
	// roles keep it hidden until the game ends (R-SPORT-15).
	OpenRoles bool `json:"openRoles"`
	// Win is "parity" (R-SPORT-14) or "elimination" (R-CLASSIC-08).
	Win Win `json:"win"`
	// LastPairMafia makes the mafia win when exactly one black and one other
	// player are left (R-PARTY-11).
	LastPairMafia bool `json:"lastPairMafia"`
	// LoneManiacApart counts a Maniac who plays alone with neither side at the
	// mafia's parity: text 004 read literally, «Dacă locuitorii pașnici și negri
	// au rămas același număr, mafia a câștigat» (the peaceful and the black, as
	// many). Off, he counts with the peaceful under either LoneManiac reading
	// (R-MANIAC-11).
	LoneManiacApart bool `json:"loneManiacApart"`

	// DrawSeats deals the seats by lot when the game starts (R-SPORT-01); otherwise
	// the host's seating stands.
	DrawSeats bool `json:"drawSeats"`

	// MafiaKill is how the team's night shots become one kill: "unanimous"
	// (R-SPORT-10), "don" (R-MANIAC-03; with the Don gone, unanimous) or
	// "majority" (R-CLASSIC-04).
	MafiaKill MafiaKill `json:"mafiaKill"`
	// EyesClosed: after night 1 the black players shoot with their eyes closed
	// (R-SPORT-10), so each sees only their own shot until morning; night 1 is the
	// only night they see one another. Off, the team sees its shots as they come,
	// as a table that wakes the mafia together does (R-CLASSIC-04, R-PARTY-07,
	// R-MANIAC-03).
	EyesClosed bool `json:"eyesClosed"`
	// MafiaTime is how many seconds from nightfall the black team has to agree on
	// its kill (R-MANIAC-03: 30); a shot made later counts as no shot, so a Don
	// who has not chosen in time means "the mafia missed". 0 is the whole first
	// wake, the one that holds the shots.
	MafiaTime int `json:"mafiaTime"`
	// FirstNightMeeting makes night 1 a meeting only: no kills or protections,
	// and no checks but those FirstNightChecks allows (R-CLASSIC-02, R-SPORT-02,
	// R-PARTY-02).
	FirstNightMeeting bool `json:"firstNightMeeting"`
	// FirstNightChecks lets the Don and the Commissar check on a meeting night,
	// as the opening of text 000 has it («Комиссар может получить у Ведущего
	// информацию…», «Дон может получить…»); still nobody is killed or protected.
	FirstNightChecks bool `json:"firstNightChecks"`
	// IntroRound opens the game with a day-0 round of introductions (R-MANIAC-02).
	IntroRound bool `json:"introRound"`

	// Voting is "nominees" (only nominated players can be voted for, R-SPORT-04)
	// or "anyone" (every living player is a candidate, R-CLASSIC-03, R-MANIAC-10).
	Voting Voting `json:"voting"`
	// DayOpener is who opens a day's monologues (R-SPORT-03): "next_seat", the
	// next living seat after the one who opened the day before (texts 000, 002),
	// or "day_seat", seat n on day n, from the next living seat if that one has
	// left (text 004's closed rules: «În prima zi, jucătorul începe la numărul
	// unu, în al doilea - la numărul doi»).
	DayOpener DayOpener `json:"dayOpener"`
	// NominationsPerSpeech is how many players one speaker may nominate during
	// their monologue (R-SPORT-04: 1).
	NominationsPerSpeech int `json:"nominationsPerSpeech"`
	// MaxNominees caps the nominations of one day; 0 is no cap (R-PARTY-09: 3).
	MaxNominees int `json:"maxNominees"`
	// NomineeDefence gives every nominee a defence speech before the vote
	// (R-PARTY-09).
	NomineeDefence bool `json:"nomineeDefence"`
	// Day1SingleNomineeStays: on day 1 a single nominee is not voted on and stays
	// (R-SPORT-06).
	Day1SingleNomineeStays bool `json:"day1SingleNomineeStays"`
	// NonVoters is "last_nominee" (R-SPORT-05: a missing vote counts for the last
	// nominee), "abstain" (R-PARTY-09: a player may vote for nobody) or
	// "compulsory" (R-MANIAC-10: there is no abstaining; when the vote's time is
	// up it is held open once more, as long again, and the table hears who has not
	// voted; then it is counted without them, so a day always ends). Under
	// "anyone" voting "last_nominee" is read as "abstain".
	NonVoters NonVoters `json:"nonVoters"`
	// Ties is what a tie for most votes leads to: "car_crash" (defence, revote,
	// then the all-leave vote; R-SPORT-07), "revote" (the day's nominations and
	// vote again from scratch, R-PARTY-10), "justify" (R-MANIAC-10) or "none"
	// (everyone stays).
	Ties Ties `json:"ties"`
	// TieRepeats caps how many times a tied vote is held again (R-PARTY-10).
	TieRepeats int `json:"tieRepeats"`
	// JustifiedLeaves, under "justify" ties, sends a player who has used his
	// justification on an earlier day away as soon as he has the most votes
	// again, tied or not: text 004 read literally, «justificarea poate fi
	// utilizată o singură dată… Dacă următoarea dată jucătorul recuperează
	// maximum de voturi, el părăsește automat masa». Off, a tie goes where ties
	// go (R-MANIAC-10).
	JustifiedLeaves bool `json:"justifiedLeaves"`
	// FourLeftNoRevote: with four players left a tie ends the day, nobody leaves
	// (R-SPORT-08).
	FourLeftNoRevote bool `json:"fourLeftNoRevote"`
	// HalfVote lets last night's victim break an even split between two players
	// with a half vote (R-CLASSIC-10).
	HalfVote bool `json:"halfVote"`
	// VoteChange lets a player take a vote back and vote again until the vote
	// closes, as hands go up and down at a home or party table (R-CLASSIC-03,
	// R-PARTY-09). Club rules make a vote final: a hand taken off the table
	// before the host's "Thank you" removes the player (text 002, rules 8-9).
	VoteChange bool `json:"voteChange"`

	// LastWords says who gets a last word: "all" (R-SPORT-09), "town_night" (town
	// players killed at night, R-MANIAC-08), "sheriff_night" (only the Commissar
	// killed at night, R-CLASSIC-06) or "none".
	LastWords LastWords `json:"lastWords"`

	// Commissar is what the Sheriff does at night: "check" (private, R-SPORT-12),
	// "public" (the table hears right/wrong, R-PARTY-03), "shoot" (R-CLASSIC-11)
	// or "check_or_shoot" (R-MANIAC-05).
	Commissar Commissar `json:"commissar"`
	// Testament lets a night-killed Commissar name one checked player as mafia or
	// honest (R-CLASSIC-06); TestamentKills kills a named mafia at once (R-CLASSIC-07).
	Testament      bool `json:"testament"`
	TestamentKills bool `json:"testamentKills"`
	// BestMove gives the player killed on the first night whose shots count
	// (night 2 after a meeting night) the best move of club play: in the last
	// word, up to BestMoveMax players named as black, said aloud and so told
	// to everyone, while how many of them are black stays with the cards until
	// the game is over (the protocol counts them). None of the five texts has
	// it, so it is off in every preset.
	BestMove bool `json:"bestMove"`
	// RevealAfter lets the Commissar reveal his card after this many right guesses,
	// removing every mafia he named (R-PARTY-04); 0 turns reveals off.
	RevealAfter int `json:"revealAfter"`
	// DoubleDeath: a Commissar killed on a night he was right takes the named
	// mafia with him (R-PARTY-08).
	DoubleDeath bool `json:"doubleDeath"`
	// DonChecks lets the Don look for the Sheriff each night (R-SPORT-11,
	// R-MANIAC-04).
	DonChecks bool `json:"donChecks"`

	// DoctorVictims makes the Doctor act last and choose among the night's victims
	// (R-MANIAC-07); otherwise he heals anyone before the kill (R-CLASSIC-11).
	DoctorVictims bool `json:"doctorVictims"`
	// DoctorOncePerPlayer: each player can be saved once per game (R-MANIAC-07).
	DoctorOncePerPlayer bool `json:"doctorOncePerPlayer"`
	// DoctorNamesPatient: the morning also names whom the Doctor treated when the
	// patient was not attacked (R-CLASSIC-11).
	DoctorNamesPatient bool `json:"doctorNamesPatient"`

	// ManiacSide is "alone" or "mafia" (R-MANIAC-01, R-MANIAC-11). A moderator may
	// change it before the game starts.
	ManiacSide ManiacSide `json:"maniacSide"`
	// LoneManiac is the reading taken of a Maniac who plays alone, on which text
	// 004 is silent (R-MANIAC-11): "last_two", a side of his own that the town
	// must also remove, that counts with the peaceful players against the mafia's
	// parity, and that wins when he is one of the last two; or "town", the text's
	// two sides only («de ce parte va juca»: the host picks a side, and the other
	// side is the town's): the town wins, with him, once no black player is left.
	LoneManiac LoneManiac `json:"loneManiac"`

	// Fouls: WarningsToMute warnings cost the next monologue and WarningsToRemove
	// remove the player (R-SPORT-16). 0 turns the step off.
	WarningsToMute   int `json:"warningsToMute"`
	WarningsToRemove int `json:"warningsToRemove"`
	// MuteWholeRound: the warnings that mute cost the word for the whole round
	// of the lost monologue (text 002 rule 23, «позбавляється слова на одне
	// коло»): a defence speech and a last word after that day's vote too. Off,
	// they cost the monologue only, and the player keeps the rest.
	MuteWholeRound bool `json:"muteWholeRound"`
	// ForbiddenWords is what saying "honestly" or "I swear" costs (R-SPORT-16):
	// "warning" (text 002 rule 3) or "removal" (text 003). See Fouls.
	ForbiddenWords ForbiddenWords `json:"forbiddenWords"`

	// ExtraSpeech gives players who raised a hand during the round a further speech
	// of this many seconds after it (R-MANIAC-09); 0 turns hands off.
	ExtraSpeech int `json:"extraSpeech"`

	// Durations, in seconds. Speech is a day monologue (R-SPORT-03, 60), Defence a
	// defence or justification (R-SPORT-07 30, R-MANIAC-10 60), LastWord a last word
	// (R-SPORT-09 60, R-MANIAC-08 30), Intro an introduction (R-MANIAC-02 30). Night
	// and Vote are how long the app waits for taps before it moves on by itself.
	Speech   int `json:"speech"`
	Defence  int `json:"defence"`
	LastWord int `json:"lastWord"`
	Intro    int `json:"intro"`
	Night    int `json:"night"`
	Vote     int `json:"vote"`
	// HandOver is the pause, in seconds, between a step that ends before its
	// deadline ("Thank you", the last vote, the last night tap, the moderator's
	// "next") and the next one, and before a paused game goes on, while the
	// table hears what comes, as a host says it ("Thank you. Player 5, your
	// minute."). Every client polls at least once inside it and then at its end,
	// so the next step opens on every phone and screen at the same moment
	// (Timing). 0 moves on at once, and clients must then poll every second.
	HandOver int `json:"handOver"`
}

// MissingVotesToLastNominee reports whether a vote not cast counts for the
// last nominee (R-SPORT-05; text 003: the last nominee gets all remaining
// votes), so that the count names voters who never tapped; otherwise a
// missing vote is an abstention. Under "anyone" voting there is no last
// nominee, and "last_nominee" is read as "abstain".
func (o Options) MissingVotesToLastNominee() bool {
	return o.NonVoters == NonVotersLastNominee && o.Voting == VotingNominees
}

// Wakes is how many times a night wakes the table. Every living player taps
// once in each wake, whatever their role, so the number of taps — and the
// game's version and pending counts with them — says nothing about who holds
// which card or who is still alive. The first wake holds the night's acts; a
// second is held every night (but the first-night meeting) when a role acts
// twice or on what the first wake decided: the Don's check after the shot
// (R-SPORT-11, R-MANIAC-04) and the Doctor's save among the victims
// (R-MANIAC-07). It is held even when that role has left the game, as a club
// host still calls a dead Don, so that nobody learns he is gone.
func (o Options) Wakes() int {
	if o.DonChecks || o.DoctorVictims {
		return 2
	}
	return 1
}

// Preset names.
const (
	PresetClassic = "classic"
	PresetSport   = "sport"
	PresetParty   = "party"
	PresetManiac  = "maniac"
	PresetCustom  = "custom"
)

// Presets lists the preset names in the order a host is offered them.
var Presets = []string{PresetClassic, PresetSport, PresetParty, PresetManiac, PresetCustom}

// Preset returns the defaults of one rule set of docs/RULES.md. "custom" starts from the
// sport rules; the host changes what they like.
func Preset(name string) (Options, error) {
	base := Options{
		MinPlayers: 10, MaxPlayers: 10, MafiaFormula: FormulaClassic,
		Don: true, Sheriff: true,
		DrawSeats: true, Win: WinParity, MafiaKill: KillUnanimous, EyesClosed: true, FirstNightMeeting: true,
		Voting: VotingNominees, DayOpener: OpenerNextSeat, NominationsPerSpeech: 1, Day1SingleNomineeStays: true,
		NonVoters: NonVotersLastNominee, Ties: TiesCarCrash, TieRepeats: 1, FourLeftNoRevote: true,
		LastWords: LastWordsAll, Commissar: CommissarCheck, DonChecks: true, ManiacSide: ManiacAlone, LoneManiac: LoneLastTwo,
		WarningsToMute: 3, WarningsToRemove: 4, ForbiddenWords: ForbiddenWarning,
		Speech: 60, Defence: 30, LastWord: 60, Intro: 30, Night: 60, Vote: 30,
		HandOver: 3,
	}
	switch name {
	case PresetSport, PresetCustom:
		// R-SPORT-01..17: the defaults above.
	case PresetClassic:
		// R-CLASSIC-01..11: 5-10 players, open roles, elimination, a Commissar who
		// checks, everyone votes against anyone, no fouls.
		base.MinPlayers, base.MaxPlayers = 5, 20
		base.Don, base.DonChecks, base.DrawSeats = false, false, false
		base.OpenRoles, base.Win, base.MafiaKill = true, WinElimination, KillMajority
		base.EyesClosed = false // the mafia wake and point together (R-CLASSIC-04)
		base.Voting, base.NonVoters, base.Ties = VotingAnyone, NonVotersAbstain, TiesRevote
		base.Day1SingleNomineeStays, base.FourLeftNoRevote = false, false
		base.LastWords, base.Testament = LastWordsSheriffNight, true
		base.WarningsToMute, base.WarningsToRemove = 0, 0
		base.VoteChange = true
	case PresetParty:
		// R-PARTY-01..12: 9+ players, a third mafia, Commissar with a public answer,
		// Advocate and Cinderella, three accusations a day, open vote.
		base.MinPlayers, base.MaxPlayers, base.MafiaFormula = 9, 30, FormulaParty
		base.Don, base.DonChecks, base.DrawSeats = false, false, false
		base.Advocate, base.Cinderella = true, true
		base.OpenRoles, base.Win, base.LastPairMafia = true, WinElimination, true
		base.MafiaKill, base.Commissar, base.RevealAfter, base.DoubleDeath = KillMajority, CommissarPublic, 1, true
		base.EyesClosed = false // the mafia wake to sentence together (R-PARTY-07)
		base.MaxNominees, base.NomineeDefence = 3, true
		base.Day1SingleNomineeStays, base.FourLeftNoRevote = false, false
		base.NonVoters, base.Ties, base.TieRepeats = NonVotersAbstain, TiesRevote, 2
		// R-PARTY-09: the sentenced player lays the card face up and the day
		// ends; text 001 gives nobody a last word, by day or by night.
		base.LastWords = LastWordsNone
		base.WarningsToMute, base.WarningsToRemove = 0, 0
		base.VoteChange = true
	case PresetManiac:
		// R-MANIAC-01..11: 10 players, Don, Sheriff, Doctor, Maniac, open table,
		// introduction round, justification.
		base.Doctor, base.Maniac, base.DrawSeats = true, true, false
		base.OpenRoles, base.MafiaKill, base.MafiaTime = true, KillDon, 30
		base.EyesClosed = false // the team wakes and points together (R-MANIAC-03)
		base.IntroRound, base.Voting, base.NonVoters, base.Ties = true, VotingAnyone, NonVotersCompulsory, TiesJustify
		base.Day1SingleNomineeStays, base.FourLeftNoRevote = false, false
		base.LastWords, base.Commissar = LastWordsTownNight, CommissarCheckOrShoot
		base.DoctorVictims, base.DoctorOncePerPlayer = true, true
		base.Defence, base.LastWord, base.ExtraSpeech = 60, 30, 30
		base.WarningsToMute, base.WarningsToRemove = 0, 0
	default:
		return Options{}, refusef(ErrInvalidOptions, "unknown preset %q", name)
	}
	base.Preset = name
	return base, nil
}

// MafiaCount returns how many black cards a table of n players gets.
func (o Options) MafiaCount(n int) int {
	if o.Mafia > 0 {
		return o.Mafia
	}
	if o.MafiaFormula == FormulaParty {
		// R-PARTY-01: 3 of 9-10, 4 of 11-13, 5 of 14-16, and so on.
		if n <= 10 {
			return min(3, max(1, n/3))
		}
		return 3 + (n-10+2)/3
	}
	// R-CLASSIC-01: 2 for 5-7, 3 for 8-10, about a third above.
	switch {
	case n <= 4:
		return 1
	case n <= 7:
		return 2
	case n <= 10:
		return 3
	default:
		return n / 3
	}
}

// Validate refuses options no game can be played by: every option within its
// spec (OptionSpecs), the options that depend on one another, and every table
// size between MinPlayers and MaxPlayers.
func (o Options) Validate() error {
	if !slices.Contains(Presets, o.Preset) {
		return refusef(ErrInvalidOptions, "preset must be one of %v, not %q", Presets, o.Preset)
	}
	for _, spec := range OptionSpecs {
		if err := spec.check(o); err != nil {
			return err
		}
	}
	if o.MaxPlayers < o.MinPlayers {
		return refusef(ErrInvalidOptions, "maxPlayers must be at least minPlayers (%d), not %d", o.MinPlayers, o.MaxPlayers)
	}
	if o.WarningsToMute > 0 && o.WarningsToRemove > 0 && o.WarningsToMute >= o.WarningsToRemove {
		return refusef(ErrInvalidOptions, "warningsToMute must be below warningsToRemove")
	}
	if (o.TestamentKills && !o.Testament) || ((o.Testament || o.RevealAfter > 0 || o.DoubleDeath) && !o.Sheriff) {
		return refusef(ErrInvalidOptions, "the Commissar's testament, reveal and double death need a Commissar (and testamentKills needs testament)")
	}
	if o.DonChecks && !o.Don {
		return refusef(ErrInvalidOptions, "donChecks needs a Don")
	}
	if (o.DoctorVictims || o.DoctorOncePerPlayer || o.DoctorNamesPatient) && !o.Doctor {
		return refusef(ErrInvalidOptions, "the Doctor's options need a Doctor")
	}
	if o.FirstNightChecks && !o.FirstNightMeeting {
		return refusef(ErrInvalidOptions, "firstNightChecks needs firstNightMeeting")
	}
	if o.BestMove && o.LastWords == LastWordsNone {
		return refusef(ErrInvalidOptions, "bestMove needs a last word for the night's killed (lastWords)")
	}
	if o.JustifiedLeaves && o.Ties != TiesJustify {
		return refusef(ErrInvalidOptions, "justifiedLeaves needs ties: justify")
	}
	if o.MuteWholeRound && o.WarningsToMute == 0 {
		return refusef(ErrInvalidOptions, "muteWholeRound needs warningsToMute")
	}
	if o.LoneManiacApart && !o.Maniac {
		return refusef(ErrInvalidOptions, "loneManiacApart needs a Maniac")
	}
	if o.Voting == VotingAnyone && o.NomineeDefence {
		return refusef(ErrInvalidOptions, "nominee defence needs voting on nominees")
	}
	// Every table size the options allow must be dealable, so a lobby never fills
	// to a size that cannot start.
	for n := o.MinPlayers; n <= o.MaxPlayers; n++ {
		if err := o.ValidateTable(n); err != nil {
			return err
		}
	}
	return nil
}

// ValidateTable checks that a table of n players can be dealt under these options:
// the table size is in range, the special cards fit, and the town outnumbers the
// mafia at the start.
func (o Options) ValidateTable(n int) error {
	if n < o.MinPlayers || n > o.MaxPlayers {
		if o.MinPlayers == o.MaxPlayers {
			return refusef(ErrInvalidTable, "this rule set needs exactly %d players, not %d", o.MinPlayers, n)
		}
		return refusef(ErrInvalidTable, "this rule set needs %d to %d players, not %d", o.MinPlayers, o.MaxPlayers, n)
	}
	black := o.MafiaCount(n)
	if black < 1 {
		return refusef(ErrInvalidTable, "a game needs at least one mafia")
	}
	town := 0
	for _, on := range []bool{o.Sheriff, o.Doctor, o.Lover, o.Advocate, o.Cinderella} {
		if on {
			town++
		}
	}
	others := n - black
	if o.Maniac {
		others--
	}
	if others < town || others < 1 {
		return refusef(ErrInvalidTable, "%d players leave no room for %d mafia and the special roles", n, black)
	}
	peaceful := n - black
	if o.Maniac && o.ManiacSide == ManiacMafia {
		black, peaceful = black+1, peaceful-1 // R-MANIAC-11: he counts with the mafia
	}
	if o.Maniac && o.ManiacSide != ManiacMafia && o.LoneManiacApart && o.Win == WinParity {
		peaceful-- // R-MANIAC-11 read literally: a lone Maniac counts with neither side
	}
	if black >= peaceful {
		return refusef(ErrInvalidTable, "%d mafia among %d players would win before the game begins", black, n)
	}
	return nil
}
