package rules

import (
	"fmt"
	"reflect"
	"slices"
	"testing"
	"time"

	"pgregory.net/rapid"
)

// step is one input to a game: an action by an actor at a time, a seat moved to
// another device (move), or (with neither) the clock moving on.
type step struct {
	actor Actor
	a     Action
	move  string
	now   time.Time
}

// drawOptions draws a preset, or a random custom mix that validates.
func drawOptions(t *rapid.T) Options {
	name := rapid.SampledFrom(Presets).Draw(t, "preset")
	o, _ := Preset(name)
	if name != PresetCustom {
		return o
	}
	for {
		c := o
		c.MinPlayers = rapid.IntRange(5, 12).Draw(t, "min")
		c.MaxPlayers = c.MinPlayers + rapid.IntRange(0, 4).Draw(t, "spread")
		c.Mafia = rapid.IntRange(0, 3).Draw(t, "mafia")
		c.MafiaFormula = rapid.SampledFrom([]MafiaFormula{"classic", "party"}).Draw(t, "formula")
		for _, f := range []*bool{&c.Don, &c.Sheriff, &c.Doctor, &c.Lover, &c.Advocate, &c.Cinderella, &c.Maniac,
			&c.OpenRoles, &c.LastPairMafia, &c.FirstNightMeeting, &c.IntroRound, &c.Day1SingleNomineeStays,
			&c.FourLeftNoRevote, &c.HalfVote, &c.DoctorOncePerPlayer, &c.DoctorNamesPatient, &c.DrawSeats, &c.EyesClosed, &c.BestMove} {
			*f = rapid.Bool().Draw(t, "flag")
		}
		c.Win = rapid.SampledFrom([]Win{"parity", "elimination"}).Draw(t, "win")
		c.MafiaKill = rapid.SampledFrom([]MafiaKill{"unanimous", "don", "majority"}).Draw(t, "kill")
		c.Voting = rapid.SampledFrom([]Voting{"nominees", "anyone"}).Draw(t, "voting")
		c.NonVoters = rapid.SampledFrom([]NonVoters{"last_nominee", "abstain", "compulsory"}).Draw(t, "nonvoters")
		c.Ties = rapid.SampledFrom([]Ties{"car_crash", "revote", "justify", "none"}).Draw(t, "ties")
		c.LastWords = rapid.SampledFrom([]LastWords{"all", "town_night", "sheriff_night", "none"}).Draw(t, "words")
		c.Commissar = rapid.SampledFrom([]Commissar{"check", "public", "shoot", "check_or_shoot"}).Draw(t, "commissar")
		c.MaxNominees = rapid.IntRange(0, 3).Draw(t, "maxNominees")
		c.ExtraSpeech = rapid.SampledFrom([]int{0, 30}).Draw(t, "extra")
		c.DonChecks = c.Don && rapid.Bool().Draw(t, "donChecks")
		c.Testament = c.Sheriff && rapid.Bool().Draw(t, "testament")
		c.TestamentKills = c.Testament && rapid.Bool().Draw(t, "testamentKills")
		c.RevealAfter = 0
		if c.Sheriff {
			c.RevealAfter = rapid.IntRange(0, 2).Draw(t, "reveal")
		}
		c.DoubleDeath = c.Sheriff && rapid.Bool().Draw(t, "double")
		c.DoctorVictims = c.Doctor && rapid.Bool().Draw(t, "doctorVictims")
		c.DoctorOncePerPlayer = c.DoctorOncePerPlayer && c.Doctor
		c.DoctorNamesPatient = c.DoctorNamesPatient && c.Doctor
		c.NomineeDefence = c.Voting == "nominees" && rapid.Bool().Draw(t, "defence")
		c.ManiacSide = rapid.SampledFrom([]ManiacSide{"alone", "mafia"}).Draw(t, "side")
		c.ForbiddenWords = rapid.SampledFrom([]ForbiddenWords{"warning", "removal"}).Draw(t, "words")
		c.LoneManiac = rapid.SampledFrom([]LoneManiac{"last_two", "town"}).Draw(t, "lone")
		c.MafiaTime = rapid.SampledFrom([]int{0, 30}).Draw(t, "mafiaTime")
		c.FirstNightChecks = c.FirstNightMeeting && rapid.Bool().Draw(t, "firstNightChecks")
		c.JustifiedLeaves = c.Ties == TiesJustify && rapid.Bool().Draw(t, "justifiedLeaves")
		c.LoneManiacApart = c.Maniac && rapid.Bool().Draw(t, "loneManiacApart")
		c.DayOpener = rapid.SampledFrom([]DayOpener{OpenerNextSeat, OpenerDaySeat}).Draw(t, "dayOpener")
		c.MuteWholeRound = rapid.Bool().Draw(t, "muteWholeRound")
		if c.Validate() == nil {
			return c
		}
	}
}

// drawLobby draws a rule set, who moderates and a table size, and seats that
// many players in a new game's lobby.
func drawLobby(t *rapid.T, code string) State {
	o := drawOptions(t)
	n := rapid.IntRange(o.MinPlayers, min(o.MaxPlayers, o.MinPlayers+4)).Draw(t, "players")
	mod := rapid.SampledFrom([]string{ModeratorApp, ModeratorHost}).Draw(t, "moderator")
	s, err := New(code, o, mod, "en", t0)
	if err != nil {
		t.Fatal(err)
	}
	for i := range n {
		if s, _, err = Join(s, fmt.Sprintf("P%d", i), t0); err != nil {
			t.Fatal(err)
		}
	}
	return s
}

// TestPropertyRandomGames plays random legal games of every preset and of random
// custom mixes, mixed with refused actions, seats moved to other devices and the
// clock, and checks at every step: the game ends within a bound; exactly one
// winner, consistent with who is alive; the dead and removed never act; no view
// leaks; a refused action or move changes nothing; a move changes no view but
// for its line of the story; and replaying the accepted inputs from the start
// gives the same final state.
func TestPropertyRandomGames(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := drawLobby(t, "PROP01")
		o, mod := s.Rules, s.Moderator
		initial := s
		var log []step
		now := t0
		start := Action{Type: ActStart}
		start.Deal[0] = rapid.Byte().Draw(t, "seed")
		s = mustApply(t, s, Actor{Host: true}, start, now)
		log = append(log, step{actor: Actor{Host: true}, a: start, now: now})

		const bound = 4000
		for i := 0; s.Phase.Name != PhaseGameOver; i++ {
			if i == bound {
				t.Fatalf("no winner after %d steps: phase %s day %d night %d", bound, s.Phase.Name, s.Day, s.Night)
			}
			switch rapid.IntRange(0, 10).Draw(t, "kind") {
			case 10: // a seat moves to another device; one not at the table (p0, one past the last) is refused
				s = moveSeat(t, s, fmt.Sprintf("p%d", rapid.IntRange(0, len(s.Players)+1).Draw(t, "mover")), now, &log)
				continue
			case 0: // the clock
				now = now.Add(time.Duration(rapid.IntRange(1, 90).Draw(t, "secs")) * time.Second)
				s = Advance(s, now)
				log = append(log, step{now: now})
			case 1: // something refused, or accepted if it happens to be legal
				actor, a := randomAction(t, s)
				next, err := Apply(s, actor, a, now)
				if err != nil {
					if !reflect.DeepEqual(next, s) {
						t.Fatalf("refused %s by %+v changed the state", a.Type, actor)
					}
					continue
				}
				checkActor(t, s, actor, a)
				s = next
				log = append(log, step{actor: actor, a: a, now: now})
			default:
				actor, a, ok := legalAction(t, s)
				if !ok {
					now = now.Add(time.Duration(o.Night) * time.Second)
					s = Advance(s, now)
					canAdvance := slices.ContainsFunc(Legal(s, Actor{Host: true}), func(o Option) bool { return o.Type == ActAdvance })
					if mod == ModeratorHost && canAdvance {
						a, actor = Action{Type: ActAdvance, Now: true}, Actor{Host: true}
						s = mustApply(t, s, actor, a, now)
						log = append(log, step{actor: actor, a: a, now: now})
					} else {
						log = append(log, step{now: now})
					}
					continue
				}
				checkActor(t, s, actor, a)
				next := mustApply(t, s, actor, a, now)
				if a.Type == ActTapFor {
					checkTappedAsPhone(t, s, a, now, next)
				}
				s = next
				log = append(log, step{actor: actor, a: a, now: now})
			}
			checkViews(t, s, now)
			checkPending(t, s, now)
			checkWinner(t, s)
		}
		checkWinner(t, s)
		checkOutcomeRules(t, s)
		// Replay.
		r := initial
		for _, st := range log {
			switch {
			case st.move != "":
				var err error
				if r, err = Move(r, st.move, "", st.now); err != nil {
					t.Fatalf("replay of the move of %s: %v", st.move, err)
				}
			case st.a.Type == "":
				r = Advance(r, st.now)
			default:
				r = mustApply(t, r, st.actor, st.a, st.now)
			}
		}
		if !reflect.DeepEqual(r, s) {
			t.Fatal("replaying the accepted inputs gives another state")
		}
	})
}

// moveSeat moves seat id of s to another device at now, logs it and returns the
// game after it; it fails t unless the move changes nothing but its line of
// the story, or, refused, nothing at all.
func moveSeat(t *rapid.T, s State, id string, now time.Time, log *[]step) State {
	next, err := Move(s, id, "", now)
	if err != nil {
		if !reflect.DeepEqual(next, s) {
			t.Fatalf("the refused move of %s changed the state", id)
		}
		return s
	}
	if err := movedOnly(s, next, id, now); err != nil {
		t.Fatal(err)
	}
	*log = append(*log, step{move: id, now: now})
	return next
}

func mustApply(t *rapid.T, s State, actor Actor, a Action, now time.Time) State {
	n, err := Apply(s, actor, a, now)
	if err != nil {
		t.Fatalf("%+v %s %s: %v (phase %s)", actor, a.Type, a.Target, err, s.Phase.Name)
	}
	return n
}

// legalAction picks a player (or, rarely, the host) with something to do and one of
// their legal actions. The mafia mostly follow a teammate's shot so that nights end
// in kills often enough.
func legalAction(t *rapid.T, s State) (Actor, Action, bool) {
	s = Advance(s, time.Time{}) // no-op; keeps the signature honest about time
	var actors []Actor
	for _, p := range s.Players {
		if len(Legal(s, Actor{Player: p.ID})) > 0 {
			actors = append(actors, Actor{Player: p.ID})
		}
	}
	if len(actors) == 0 || rapid.IntRange(0, 30).Draw(t, "hostTurn") == 0 {
		actors = append(actors, Actor{Host: true})
	}
	actor := rapid.SampledFrom(actors).Draw(t, "actor")
	opts := Legal(s, actor)
	if actor.Host {
		// The host keeps to moves that keep a game going: removing or warning is
		// rare, and so is taking a decision back; pausing is followed by
		// resuming. A reseat changes nothing here (moves come as steps of
		// their own, Move).
		opts = slices.DeleteFunc(opts, func(o Option) bool {
			return o.Type == ActConfigure || o.Type == ActKick || o.Type == ActSeat || o.Type == ActReseat ||
				(o.Type == ActRemove && rapid.IntRange(0, 5).Draw(t, "remove") > 0) ||
				(o.Type == ActCorrect && rapid.IntRange(0, 5).Draw(t, "correct") > 0)
		})
	}
	if len(opts) == 0 {
		return actor, Action{}, false
	}
	o := rapid.SampledFrom(opts).Draw(t, "option")
	a := Action{Type: o.Type, Now: o.Type == ActAdvance}
	if len(o.Targets) > 0 {
		a.Target = rapid.SampledFrom(o.Targets).Draw(t, "target")
		if o.Type == ActKill {
			for _, c := range s.Choices {
				if c.Type == ActKill && slices.Contains(o.Targets, c.Target) && rapid.IntRange(0, 4).Draw(t, "follow") > 0 {
					a.Target = c.Target
				}
			}
		}
	}
	switch o.Type {
	case ActVote:
		if o.Abstain && rapid.IntRange(0, 5).Draw(t, "abstain") == 0 {
			a.Target = ""
		}
	case ActVoteAll:
		yes := rapid.Bool().Draw(t, "yes")
		a.Yes = &yes
	case ActTestament:
		a.Verdict = rapid.SampledFrom(o.Verdicts).Draw(t, "verdict")
	case ActBestMove:
		a.Target, a.Targets = "", drawNamed(t, o)
	case ActManiacSide:
		a.Side = rapid.SampledFrom([]ManiacSide{"alone", "mafia"}).Draw(t, "side")
	case ActSeat:
		a.Seat = 1
	case ActWarn, ActRemove:
		if len(o.Fouls) > 0 && rapid.Bool().Draw(t, "named") {
			a.Foul = rapid.SampledFrom(o.Fouls).Draw(t, "foul")
		}
	case ActTapFor:
		tap := rapid.SampledFrom(o.Taps[slices.Index(o.Targets, a.Target)].Actions).Draw(t, "tap")
		a.Tap = &Tap{Type: tap.Type}
		if len(tap.Targets) > 0 {
			a.Tap.Target = rapid.SampledFrom(tap.Targets).Draw(t, "tapTarget")
		}
	}
	return actor, a, true
}

// checkTappedAsPhone: the moderator's tap a for a seat in s leaves every view
// but the moderator's as the seat's phone's tap would (issue 28).
func checkTappedAsPhone(t *rapid.T, s State, a Action, now time.Time, next State) {
	byPhone := mustApply(t, s, Actor{Player: a.Target}, a.Tap.action(), now)
	if err := tappedAsPhone(byPhone, next, now); err != nil {
		t.Fatal(err)
	}
}

// drawNamed draws the players a best move offered as o names: one to o.Max
// of its targets, each once.
func drawNamed(t *rapid.T, o Option) []string {
	return rapid.SliceOfNDistinct(rapid.SampledFrom(o.Targets), 1, min(o.Max, len(o.Targets)), rapid.ID).Draw(t, "named")
}

// randomAction is any action by anyone, mostly not legal.
func randomAction(t *rapid.T, s State) (Actor, Action) {
	types := append(slices.Sorted(mapKeys(hostActions)), slices.Sorted(mapKeys(playerActions))...)
	types = append(types, "fly", "")
	actor := Actor{Host: rapid.IntRange(0, 4).Draw(t, "asHost") == 0}
	if !actor.Host {
		actor.Player = fmt.Sprintf("p%d", rapid.IntRange(0, len(s.Players)+1).Draw(t, "who"))
	}
	yes := rapid.Bool().Draw(t, "yes")
	a := Action{
		Type:    rapid.SampledFrom(types).Draw(t, "type"),
		Target:  fmt.Sprintf("p%d", rapid.IntRange(0, len(s.Players)+1).Draw(t, "target")),
		Verdict: rapid.SampledFrom([]Verdict{"", "mafia", "honest", "x"}).Draw(t, "verdict"),
		Seat:    rapid.IntRange(-1, len(s.Players)+1).Draw(t, "seat"),
		Side:    rapid.SampledFrom([]ManiacSide{"", "alone", "mafia"}).Draw(t, "side"),
		Foul:    rapid.SampledFrom(append([]string{"", "x"}, Fouls...)).Draw(t, "foul"),
		Targets: rapid.SliceOfN(rapid.Custom(func(t *rapid.T) string {
			return fmt.Sprintf("p%d", rapid.IntRange(0, len(s.Players)+1).Draw(t, "named"))
		}), 0, 4).Draw(t, "targets"),
	}
	if rapid.Bool().Draw(t, "hasYes") {
		a.Yes = &yes
	}
	if a.Type == ActConfigure || a.Type == ActPause || a.Type == ActAdvance || a.Type == ActKick || a.Type == ActSeat {
		a.Type = ActResume // keep random host moves from reshaping the game
	}
	return actor, a
}

func mapKeys(m map[ActionType]bool) func(func(ActionType) bool) {
	return func(yield func(ActionType) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

// checkActor: the dead and removed never act, except a last word (R-SPORT-09) and
// last night's victim's half vote (R-CLASSIC-10).
func checkActor(t *rapid.T, s State, actor Actor, a Action) {
	if actor.Host {
		return
	}
	p := s.player(actor.Player)
	s = Advance(s, time.Time{})
	if p.Alive || s.Phase.Name == PhaseLobby {
		return
	}
	if s.Phase.Name == PhaseLastWord && s.speaker() == p.ID && !p.Removed {
		return
	}
	if s.Phase.Name == PhaseVote && a.Type == ActVote && s.HalfVoter == p.ID && !p.Removed {
		return
	}
	t.Fatalf("dead %s acted: %s in %s", p.ID, a.Type, s.Phase.Name)
}

// checkPending: at night the public pending count is the number of living
// players who still have a tap to make, whoever has died or been removed
// meanwhile (R-SPORT-16).
func checkPending(t *rapid.T, s State, now time.Time) {
	s = Advance(s, now)
	if s.Phase.Name != PhaseNight || s.Phase.Closing || s.Phase.Paused > 0 {
		return
	}
	want := 0
	for _, p := range s.living() {
		if len(Legal(s, Actor{Player: p.ID})) > 0 {
			want++
		}
	}
	if got := ViewOf(s, Public, now).Phase.Pending; got != want {
		t.Fatalf("night %d wake %d: pending %d with %d still to tap", s.Night, s.Phase.Wake, got, want)
	}
}

// checkWinner: once over, exactly one side has won, the one the survivors make.
func checkWinner(t *rapid.T, s State) {
	seen := map[Choice]bool{}
	for _, c := range s.Choices {
		c.Target = ""
		if seen[c] {
			t.Fatalf("%s made two %s choices in one night", c.Actor, c.Type)
		}
		seen[c] = true
	}
	over := s.Phase.Name == PhaseGameOver
	if over != (s.Winner != "") {
		t.Fatalf("phase %s with winner %q", s.Phase.Name, s.Winner)
	}
	won, rule := s.winner()
	if over && won != s.Winner {
		t.Fatalf("winner %q but the survivors make %q", s.Winner, won)
	}
	if over && (rule == "" || s.Events[len(s.Events)-1].Rule != rule) {
		t.Fatalf("the winner %q by rule %q, the story ends with %+v", won, rule, s.Events[len(s.Events)-1])
	}
	if !over && s.Phase.Name != PhaseLobby && won != "" {
		var seats []string
		for _, p := range s.Players {
			seats = append(seats, fmt.Sprintf("%s:%s:%v", p.ID, p.Role, p.Alive))
		}
		t.Fatalf("%q has won but the game goes on in %s: %v %+v", won, s.Phase.Name, seats, s.Rules)
	}
}

// checkOutcomeRules: every outcome the story tells names the rule that decided
// it, and every death at night its cause, so that the protocol never works
// them out (Event.Rule). Only a tie that stands under "ties: none", a house
// option, has no rule.
func checkOutcomeRules(t *rapid.T, s State) {
	for _, e := range s.Events {
		switch e.Type {
		case EvKilled, EvEliminated, EvRemoved, EvAcquitted, EvDefended, EvGameOver, EvSheriffMissed:
		case EvHealed:
			if e.Target == "" && e.To != ToAll {
				t.Fatalf("a save of nobody: %+v", e)
			}
		default:
			continue
		}
		if e.Rule == "" && !(e.Type == EvAcquitted && e.Result == string(AcquitTie) && s.Rules.Ties == TiesNone) {
			t.Fatalf("%s tells no rule: %+v", e.Type, e)
		}
		if e.Type == EvKilled && e.Result == "" {
			t.Fatalf("a death without a cause: %+v", e)
		}
	}
}

// checkViews checks every viewer's view against the security boundary.
func checkViews(t *rapid.T, s State, now time.Time) {
	viewers := []Viewer{Public, {Host: true}}
	for _, p := range s.Players {
		viewers = append(viewers, Viewer{Player: p.ID})
	}
	for _, v := range viewers {
		if err := leaks(s, ViewOf(s, v, now), v); err != nil {
			t.Fatal(err)
		}
	}
}

// leaks returns an error if view shows viewer something the rules do not let them
// know. It is written from the rules, independently of View.
func leaks(s State, view View, v Viewer) error {
	s = Advance(s, time.Time{})
	if s.Phase.Name == PhaseGameOver {
		return nil
	}
	moderator := v.Host && s.Moderator == ModeratorHost
	if moderator {
		return nil
	}
	me := s.player(v.Player)
	for _, pv := range view.Players {
		if pv.Role == "" {
			continue
		}
		p := s.player(pv.ID)
		ok := p.Shown || (me != nil && (me.ID == p.ID || (me.Role.Black() && p.Role.Black())))
		if !ok {
			return fmt.Errorf("%+v sees %s's role %s", v, p.ID, p.Role)
		}
	}
	if view.Night != nil {
		return fmt.Errorf("%+v sees the night's choices", v)
	}
	for _, e := range view.Events {
		switch {
		case e.Type == EvAct:
			return fmt.Errorf("%+v sees a night act %+v", v, e)
		case e.Type == EvChecked && (me == nil || e.Actor != me.ID):
			return fmt.Errorf("%+v sees another's check %+v", v, e)
		case e.Type == EvShot && (me == nil || !me.Role.Black()):
			return fmt.Errorf("%+v sees the mafia's shot %+v", v, e)
		case e.Type == EvShot && e.Actor != me.ID && s.Rules.EyesClosed && e.Night > 1:
			return fmt.Errorf("%+v sees a partner's shot made with eyes closed (R-SPORT-10) %+v", v, e)
		case e.Type == EvKilled && (e.Result != "" || e.Rule != ""):
			return fmt.Errorf("%+v is told who killed %+v", v, e)
		case e.Role != "" && !s.player(e.Target).Shown:
			return fmt.Errorf("%+v sees a hidden role in %+v", v, e)
		case e.Type == EvBestMove && (e.Result != "" || e.Role != "" || e.Target != "" || e.Rule != ""):
			// The names are said aloud; how many are black is the cards'.
			return fmt.Errorf("%+v is told more of a best move than its names %+v", v, e)
		case e.Type == EvHealed && !s.Rules.DoctorNamesPatient && (e.Target != "" || s.Rules.DoctorVictims):
			// R-CLASSIC-11, R-MANIAC-07: a save is told by name only where the
			// rules name the patient, and a Doctor among the victims' not at all.
			return fmt.Errorf("%+v is told of a save %+v", v, e)
		}
	}
	if view.You != nil {
		if me == nil || view.You.ID != me.ID {
			return fmt.Errorf("%+v gets another's you", v)
		}
		if len(view.You.Shots) > 0 && !me.Role.Black() {
			return fmt.Errorf("%+v sees the shots", v)
		}
		for _, c := range view.You.Shots {
			if c.Actor != me.ID && s.Rules.EyesClosed && s.Night > 1 {
				return fmt.Errorf("%+v sees a partner's shot made with eyes closed (R-SPORT-10) %+v", v, c)
			}
		}
		if len(view.You.Victims) > 0 && me.Role != Doctor {
			return fmt.Errorf("%+v sees the victims", v)
		}
	}
	return nil
}
