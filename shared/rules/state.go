package rules

import (
	"slices"
	"time"
)

// Moderator modes (DESIGN.md, "Two ways to moderate").
const (
	// ModeratorApp: the app is the host; deadlines move the game on by themselves.
	ModeratorApp = "app"
	// ModeratorHost: a person moderates, sees everything and moves the game on.
	ModeratorHost = "host"
)

// PhaseName names a step of the game.
type PhaseName string

// Phase names, in the order a game passes through them.
const (
	PhaseLobby    PhaseName = "lobby"     // players join; the host seats them and starts
	PhaseIntro    PhaseName = "intro"     // day 0 introductions (R-MANIAC-02)
	PhaseNight    PhaseName = "night"     // every living player taps once in each wake (Phase.Wake)
	PhaseLastWord PhaseName = "last_word" // last words of those who left
	PhaseDay      PhaseName = "day"       // monologues and nominations
	PhaseDefence  PhaseName = "defence"   // defence or justification speeches
	PhaseVote     PhaseName = "vote"      // a vote over the candidates
	PhaseVoteAll  PhaseName = "vote_all"  // "shall they leave?": yes or no
	PhaseGameOver PhaseName = "game_over"
)

// State is one whole game. It is plain data: the store keeps it, Apply and Advance
// return changed copies, View is the only way it leaves the server.
type State struct {
	Code      string   `json:"code"`
	Rules     Options  `json:"rules"`
	Moderator string   `json:"moderator"`
	Lang      string   `json:"lang,omitempty"`
	Players   []Player `json:"players"` // in seat order
	Phase     Phase    `json:"phase"`
	Day       int      `json:"day"`
	Night     int      `json:"night"`
	Winner    Team     `json:"winner,omitempty"`
	Events    []Event  `json:"events,omitempty"`
	// Past is the story of the nights before PastUntil, kept whole in a
	// compact form beside the story when Condense tells it more briefly
	// (past.go); History reads both.
	Past      string `json:"past,omitempty"`
	PastUntil int    `json:"pastUntil,omitempty"`
	// WholeFrom is the first night History tells whole, when even the past had
	// to be cut to fit the store; 0 when nothing is missing.
	WholeFrom int       `json:"wholeFrom,omitempty"`
	Created   time.Time `json:"created"`
	// Ticks counts the transitions the clock has made. Advance is deterministic, so
	// a stored version and the ticks after Advance name one state exactly: readers
	// can tag a view without writing the advanced state back.
	Ticks int `json:"ticks,omitempty"`

	// Table is the number (from 1) of the evening's table whose seating
	// seated this game, 0 for a game of its own. A seated game (seated) keeps
	// the people and the rules the evening gave it, since the evening draws
	// the seats for the whole evening and keeps each place's points: its
	// lobby takes no new player, and nobody leaves it, is sent away, or
	// changes its rules. A place moves to another device only (ActReseat), so
	// each seat stays the person the seating put there.
	Table int `json:"table,omitempty"`

	// Lobby state, forgotten at the start: joins are closed from then on.
	Locked bool     `json:"locked,omitempty"` // the host closed the lobby to new players
	Banned []string `json:"banned,omitempty"` // device keys the host banned, oldest first (at most MaxBanned)

	// Day state.
	FirstSpeaker string       `json:"firstSpeaker,omitempty"` // who opened the last day (R-SPORT-03)
	Nominations  []Nomination `json:"nominations,omitempty"`
	Ballots      []Ballot     `json:"ballots,omitempty"`
	VoteRound    int          `json:"voteRound,omitempty"`  // 0 the day's vote, then revotes
	FirstCount   int          `json:"firstCount,omitempty"` // votes the justifying player had (R-MANIAC-10)
	Repeats      int          `json:"repeats,omitempty"`    // tied votes held again (R-PARTY-10)
	Defended     string       `json:"defended,omitempty"`   // the Advocate's client for today (R-PARTY-06)
	HalfVoter    string       `json:"halfVoter,omitempty"`  // last night's honest victim, until the half vote is used (R-CLASSIC-10)
	Hands        []string     `json:"hands,omitempty"`      // raised during the round (R-MANIAC-09)

	// Night state.
	Choices []Choice `json:"choices,omitempty"` // this night's choices
	Done    []string `json:"done,omitempty"`    // who has tapped in this wake
	Victims []string `json:"victims,omitempty"` // the night's victims before the Doctor (R-MANIAC-07)
	// Attempts are the killed lines of the night's victims, each with its cause
	// and the rule that decided it, made when the first wake resolves the night
	// and told in the morning for those the Doctor has not saved.
	Attempts []Event `json:"attempts,omitempty"`
	// News holds the night's public news (a save, a miss) from the first wake
	// until the morning tells it: before then the table is asleep, and a later
	// wake must look the same whatever happened.
	News []Event `json:"news,omitempty"`
	// LateShots are the black players who shot after the mafia's time tonight
	// (Options.MafiaTime, R-MANIAC-03): their shots count as none.
	LateShots []string `json:"lateShots,omitempty"`

	// Corrections are the host's latest decisions that can still be taken
	// back, the latest last (correct.go). They never leave the server.
	Corrections []Taken `json:"corrections,omitempty"`
}

// Player is one seat at the table.
type Player struct {
	ID        string   `json:"id"`
	Name      string   `json:"name"`
	Seat      int      `json:"seat"`
	Role      Role     `json:"role,omitempty"`
	Alive     bool     `json:"alive"`
	Removed   bool     `json:"removed,omitempty"`   // removed by fouls or by the host (R-SPORT-16)
	Shown     bool     `json:"shown,omitempty"`     // the card is shown to everyone
	Warnings  int      `json:"warnings,omitempty"`  // fouls (R-SPORT-16)
	Muted     int      `json:"muted,omitempty"`     // the day whose monologue is lost
	Silenced  bool     `json:"silenced,omitempty"`  // has lost the word for the rest of this round (Options.MuteWholeRound)
	Justified bool     `json:"justified,omitempty"` // has used the justification (R-MANIAC-10)
	Saved     bool     `json:"saved,omitempty"`     // the Doctor has saved them (R-MANIAC-07)
	Checks    []Check  `json:"checks,omitempty"`    // this player's own check results
	Right     int      `json:"right,omitempty"`     // the Commissar's right answers (R-PARTY-04)
	Named     []string `json:"named,omitempty"`     // mafia the Commissar named rightly (R-PARTY-04)
	Spoke     bool     `json:"spoke,omitempty"`     // testament made (R-CLASSIC-06)
	BestMove  bool     `json:"bestMove,omitempty"`  // best move made (Options.BestMove)
	// Device is the key of the device the player joined from, kept in the lobby
	// only, so that the host can ban it (ActBan). It never leaves the server.
	Device string `json:"device,omitempty"`
}

// Check is one night question and its answer, known only to the asker (and the
// moderator), except where a rule announces it.
type Check struct {
	Night  int       `json:"night"`
	Target string    `json:"target"`
	Kind   CheckKind `json:"kind"`
	Yes    bool      `json:"yes"` // black / is the Sheriff
}

// Reason says why a step is held, when its name does not say it all.
type Reason string

// Step reasons.
const (
	ReasonNone     Reason = ""          // the step as its name says: the day's round of monologues, a vote on the nominees
	ReasonExtra    Reason = "extra"     // the further speeches of raised hands (R-MANIAC-09)
	ReasonAccused  Reason = "accused"   // the nominees' defences before the vote (R-PARTY-09)
	ReasonCarCrash Reason = "car_crash" // the tied players' defences, their revote, "shall all leave?" (R-SPORT-07)
	ReasonJustify  Reason = "justify"   // justifications of the tied or the sentenced (R-MANIAC-10)
	ReasonHalf     Reason = "half"      // the vote held open for the half vote (R-CLASSIC-10)
)

// Acquittal is why nobody leaves by the day's vote (EvAcquitted's result).
type Acquittal string

// Acquittals.
const (
	AcquitRemoved       Acquittal = "removed"        // the speaker or a candidate was removed by fouls or by the host
	AcquitNoNominees    Acquittal = "no_nominees"    // nobody was nominated
	AcquitSingleNominee Acquittal = "single_nominee" // on day 1 a single nominee stays (R-SPORT-06)
	AcquitNoVotes       Acquittal = "no_votes"       // nobody voted
	AcquitFourLeft      Acquittal = "four_left"      // four left and a tie (R-SPORT-08)
	AcquitTie           Acquittal = "tie"            // the tie stands
	AcquitJustified     Acquittal = "justified"      // the justification convinced the table (R-MANIAC-10)
	AcquitAllStay       Acquittal = "all_stay"       // "shall they all leave?" was answered no (R-SPORT-07)
)

// CheckKind is what a night check asks.
type CheckKind string

// Check kinds.
const (
	CheckBlack   CheckKind = "black"   // the Sheriff's: is the player black? (R-SPORT-12)
	CheckSheriff CheckKind = "sheriff" // the Don's: is the player the Sheriff? (R-SPORT-11)
)

// Phase is where the game is now and until when.
type Phase struct {
	Name PhaseName `json:"name"`
	// EndsAt is the deadline of the current step; zero when there is none.
	EndsAt time.Time `json:"endsAt,omitzero"`
	// Queue lists the speakers of a speech phase; the first is speaking now.
	Queue []string `json:"queue,omitempty"`
	// Candidates are who can be voted for in a vote, or who the yes/no vote is about.
	Candidates []string `json:"candidates,omitempty"`
	// Reason says why a step is held, when its name does not say it all.
	Reason Reason `json:"reason,omitempty"`
	// Paused holds the time that was left when the host paused; zero when running.
	Paused time.Duration `json:"paused,omitempty"`
	// Next is the phase a last_word or defence phase leads to.
	Next PhaseName `json:"next,omitempty"`
	// Nominated counts nominations made by the current speaker.
	Nominated int `json:"nominated,omitempty"`
	// Closing: the step is complete and EndsAt opens the next (Options.HandOver).
	Closing bool `json:"closing,omitempty"`
	// Resuming: the host resumed a paused step; it goes on at EndsAt with the
	// time Paused holds, after a hand-over that every screen counts down.
	Resuming bool `json:"resuming,omitempty"`
	// Wake counts the wakes of a night, from 1 (Options.Wakes).
	Wake int `json:"wake,omitempty"`
	// Extended: the vote's time ran out with votes missing and it is held open
	// once more (compulsory voting, R-MANIAC-10).
	Extended bool `json:"extended,omitempty"`
}

// Nomination is one player put up for the vote, in the order made.
type Nomination struct {
	By     string `json:"by"`
	Target string `json:"target"`
}

// Ballot is one vote: for a candidate, yes/no in a vote_all, or an abstention.
type Ballot struct {
	Voter  string `json:"voter"`
	Target string `json:"target,omitempty"`
	Yes    bool   `json:"yes,omitempty"`
	Half   bool   `json:"half,omitempty"` // R-CLASSIC-10
	// Missing: the voter did not vote, and the rules counted the vote for the
	// last nominee (R-SPORT-05).
	Missing bool `json:"missing,omitempty"`
}

// Choice is one night act, kept until the night is resolved.
type Choice struct {
	Actor  string     `json:"actor"`
	Type   ActionType `json:"type"`
	Target string     `json:"target,omitempty"`
}

// Actor is who sends an action: the host (with the host token) or one player.
type Actor struct {
	Host   bool
	Player string
}

// Viewer is who a view is made for.
type Viewer struct {
	Host   bool   // the host token: the moderator in host mode, the shared screen's controls in app mode
	Player string // a player's id; empty with Host false is the public shared screen
}

// Public is the shared screen's viewer: it may see only what everyone may see.
var Public = Viewer{}

// seated reports whether an evening seated this game (Table).
func (s *State) seated() bool { return s.Table > 0 }

func (s *State) player(id string) *Player {
	for i := range s.Players {
		if s.Players[i].ID == id {
			return &s.Players[i]
		}
	}
	return nil
}

func (s *State) living() []*Player {
	var out []*Player
	for i := range s.Players {
		if s.Players[i].Alive {
			out = append(out, &s.Players[i])
		}
	}
	return out
}

func (s *State) aliveCount() int { return len(s.living()) }

// clone returns a deep copy, so that Apply never changes the state it was given.
func (s State) clone() State {
	c := s
	c.Players = slices.Clone(s.Players)
	for i := range c.Players {
		c.Players[i].Checks = slices.Clone(c.Players[i].Checks)
		c.Players[i].Named = slices.Clone(c.Players[i].Named)
	}
	c.Events = slices.Clone(s.Events)
	c.Banned = slices.Clone(s.Banned)
	c.Nominations = slices.Clone(s.Nominations)
	c.Ballots = slices.Clone(s.Ballots)
	c.Choices = slices.Clone(s.Choices)
	c.Done = slices.Clone(s.Done)
	c.Victims = slices.Clone(s.Victims)
	c.Attempts = slices.Clone(s.Attempts)
	c.News = slices.Clone(s.News)
	c.LateShots = slices.Clone(s.LateShots)
	c.Hands = slices.Clone(s.Hands)
	c.Corrections = slices.Clone(s.Corrections)
	c.Phase.Queue = slices.Clone(s.Phase.Queue)
	c.Phase.Candidates = slices.Clone(s.Phase.Candidates)
	return c
}
