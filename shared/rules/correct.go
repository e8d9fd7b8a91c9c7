package rules

import (
	"slices"
	"time"
)

// Corrections: a moderator who mis-taps takes the decision back (ActCorrect)
// instead of dealing again. The engine keeps the game as it was before each of
// the host's last decisions (Taken), up to MaxCorrections of them, for as long
// as nothing else has happened since: a player's act (a vote, a night tap, a
// speech ended, a nomination) or the morning closes them all, since taking a
// decision back then would undo what someone else did, or what a night told.
// A correction makes the game what it was, with the time each step had left
// at the decision, and adds one public line ("corrected by the moderator")
// that names the decision taken back and nothing else.

// MaxCorrections is how many of the host's last decisions can be taken back,
// one after another. The store may keep fewer of a game too big for its
// budget, the oldest going first (service.pack).
const MaxCorrections = 3

// correctable are the host's decisions a correction takes back: the game's
// course, not the lobby's (the deal is final once the cards are seen) nor a
// seat's move to another device (the tokens are the service's).
var correctable = map[ActionType]bool{
	ActWarn: true, ActRemove: true, ActAdvance: true, ActManiacSide: true, ActPause: true,
}

// Decision is a host's decision as a correction names it: its type, and the
// player it was about, if any (a warning's, a removal's). Everyone saw it
// made, so nothing in it is secret.
type Decision struct {
	Type   ActionType `json:"type"`
	Target string     `json:"target,omitempty"`
}

// Taken is one decision that can be taken back: the decision, when it was
// made, and the game just before it. Before has no corrections of its own:
// the ones older than it are the entries below it in State.Corrections.
type Taken struct {
	Decision Decision  `json:"decision"`
	At       time.Time `json:"at"`
	Before   State     `json:"before"`
}

// decided notes that the host is about to make decision a at now on s, so
// that it can be taken back; any other action closes the corrections. s is
// the game just before the action, already advanced to now.
func (s *State) decided(actor Actor, a Action, now time.Time) {
	switch {
	case a.Type == ActCorrect || a.Type == ActReseat:
		// A correction works on them; a link to another device changes nothing.
		return
	case !actor.Host || !correctable[a.Type] || s.Phase.Name == PhaseLobby:
		s.Corrections = nil
		return
	}
	before := s.clone()
	before.Corrections = nil
	d := Decision{Type: a.Type}
	if a.Type == ActWarn || a.Type == ActRemove {
		d.Target = a.Target
	}
	s.Corrections = append(s.openCorrections(), Taken{Decision: d, At: now, Before: before})
	if n := len(s.Corrections) - MaxCorrections; n > 0 {
		s.Corrections = slices.Delete(s.Corrections, 0, n)
	}
}

// openCorrections are the decisions that can still be taken back, the latest
// last: those made since the last morning. The rest are kept until the next
// write forgets them.
func (s *State) openCorrections() []Taken {
	if s.Phase.Name == PhaseGameOver {
		return nil
	}
	return slices.DeleteFunc(slices.Clone(s.Corrections), func(t Taken) bool { return t.Before.Day != s.Day })
}

// correctOption offers the host the correction of their latest decisions,
// newest first, when there are any.
func (s *State) correctOption() []Option {
	open := s.openCorrections()
	if len(open) == 0 {
		return nil
	}
	undoes := make([]Decision, len(open))
	for i, t := range open {
		undoes[len(open)-1-i] = t.Decision
	}
	return []Option{{Type: ActCorrect, Undoes: undoes}}
}

// errNoCorrection refuses a correction when there is nothing left to take
// back.
var errNoCorrection = refusal(ErrWrongPhase, "nothing to take back: a decision can be corrected only until someone else acts (a vote, a night tap, a speech ended) or the morning comes, and only the last three")

// correct takes the host's latest decision back: the game becomes what it was
// before it, every deadline as far away as it was then, and the story says
// that the moderator corrected it. A card the decision turned face up stays
// face up: everyone has seen it.
func (s *State) correct(now time.Time) {
	open := s.openCorrections()
	last := open[len(open)-1]
	was := *s
	*s = last.Before.clone()
	s.Corrections, s.Ticks = open[:len(open)-1], was.Ticks
	if !s.Phase.EndsAt.IsZero() {
		s.Phase.EndsAt = s.Phase.EndsAt.Add(now.Sub(last.At))
	}
	for _, p := range was.Players {
		if q := s.player(p.ID); p.Shown && q != nil && !q.Shown {
			s.everywhere(func(g *State) { g.showCard(g.player(p.ID)) })
		}
	}
	s.everywhere(func(g *State) {
		g.forgetCorrected()
		g.log(ToAll, Event{Type: EvCorrected, Result: string(last.Decision.Type), Target: last.Decision.Target})
	})
}

// everywhere does f to the game and to every game a correction could bring
// back, for what no correction takes back: a correction's own line, a card
// seen, a seat moved to another device.
func (s *State) everywhere(f func(*State)) {
	f(s)
	for i := range s.Corrections {
		b := s.Corrections[i].Before.clone()
		f(&b)
		s.Corrections[i].Before = b
	}
}

// forgetCorrected keeps the "corrected" lines of the current day to the latest
// MaxCorrections-1, with room for one more, so that a host who decides and
// takes it back again and again does not grow the story.
func (s *State) forgetCorrected() {
	kept := 0
	for i := len(s.Events) - 1; i >= 0; i-- {
		if e := s.Events[i]; e.Type != EvCorrected || e.Day != s.Day {
			continue
		}
		if kept++; kept >= MaxCorrections {
			s.Events = slices.Delete(s.Events, i, i+1)
		}
	}
}
