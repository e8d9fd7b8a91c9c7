package rules

import (
	"slices"
	"testing"
)

// maniac10: seat 1 Don, 2-3 mafia, 4 Sheriff, 5 Doctor, 6 Maniac, 7-10 citizens.
func maniac10(t *testing.T, tweak func(*Options)) *game {
	g := newGame(t, PresetManiac, 10, tweak, Don, Mafia, Mafia, Sheriff, Doctor, Maniac)
	g.quietNight()
	g.want(PhaseIntro)
	g.speeches(nil)
	return g
}

// TestManiacDeal: ten players with a Don, a Sheriff, a Doctor and a Maniac
// (R-MANIAC-01); the moderator decides the Maniac's side.
func TestManiacDeal(t *testing.T) {
	o, _ := Preset(PresetManiac)
	deck := o.Deck(10)
	for _, r := range []Role{Don, Sheriff, Doctor, Maniac, Mafia, Citizen} {
		if !slices.Contains(deck, r) {
			t.Errorf("R-MANIAC-01: no %s in %v", r, deck)
		}
	}
	s, _ := New("TEST01", o, ModeratorHost, "ro", t0)
	s, err := Apply(s, Actor{Host: true}, Action{Type: ActManiacSide, Side: "mafia"}, t0)
	if err != nil || s.Rules.ManiacSide != "mafia" {
		t.Fatalf("R-MANIAC-01: the host sets the side: %v %v", err, s.Rules.ManiacSide)
	}
	if _, err := Apply(s, Actor{Player: "p1"}, Action{Type: ActManiacSide, Side: "alone"}, t0); err == nil {
		t.Fatal("R-MANIAC-01: a player set the Maniac's side")
	}
}

// TestManiacIntro: after the meeting night every player introduces themselves for
// 30 s, from seat 1 (R-MANIAC-02).
func TestManiacIntro(t *testing.T) {
	g := newGame(t, PresetManiac, 10, nil, Don, Mafia, Mafia, Sheriff, Doctor, Maniac)
	g.quietNight()
	g.want(PhaseIntro)
	if g.s.speaker() != id(1) || g.s.Phase.EndsAt.Sub(g.now) != 30e9 || len(g.s.Phase.Queue) != 10 {
		t.Fatalf("R-MANIAC-02: intro %+v", g.s.Phase)
	}
	for range 10 {
		g.tick(30e9)
	}
	g.want(PhaseNight)
	if g.s.Day != 0 || g.s.Night != 2 {
		t.Fatalf("day %d night %d after the introductions", g.s.Day, g.s.Night)
	}
}

// TestManiacGame plays the open table: the Don's final word, both checks, the
// Sheriff's shot beside the mafia's kill, the Maniac, the Doctor's last step, silent
// exits, a justification, and the end.
func TestManiacGame(t *testing.T) {
	g := maniac10(t, nil)
	// R-MANIAC-03: the team shoot, the Don's choice is final.
	// R-MANIAC-04: the Don checks for the Sheriff. R-MANIAC-05: the Sheriff shoots
	// seat 2. R-MANIAC-06: the Maniac kills seat 8.
	g.wake(map[int]string{1: "kill:7", 2: "kill:9", 3: "kill:9", 4: "shoot:2", 6: "kill:8"})
	// R-MANIAC-07: the Doctor wakes last and is shown the victims; the Don checks
	// in the same second wake (R-MANIAC-04).
	if g.s.Phase.Name != PhaseNight || g.s.Phase.Wake != 2 {
		t.Fatalf("R-MANIAC-07: after the first wake %s %d", g.s.Phase.Name, g.s.Phase.Wake)
	}
	if v := ViewOf(g.s, Viewer{Player: id(5)}, g.now); !slices.Equal(v.You.Victims, []string{id(7), id(2), id(8)}) {
		t.Fatalf("R-MANIAC-07: the Doctor is shown %v", v.You.Victims)
	}
	if v := ViewOf(g.s, Viewer{Player: id(9)}, g.now); v.You.Victims != nil {
		t.Fatal("R-MANIAC-07: a citizen sees the victims")
	}
	g.wake(map[int]string{1: "check:4", 5: "heal:7"})
	g.wantAlive(7, 9)
	g.wantDead(2, 8)
	if c := g.s.player(id(1)).Checks; len(c) != 1 || !c[0].Yes {
		t.Fatalf("R-MANIAC-04: the Don's check %v", c)
	}
	// R-MANIAC-08: the killed citizen has a 30 s last will; the killed mafia leaves
	// silently.
	g.want(PhaseLastWord)
	if !slices.Equal(g.s.Phase.Queue, []string{id(8)}) || g.s.Phase.EndsAt.Sub(g.now) != 30e9 {
		t.Fatalf("R-MANIAC-08: last words %v", g.s.Phase)
	}
	g.lastWords()
	// R-MANIAC-09: 60 s each from seat 1; a raised hand speaks 30 s after the round.
	g.want(PhaseDay)
	if g.s.speaker() != id(1) || g.s.Phase.EndsAt.Sub(g.now) != 60e9 {
		t.Fatalf("R-MANIAC-09: %+v", g.s.Phase)
	}
	g.do(9, ActRaiseHand, 0)
	for g.s.Phase.Reason != "extra" {
		g.do(g.s.player(g.s.speaker()).Seat, ActEndSpeech, 0)
	}
	if g.s.speaker() != id(9) || g.s.Phase.EndsAt.Sub(g.now) != 30e9 {
		t.Fatalf("R-MANIAC-09: the extra speech %+v", g.s.Phase)
	}
	g.speeches(nil)
	// R-MANIAC-10: everyone votes against one player; the leader justifies, then a
	// revote; with fewer votes he stays.
	g.vote(map[int]int{1: 6, 3: 6, 4: 3, 5: 3, 6: 3, 7: 3, 9: 3, 10: 3})
	g.want(PhaseDefence)
	g.speeches(nil)
	g.voteAll(4, 5) // 2 < 6
	g.wantAlive(3)
	g.wantEvent(EvAcquitted, 0, "justified")
	// R-MANIAC-05: the Sheriff's check shows the Maniac as not mafia.
	g.wake(map[int]string{1: "kill:10", 4: "check:6", 6: "kill:9"})
	if c := g.s.player(id(4)).Checks; len(c) != 1 || c[0].Yes {
		t.Fatalf("R-MANIAC-05: the Maniac checks as %v", c)
	}
	// Victims 10 and 9. Every phone offers every seat, so the Doctor may point at
	// 7, who is no victim: that saves nobody (R-MANIAC-07).
	before := g.s
	g.do(5, ActHeal, 7)
	g.s = before
	g.wake(map[int]string{5: "heal:10"})
	g.wantDead(9)
	g.lastWords()
	g.speeches(nil)
	// Justification is once per game: the next time he leads he leaves at once.
	g.vote(map[int]int{1: 6, 3: 6, 4: 3, 5: 3, 6: 3, 7: 3, 10: 3})
	g.wantDead(3)
	// R-MANIAC-04: with the Don gone, nobody checks. Here he lives; kill him next.
	g.wake(map[int]string{1: "kill:4", 4: "shoot:1", 6: "kill:10"})
	g.wake(map[int]string{5: "heal:10"}) // saved once already: refused; the other victim is saved
	g.wantEvent(EvHealed, 4, "")
	g.wantDead(1, 10)
	g.wantAlive(4)
	// Left: Sheriff 4, Doctor 5, Maniac 6, citizen 7. No black: the lone Maniac
	// still plays; the town votes him out and wins (R-MANIAC-11).
	g.lastWords()
	g.speeches(nil)
	g.vote(map[int]int{4: 6, 5: 6, 6: 4, 7: 6})
	g.want(PhaseDefence)
	g.speeches(nil)
	g.voteAll(4, 5, 7)
	g.wantWinner(Town)
}

// TestManiacDonMiss: without the Don's shot the mafia miss ("the mafia did not
// agree", R-MANIAC-03); with the Don gone, nobody checks for the Sheriff (R-MANIAC-04).
func TestManiacDonMiss(t *testing.T) {
	g := maniac10(t, nil)
	g.night(map[int][]string{2: {"kill:9"}, 3: {"kill:9"}})
	g.wantAlive(9)
	g.wantEvent(EvMissed, 0, "")
	g.speeches(nil)
	g.vote(map[int]int{1: 2, 2: 1, 3: 1, 4: 1, 5: 1, 6: 1, 7: 1, 8: 1, 9: 1, 10: 1})
	g.speeches(nil)
	g.voteAll(2, 3, 4, 5, 6, 7, 8, 9, 10)
	g.wantDead(1)
	g.night(nil)
	for _, o := range Legal(g.s, Actor{Player: id(2)}) {
		if o.Type == ActCheck {
			t.Fatal("R-MANIAC-04: a mafia checks for the Sheriff after the Don left")
		}
	}
}

// TestManiacJustifyTies: two tied each justify, then a new vote; three or more tied
// all stay (R-MANIAC-10).
func TestManiacJustifyTies(t *testing.T) {
	g := maniac10(t, nil)
	g.quietNight()
	g.speeches(nil)
	g.vote(map[int]int{1: 7, 2: 7, 3: 7, 4: 8, 5: 8, 6: 8, 7: 9, 8: 9, 9: 9, 10: 0})
	g.wantEvent(EvAcquitted, 0, "tie")
	g.quietNight()
	g.speeches(nil)
	g.vote(map[int]int{1: 7, 2: 7, 3: 7, 4: 8, 5: 8, 6: 8, 7: 0, 8: 0, 9: 0, 10: 0})
	g.want(PhaseDefence)
	if !slices.Equal(g.s.Phase.Queue, []string{id(7), id(8)}) {
		t.Fatalf("R-MANIAC-10: justifications %v", g.s.Phase.Queue)
	}
	g.speeches(nil)
	g.vote(map[int]int{1: 7, 2: 7, 3: 7, 4: 7, 5: 8, 6: 8, 7: 8, 8: 0, 9: 0, 10: 0})
	g.wantDead(7)
}

// TestManiacWins: a lone Maniac wins as one of the last two; a Maniac on the mafia's
// side makes the town play on after the last mafia member leaves, and counts with the
// mafia (R-MANIAC-11).
func TestManiacWins(t *testing.T) {
	t.Run("alone", func(t *testing.T) {
		g := maniac10(t, nil)
		for _, seat := range []int{1, 2, 3, 4, 5, 7, 8} {
			g.s.player(id(seat)).Alive = false
		}
		g.night(map[int][]string{6: {"kill:9"}})
		g.wantWinner(Loner)
	})
	t.Run("with the mafia", func(t *testing.T) {
		g := maniac10(t, func(o *Options) { o.ManiacSide = "mafia" })
		for _, seat := range []int{2, 3, 5, 7, 8} {
			g.s.player(id(seat)).Alive = false
		}
		// Don 1, Sheriff 4, Maniac 6, citizens 9 and 10: the town votes the Don out
		// and plays on against the Maniac.
		g.quietNight()
		g.speeches(nil)
		g.vote(map[int]int{1: 4, 4: 1, 6: 4, 9: 1, 10: 1})
		g.speeches(nil)
		g.voteAll(4, 9, 10)
		g.wantDead(1)
		g.want(PhaseNight)
		// Maniac and three town: he kills one, 1 against 2 plays on; the next kill
		// makes parity and his side wins.
		g.night(map[int][]string{6: {"kill:9"}})
		g.lastWords()
		g.want(PhaseDay)
		g.speeches(nil)
		g.vote(map[int]int{4: 10, 6: 4, 10: 4})
		g.speeches(nil)
		g.voteAll(6, 10)
		g.wantDead(4)
		g.wantWinner(MafiaTeam)
	})
}
