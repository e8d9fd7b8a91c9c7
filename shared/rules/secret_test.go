package rules

import (
	"encoding/json"
	"fmt"
	"slices"
	"testing"
	"time"

	"pgregory.net/rapid"
)

// TestPropertyNightShowsNoSecret: two games that differ only in what is secret
// — who holds which card, and what each player taps at night — look the same,
// tap for tap, to everyone who may not know it: the public view and the host's
// screen in full, and in every player's view the phase, the seats and the poll
// timing; each player has one tap in each wake in both, so the game's version
// moves alike too. A person moderating sees everything, so their console is
// left out.
func TestPropertyNightShowsNoSecret(t *testing.T) {
	var nights, games int
	rapid.Check(t, func(t *rapid.T) {
		games++
		a, now, ok := drawNight(t)
		if !ok {
			return // the game ended before a night with acts
		}
		nights++
		// b: the same table with two living players' cards swapped.
		b := a.clone()
		var hidden []int
		for i, p := range b.Players {
			if p.Alive && !p.Shown {
				hidden = append(hidden, i)
			}
		}
		if len(hidden) >= 2 {
			i := rapid.SampledFrom(hidden).Draw(t, "swap1")
			j := rapid.SampledFrom(hidden).Draw(t, "swap2")
			b.Players[i].Role, b.Players[j].Role = b.Players[j].Role, b.Players[i].Role
		}
		night := a.Night
		for a.Phase.Name == PhaseNight && a.Night == night {
			sameToOthers(t, a, b, now)
			order := rapid.Permutation(a.living()).Draw(t, "order")
			wake := a.Phase.Wake
			for _, p := range order {
				actor := Actor{Player: p.ID}
				if (len(Legal(a, actor)) == 0) != (len(Legal(b, actor)) == 0) || len(Legal(a, actor)) == 0 {
					t.Fatalf("wake %d: %s may tap in one game and not the other: %v / %v", wake, p.ID, Legal(a, actor), Legal(b, actor))
				}
				a = mustApply(t, a, actor, anyTap(t, a, actor, "a"), now)
				b = mustApply(t, b, actor, anyTap(t, b, actor, "b"), now)
				if len(Legal(a, actor)) != 0 || len(Legal(b, actor)) != 0 {
					t.Fatalf("wake %d: %s may tap twice", wake, p.ID)
				}
				sameToOthers(t, a, b, now)
			}
			if !a.Phase.Closing && a.Moderator == ModeratorApp && a.Rules.HandOver > 0 {
				t.Fatalf("wake %d: every tap is in and the wake did not close", wake)
			}
			now = now.Add(seconds(a.Rules.HandOver))
			a, b = Advance(a, now), Advance(b, now)
			if a.Moderator == ModeratorHost && a.Rules.HandOver == 0 {
				break
			}
		}
	})
	// Most drawn games must reach such a night, or the property says little
	// (a run of a few games, make test's race pass, is spared the count).
	if games >= 50 && nights*2 < games {
		t.Fatalf("only %d of %d games reached a night with acts", nights, games)
	}
}

// drawNight plays a random game to the start of a night with acts (night 2 or
// later) and returns it; false if the game ended first.
func drawNight(t *rapid.T) (State, time.Time, bool) {
	s := drawLobby(t, "PROP02")
	mod := s.Moderator
	now := t0
	start := Action{Type: ActStart}
	start.Deal[0] = rapid.Byte().Draw(t, "seed")
	s = mustApply(t, s, Actor{Host: true}, start, now)
	for range 2000 {
		now = now.Add(time.Second)
		s = Advance(s, now)
		switch {
		case s.Phase.Name == PhaseGameOver:
			return s, now, false
		case s.Phase.Name == PhaseNight && s.Night >= 2 && s.Phase.Wake == 1 && len(s.Done) == 0 && !s.Phase.Closing && s.Phase.Paused == 0:
			return s, now, true
		}
		if actor, a, ok := legalAction(t, s); ok && !(actor.Host && (a.Type == ActPause || a.Type == ActRemove || a.Type == ActWarn)) {
			s = mustApply(t, s, actor, a, now)
		} else if mod == ModeratorHost && slices.ContainsFunc(Legal(s, Actor{Host: true}), func(o Option) bool { return o.Type == ActAdvance }) {
			s = mustApply(t, s, Actor{Host: true}, Action{Type: ActAdvance, Now: true}, now)
		} else {
			now = now.Add(time.Minute)
		}
	}
	return s, now, false
}

// TestPropertyBestMoveShowsNoSecret: two games that differ only in the cards
// of two players still at the table, one black and one red, where the first
// night's killed makes the same best move (Options.BestMove), look the same to
// everyone who may not know the cards, before it and after it: the names are
// told to all, and how many of them are black to nobody until the end.
func TestPropertyBestMoveShowsNoSecret(t *testing.T) {
	var made, games int
	rapid.Check(t, func(t *rapid.T) {
		games++
		a, now, maker, ok := drawBestMove(t)
		if !ok {
			return // no best move before the game ended
		}
		made++
		b := a.clone()
		var black, red []int
		for i, p := range b.Players {
			switch {
			case !p.Alive || p.Shown:
			case p.Role.Black():
				black = append(black, i)
			default:
				red = append(red, i)
			}
		}
		if len(black) > 0 && len(red) > 0 {
			i, j := rapid.SampledFrom(black).Draw(t, "black"), rapid.SampledFrom(red).Draw(t, "red")
			b.Players[i].Role, b.Players[j].Role = b.Players[j].Role, b.Players[i].Role
		}
		sameToOthers(t, a, b, now)
		o := Legal(a, Actor{Player: maker})
		move := Action{Type: ActBestMove, Targets: drawNamed(t, o[slices.IndexFunc(o, isBestMove)])}
		a = mustApply(t, a, Actor{Player: maker}, move, now)
		b = mustApply(t, b, Actor{Player: maker}, move, now)
		sameToOthers(t, a, b, now)
	})
	// A tenth of the drawn games at least must come to a best move (about a
	// fifth to a quarter do: the rest end or meet first), or the property
	// says little; a run of a few games (make test's race pass) may have
	// none, and the full run holds the share.
	if games >= 50 && made*10 < games {
		t.Fatalf("only %d of %d games came to a best move", made, games)
	}
}

// drawBestMove plays a random game with the best move on to the moment the
// first night's killed may make it, and returns it with the maker; false if
// the game ended first.
func drawBestMove(t *rapid.T) (State, time.Time, string, bool) {
	o := drawOptions(t)
	if o.LastWords == LastWordsNone {
		o.LastWords = LastWordsAll
	}
	o.BestMove = true
	n := rapid.IntRange(o.MinPlayers, min(o.MaxPlayers, o.MinPlayers+4)).Draw(t, "players")
	mod := rapid.SampledFrom([]string{ModeratorApp, ModeratorHost}).Draw(t, "moderator")
	s, err := New("PROP03", o, mod, "en", t0)
	if err != nil {
		t.Fatal(err)
	}
	for i := range n {
		if s, _, err = Join(s, fmt.Sprintf("P%d", i), t0); err != nil {
			t.Fatal(err)
		}
	}
	now := t0
	start := Action{Type: ActStart}
	start.Deal[0] = rapid.Byte().Draw(t, "seed")
	s = mustApply(t, s, Actor{Host: true}, start, now)
	for range 2000 {
		now = now.Add(time.Second)
		s = Advance(s, now)
		if s.Phase.Name == PhaseGameOver || s.Night > s.Rules.firstShotNight() {
			return s, now, "", false
		}
		if sp := s.speaker(); sp != "" && slices.ContainsFunc(Legal(s, Actor{Player: sp}), isBestMove) {
			return s, now, sp, true
		}
		if actor, a, ok := legalAction(t, s); ok && a.Type != ActBestMove && !(actor.Host && (a.Type == ActPause || a.Type == ActRemove || a.Type == ActWarn)) {
			s = mustApply(t, s, actor, a, now)
		} else if mod == ModeratorHost && slices.ContainsFunc(Legal(s, Actor{Host: true}), func(o Option) bool { return o.Type == ActAdvance }) {
			s = mustApply(t, s, Actor{Host: true}, Action{Type: ActAdvance, Now: true}, now)
		} else {
			now = now.Add(time.Minute)
		}
	}
	return s, now, "", false
}

func isBestMove(o Option) bool { return o.Type == ActBestMove }

// anyTap draws one of actor's legal night taps in s, with a random target.
func anyTap(t *rapid.T, s State, actor Actor, label string) Action {
	o := rapid.SampledFrom(Legal(s, actor)).Draw(t, label+"-tap")
	a := Action{Type: o.Type}
	if len(o.Targets) > 0 {
		a.Target = rapid.SampledFrom(o.Targets).Draw(t, label+"-target")
	}
	return a
}

// sameToOthers fails t unless a and b look the same to everyone who may not
// know their secrets.
func sameToOthers(t *rapid.T, a, b State, now time.Time) {
	viewers := []Viewer{Public}
	if a.Moderator == ModeratorApp {
		viewers = append(viewers, Viewer{Host: true})
	}
	for _, v := range viewers {
		va, vb := ViewOf(a, v, now), ViewOf(b, v, now)
		if ja, jb := mustJSON(t, va), mustJSON(t, vb); ja != jb || va.Timing != vb.Timing {
			t.Fatalf("night %d wake %d: %+v sees a secret:\n%s\n%s\ntiming %+v / %+v", a.Night, a.Phase.Wake, v, ja, jb, va.Timing, vb.Timing)
		}
	}
	for _, p := range a.Players {
		v := Viewer{Player: p.ID}
		va, vb := ViewOf(a, v, now), ViewOf(b, v, now)
		pa, pb := mustJSON(t, struct {
			Phase   PhaseView
			Players []PlayerView
		}{va.Phase, publicSeats(va.Players)}), mustJSON(t, struct {
			Phase   PhaseView
			Players []PlayerView
		}{vb.Phase, publicSeats(vb.Players)})
		if pa != pb || va.Timing != vb.Timing || va.Version != vb.Version {
			t.Fatalf("night %d wake %d: %s's phase, seats or timing show a secret:\n%s\n%s\ntiming %+v / %+v", a.Night, a.Phase.Wake, p.ID, pa, pb, va.Timing, vb.Timing)
		}
	}
}

// publicSeats is the seats without the roles a player may know of others.
func publicSeats(ps []PlayerView) []PlayerView {
	out := slices.Clone(ps)
	for i := range out {
		out[i].Role, out[i].Team = "", ""
	}
	return out
}

// mustJSON is v as the store and the API write it.
func mustJSON(t interface{ Fatal(args ...any) }, v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestNightShowsNoSecretDonCheck is the case the property test grew from: the
// Don's check is a tap like any other, so whether the Don is alive moves no
// public counter (R-SPORT-11).
func TestNightShowsNoSecretDonCheck(t *testing.T) {
	alive := sport10(t)
	alive.quietNight()
	alive.skipDay()
	dead := sport10(t)
	dead.quietNight()
	dead.skipDay()
	dead.s.player(id(1)).Role, dead.s.player(id(5)).Role = Citizen, Don // seat 1's card is the Don's in one game only
	for alive.s.Phase.Name == PhaseNight {
		pa, pd := ViewOf(alive.s, Public, alive.now), ViewOf(dead.s, Public, dead.now)
		if pa.Phase.Pending != pd.Phase.Pending || pa.Phase.Wake != pd.Phase.Wake {
			t.Fatalf("wake %d: pending %d / %d", pa.Phase.Wake, pa.Phase.Pending, pd.Phase.Pending)
		}
		seat := alive.s.player(alive.s.living()[len(alive.s.Done)].ID).Seat
		alive.do(seat, Legal(alive.s, Actor{Player: id(seat)})[0].Type, 9)
		dead.do(seat, ActSleep, 0)
	}
	if dead.s.Phase.Name == PhaseNight || alive.now != dead.now {
		t.Fatalf("the nights ended apart: %s / %s", alive.s.Phase.Name, dead.s.Phase.Name)
	}
}
