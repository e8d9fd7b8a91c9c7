package rules

import (
	"slices"
	"time"
)

// View is what one viewer may see of a game (DESIGN.md, "Names every client can rely
// on"). It is the security boundary: nothing leaves the server except through it.
type View struct {
	Code    string `json:"code"`
	Version int64  `json:"version"`
	// Tick counts the clock's transitions since the stored version (a deadline that
	// passed with no action since). Version and Tick together name the state shown.
	Tick int `json:"tick,omitempty"`
	// Table is the number of the evening's table that seated this game
	// (State.Table), so that a phone and the table's screen say which table
	// in a room of several; left out for a game of its own.
	Table     int          `json:"table,omitempty"`
	Rules     Options      `json:"rules"`
	Moderator string       `json:"moderator"`
	Lang      string       `json:"lang,omitempty"`
	Phase     PhaseView    `json:"phase"`
	Players   []PlayerView `json:"players"`
	You       *You         `json:"you,omitempty"`
	Actions   []Option     `json:"actions"`
	Events    []Event      `json:"events"`
	Winner    *Team        `json:"winner"`
	// Night is the moderator's live view of the night (host mode only).
	Night *NightView `json:"night,omitempty"`
	// Next is the room code of the game the same table plays next, once the
	// host has opened it after this one (the service sets it: see
	// service.Again). It is public: every page of this game follows it.
	Next string `json:"next,omitempty"`
	// Reseat is the one-time link that moves a seat to another device, in the
	// answer to the host's ActReseat only: the service makes its key, of
	// which it keeps only a hash, and the HTTP layer its address. The rules
	// know no keys.
	Reseat *SeatLink `json:"reseat,omitempty"`
	// Moving lists the seats whose link to another device is still open, in
	// the host's view only (the service sets it), so that the host's page
	// knows when a link it shows has been used.
	Moving []string `json:"moving,omitempty"`
	// Timing says when the game next moves by itself; the HTTP layer turns it
	// into a poll hint. It is the same for every viewer.
	Timing Timing `json:"-"`
	// Viewer is who the view is for.
	Viewer Viewer `json:"-"`
}

// SeatLink is a one-time link that moves a seat to another device (View.Reseat,
// Move).
type SeatLink struct {
	// Target is the seat it moves.
	Target string `json:"target"`
	// Key is the secret that takes the seat, once, before ExpiresAt.
	Key string `json:"key"`
	// URL is the page that takes the seat: the join page, with the key in its
	// fragment, which no browser sends to a server.
	URL string `json:"url"`
	// QR is URL as a QR code: an SVG in a data: URL, for an <img>, so that
	// the key is in no address the page asks for.
	QR        string    `json:"qr,omitempty"`
	ExpiresAt time.Time `json:"expiresAt"`
}

// PhaseView is the public state of the current phase.
type PhaseView struct {
	Name       PhaseName  `json:"name"`
	Day        int        `json:"day"`
	Night      int        `json:"night"`
	EndsAt     *time.Time `json:"endsAt"`
	Speaker    *string    `json:"speaker"`
	Queue      []string   `json:"queue,omitempty"`
	Candidates []string   `json:"candidates,omitempty"`
	Reason     Reason     `json:"reason,omitempty"`
	Paused     bool       `json:"paused"`
	// Locked: the host has closed the lobby to new players.
	Locked bool `json:"locked,omitempty"`
	// Seated: the lobby was seated by an evening, and takes no one else
	// (State.Table): no page invites a join.
	Seated bool `json:"seated,omitempty"`
	// Full: the lobby seats as many players as the rules take (MaxPlayers),
	// so that a join page says so before it asks for a name.
	Full bool `json:"full,omitempty"`
	// Closing: the step is over and the next opens at EndsAt (Options.HandOver).
	Closing bool `json:"closing,omitempty"`
	// Resuming: a paused step goes on at EndsAt, with PausedLeftMs to run.
	Resuming bool `json:"resuming,omitempty"`
	// Wake counts the night's wakes from 1 (Options.Wakes); 0 by day.
	Wake int `json:"wake,omitempty"`
	// Extended: a compulsory vote is held open once more for the missing votes
	// (R-MANIAC-10).
	Extended bool `json:"extended,omitempty"`
	// Next says, during a hand-over, what opens at EndsAt, so that every screen
	// can announce it as a host would ("Thank you. Player 5, your minute.").
	Next         *Step        `json:"next,omitempty"`
	PausedLeftMs int64        `json:"pausedLeftMs,omitempty"`
	Nominations  []Nomination `json:"nominations,omitempty"`
	// Voted lists who has voted so far (not for whom); Pending counts the living
	// players the current step still waits for.
	Voted   []string `json:"voted,omitempty"`
	Pending int      `json:"pending"`
}

// Step names the step a hand-over leads to. It is worked out from what the
// whole table knows: after speeches it is the next speech (Speaker, and Reason
// as in PhaseView) or what the day's nominations bring; after a wake of the
// night the next wake (Wake, as the rules count them) or only "morning", and
// after a vote only "count", since who died and how the votes fell are told
// when the next step opens, not before.
type Step struct {
	// Name is a phase name, or "morning" (the night's outcome comes) or "count"
	// (the votes are counted).
	Name    PhaseName `json:"name"`
	Speaker string    `json:"speaker,omitempty"`
	Reason  Reason    `json:"reason,omitempty"`
	Wake    int       `json:"wake,omitempty"`
}

// Pseudo-steps of Step.Name.
const (
	StepMorning PhaseName = "morning"
	StepCount   PhaseName = "count"
)

// PlayerView is one seat as the viewer may see it.
type PlayerView struct {
	ID       string `json:"id"`
	Seat     int    `json:"seat"`
	Name     string `json:"name"`
	Alive    bool   `json:"alive"`
	Removed  bool   `json:"removed,omitempty"`
	Warnings int    `json:"warnings,omitempty"`
	Role     Role   `json:"role,omitempty"`
	Team     Team   `json:"team,omitempty"`
}

// You is what a player knows about themselves.
type You struct {
	ID     string  `json:"id"`
	Role   Role    `json:"role,omitempty"`
	Team   Team    `json:"team,omitempty"`
	Alive  bool    `json:"alive"`
	Checks []Check `json:"checks,omitempty"`
	// Shots are the black team's shots tonight, seen by the team as they are made;
	// with eyes closed (Options.EyesClosed, R-SPORT-10) only the player's own.
	Shots []Choice `json:"shots,omitempty"`
	// ShootBy is when the black team's time to agree on its kill runs out (black
	// players, at night, under Options.MafiaTime; R-MANIAC-03).
	ShootBy *time.Time `json:"shootBy,omitempty"`
	// Victims are the night's victims the Doctor chooses among (R-MANIAC-07).
	Victims []string `json:"victims,omitempty"`
	// Done: this player has finished tonight's task.
	Done bool `json:"done,omitempty"`
	// Vote is this player's own ballot in the vote now open, so that a phone
	// shows the choice it made (after a reload too) and what a "withdraw" takes
	// back (Options.VoteChange). Nobody else sees it before the count.
	Vote *Ballot `json:"vote,omitempty"`
	// SeatCode is the seat's code in a game the app moderates, shown on the
	// held card: a link that moves the seat to another phone takes it only
	// with the code, so that whoever holds the link (the creator, a player who
	// scanned the shared screen) learns no card by it. The service sets it.
	SeatCode string `json:"seatCode,omitempty"`
}

// NightView shows the moderator the night's acts as they come in.
type NightView struct {
	Choices []Choice `json:"choices"`
	Done    []string `json:"done"`
	Victims []string `json:"victims,omitempty"`
	// Late lists the black players whose shot came after the mafia's time and
	// counts as none (R-MANIAC-03).
	Late []string `json:"late,omitempty"`
}

// ViewOf returns what viewer v may see of s at time now. Transitions that fell due are
// applied first, so a poll never shows a step that is already over, and a long
// story is told as briefly as a view's budget takes (briefForViews).
func ViewOf(s State, v Viewer, now time.Time) View {
	stored := s.Ticks
	s = briefForViews(Advance(s, now))
	over := s.Phase.Name == PhaseGameOver
	moderator := v.Host && s.Moderator == ModeratorHost
	var me *Player
	if !v.Host {
		me = s.player(v.Player)
	}
	out := View{Code: s.Code, Table: s.Table, Tick: s.Ticks - stored, Rules: s.Rules, Moderator: s.Moderator, Lang: s.Lang, Actions: []Option{},
		Events: make([]Event, 0, len(s.Events)), Players: make([]PlayerView, 0, len(s.Players))}
	if s.Winner != "" {
		w := s.Winner
		out.Winner = &w
	}
	// Roles: your own, your black teammates', cards shown on leaving, everything to
	// the moderator and at the end. Nothing else.
	for _, p := range s.Players {
		pv := PlayerView{ID: p.ID, Seat: p.Seat, Name: p.Name, Alive: p.Alive, Removed: p.Removed, Warnings: p.Warnings}
		if p.Role != "" && (over || moderator || p.Shown || (me != nil && (me.ID == p.ID || (me.Role.Team() == MafiaTeam && p.Role.Team() == MafiaTeam)))) {
			pv.Role, pv.Team = p.Role, p.Role.Team()
		}
		out.Players = append(out.Players, pv)
	}
	out.Phase = s.phaseView()
	for _, e := range s.Events {
		if !s.visible(e, v) {
			continue
		}
		if e.Type == EvKilled && !over && !moderator {
			// Who killed is the night's secret (a Maniac's victim is not the
			// mafia's): the cause and its rule are told at the end.
			e.Result, e.Rule = "", ""
		}
		out.Events = append(out.Events, e)
	}
	actor := Actor(v)
	if v.Host || me != nil {
		if opts := Legal(s, actor); opts != nil {
			out.Actions = opts
		}
	}
	if me != nil {
		out.You = s.you(me)
	}
	out.Timing, out.Viewer = TimingOf(s), v
	if moderator && s.Phase.Name == PhaseNight {
		// Empty lists, not null: a client iterates them without a check.
		out.Night = &NightView{Choices: append([]Choice{}, s.Choices...), Done: append([]string{}, s.Done...),
			Victims: append([]string{}, s.Victims...), Late: slices.Clone(s.LateShots)}
	}
	return out
}

// viewStory is the most story a view tells, in about the bytes of its
// events' JSON (storyWeight). A story compresses so well that the stored game
// keeps hundreds of rounds within its one read unit (3,000 of a moderator's
// steps with nobody leaving made a 32 KB view of a 3.6 KB item), and a view
// that told it all would grow with every round, at every poll of every
// client. Beyond it the story is told more briefly, at the least level of
// Condense that brings it within, as the store tells its own when it must;
// the protocol keeps what the views no longer tell. A whole game of ten
// players tells 3–7 KB, one of twenty up to 13 KB.
const viewStory = 16 << 10

// briefForViews is s with its story told within viewStory (Condense), but for
// the seats moved to other devices: Condense tells them no more, and a view
// still tells each seat's latest move, after the rest, as Move wants it told.
func briefForViews(s State) State {
	if storyWeight(s.Events) <= viewStory {
		return s
	}
	told := s
	for level := 1; storyWeight(told.Events) > viewStory && level <= CondenseLevels; level++ {
		told = Condense(s, level)
	}
	for _, e := range s.Events {
		if e.Type == EvMoved {
			told.Events = append(told.Events, e)
		}
	}
	return told
}

// storyWeight is about the bytes of the events' JSON, counted without writing
// it, which would cost more than the rest of a view: an event takes some 64
// bytes, each ballot in it 32 more and each player a best move names 8 (as
// measured over whole games of every preset, 80 bytes an event in all). A
// seat moved to another device weighs nothing: the briefest telling drops it
// first, and a move must change no view but by its own line (Move). Nor does
// the moderator's tap for a seat, which must change no other view than the
// moderator's (ActTapFor).
func storyWeight(events []Event) int {
	n := 0
	for _, e := range events {
		if e.Type != EvMoved && e.Type != EvTappedFor {
			n += 64 + 32*len(e.Ballots) + 8*len(e.Targets)
		}
	}
	return n
}

func (s *State) phaseView() PhaseView {
	pv := PhaseView{Name: s.Phase.Name, Day: s.Day, Night: s.Night, Reason: s.Phase.Reason, Closing: s.Phase.Closing, Extended: s.Phase.Extended,
		Resuming: s.Phase.Resuming, Wake: s.Phase.Wake, Queue: s.Phase.Queue, Candidates: s.Phase.Candidates, Nominations: s.Nominations,
		Locked: s.Locked, Seated: s.seated() && s.Phase.Name == PhaseLobby, Full: s.Phase.Name == PhaseLobby && len(s.Players) >= s.Rules.MaxPlayers}
	if !s.Phase.EndsAt.IsZero() && (s.Phase.Paused == 0 || s.Phase.Resuming) {
		t := s.Phase.EndsAt
		pv.EndsAt = &t
	}
	if s.Phase.Paused > 0 {
		pv.Paused, pv.PausedLeftMs = !s.Phase.Resuming, s.Phase.Paused.Milliseconds()
	}
	if sp := s.speaker(); sp != "" {
		pv.Speaker = &sp
	}
	if s.Phase.Closing {
		pv.Next = s.nextStep()
	}
	for _, b := range s.Ballots {
		pv.Voted = append(pv.Voted, b.Voter)
	}
	switch s.Phase.Name {
	case PhaseNight:
		pv.Pending = s.aliveCount() - len(s.Done)
	case PhaseVote, PhaseVoteAll:
		if s.Phase.Reason == ReasonHalf {
			if !s.hasBallot(s.HalfVoter) {
				pv.Pending = 1
			}
			break
		}
		for _, p := range s.living() {
			if !s.hasBallot(p.ID) {
				pv.Pending++
			}
		}
	}
	return pv
}

// nextStep is the step the hand-over in progress opens (Step).
func (s *State) nextStep() *Step {
	switch s.Phase.Name {
	case PhaseVote, PhaseVoteAll:
		return &Step{Name: StepCount}
	}
	n := s.clone()
	n.timeout(n.Phase.EndsAt)
	if s.Phase.Name == PhaseNight {
		// The rules say how many wakes a night has, whatever happened in it.
		if n.Phase.Name == PhaseNight {
			return &Step{Name: PhaseNight, Wake: n.Phase.Wake}
		}
		return &Step{Name: StepMorning}
	}
	return &Step{Name: n.Phase.Name, Speaker: n.speaker(), Reason: n.Phase.Reason, Wake: n.Phase.Wake}
}

func (s *State) you(p *Player) *You {
	y := &You{ID: p.ID, Alive: p.Alive, Checks: p.Checks}
	if p.Role == "" {
		return y
	}
	y.Role, y.Team = p.Role, p.Role.Team()
	night := s.Phase.Name == PhaseNight
	if night {
		y.Done = slices.Contains(s.Done, p.ID)
	}
	if night && p.Role.Team() == MafiaTeam && p.Alive {
		if end := s.mafiaDeadline(); !end.IsZero() {
			y.ShootBy = &end
		}
		for _, c := range s.Choices {
			if c.Type == ActKill && s.player(c.Actor).Role.Team() == MafiaTeam && (c.Actor == p.ID || !s.eyesShut(s.Night)) {
				y.Shots = append(y.Shots, c)
			}
		}
	}
	if night && s.Phase.Wake == 2 && s.Rules.DoctorVictims && p.Role == Doctor && p.Alive {
		y.Victims = slices.Clone(s.Victims)
	}
	if i := slices.IndexFunc(s.Ballots, func(b Ballot) bool { return b.Voter == p.ID }); i >= 0 {
		b := s.Ballots[i]
		y.Vote = &b
	}
	return y
}
