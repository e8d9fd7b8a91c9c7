package rules

import (
	"slices"
	"testing"
)

func party9(t *testing.T, tweak func(*Options)) *game {
	return newGame(t, PresetParty, 9, tweak, Mafia, Mafia, Mafia, Sheriff, Advocate, Cinderella)
}

// TestPartyDeal: at least 9 players; a third mafia: 3 of 9-10, 4 of 11-13, 5 of
// 14-16; Commissar, Advocate and Cinderella in the town (R-PARTY-01).
func TestPartyDeal(t *testing.T) {
	o, _ := Preset(PresetParty)
	if err := o.ValidateTable(8); err == nil {
		t.Fatal("R-PARTY-01: a party table of 8 is accepted")
	}
	for n, want := range map[int]int{9: 3, 10: 3, 11: 4, 13: 4, 14: 5, 16: 5, 17: 6} {
		deck := o.Deck(n)
		black := 0
		for _, r := range deck {
			if r.Team() == MafiaTeam {
				black++
			}
		}
		if black != want {
			t.Errorf("R-PARTY-01: %d players get %d mafia, want %d", n, black, want)
		}
		for _, r := range []Role{Sheriff, Advocate, Cinderella} {
			if !slices.Contains(deck, r) {
				t.Errorf("R-PARTY-01: no %s in %v", r, deck)
			}
		}
	}
}

// TestPartyGame plays a party game: the meeting night, the public right/wrong,
// Cinderella's save, accusations with defence, the Advocate's day save, the reveal,
// and the town's win.
func TestPartyGame(t *testing.T) {
	g := party9(t, nil)
	// R-PARTY-02: night 1 only the mafia meet; no kills, checks or protections.
	for _, seat := range []int{1, 4, 5, 6} {
		if opts := Legal(g.s, Actor{Player: id(seat)}); len(opts) != 1 {
			t.Fatalf("R-PARTY-02: night 1 offers seat %d %v", seat, opts)
		}
	}
	g.quietNight()
	// R-PARTY-09: up to three accusations, each accused defends, then an open vote
	// where a player may abstain.
	g.speeches(map[int]int{1: 7, 2: 8, 3: 9})
	if len(g.s.Nominations) != 3 || g.s.nominationTargets(g.s.speaker()) != nil {
		t.Fatalf("R-PARTY-09: %d accusations, and more allowed: %v", len(g.s.Nominations), g.s.nominationTargets(g.s.speaker()))
	}
	g.want(PhaseDefence)
	g.speeches(nil)
	g.vote(map[int]int{1: 7, 2: 7, 3: 7, 4: 8, 5: 0, 6: 9, 7: 8, 8: 9, 9: 0})
	g.wantDead(7)
	g.wantEvent(EvRole, 7, "") // open roles: the card is shown
	if b := lastBallots(g.s); !slices.Contains(b, Ballot{Voter: id(5)}) {
		t.Fatalf("R-PARTY-09: the abstention is not recorded: %v", b)
	}
	g.lastWords()
	// R-PARTY-07 night order: the Commissar names a suspect, Cinderella protects,
	// the mafia sentence (R-PARTY-05: her guest survives), the Advocate defends.
	g.refuse(6, Action{Type: ActProtect, Target: id(6)}, ErrBadTarget)
	g.refuse(5, Action{Type: ActDefend, Target: id(5)}, ErrBadTarget)
	g.night(map[int][]string{4: {"check:1"}, 6: {"protect:8"}, 1: {"kill:8"}, 2: {"kill:8"}, 3: {"kill:8"}, 5: {"defend:2"}})
	g.wantAlive(8)
	// R-PARTY-03: the table hears "the Commissar was right", not whom he named.
	g.wantEvent(EvCommissar, 0, "right")
	for _, e := range ViewOf(g.s, Viewer{Player: id(9)}, g.now).Events {
		if e.Type == EvChecked {
			t.Fatal("R-PARTY-03: another player sees the Commissar's target")
		}
	}
	// R-PARTY-06: the Advocate's client is sentenced and stays.
	g.speeches(map[int]int{3: 2})
	g.speeches(nil)
	g.vote(map[int]int{1: 2, 2: 0, 3: 2, 4: 2, 5: 0, 6: 2, 8: 2, 9: 2})
	g.wantAlive(2)
	g.wantEvent(EvDefended, 2, "")
	// R-PARTY-04: once right, on a later day before the first vote, the Commissar
	// reveals his card and every mafia he named leaves.
	g.night(map[int][]string{4: {"check:2"}, 1: {"kill:9"}, 2: {"kill:9"}, 3: {"kill:9"}})
	g.lastWords()
	g.want(PhaseDay)
	g.do(4, ActReveal, 0)
	g.wantDead(1, 2)
	g.wantEvent(EvRevealed, 0, "")
	g.refuse(4, Action{Type: ActReveal}, ErrNotYourRole)
	g.speeches(map[int]int{4: 3})
	g.speeches(nil)
	g.vote(map[int]int{3: 0, 4: 3, 5: 3, 6: 3, 8: 3})
	// R-PARTY-11: the town wins when no mafia is left.
	g.wantWinner(Town)
}

// TestPartyAccuseAnother: an accusation is made against another player, «против
// друг друга» (R-PARTY-09): an accuser may not accuse himself, and trying
// changes nothing.
func TestPartyAccuseAnother(t *testing.T) {
	g := party9(t, nil)
	g.quietNight()
	for _, o := range Legal(g.s, Actor{Player: id(1)}) {
		if o.Type == ActNominate && (slices.Contains(o.Targets, id(1)) || len(o.Targets) != 8) {
			t.Fatalf("R-PARTY-09: seat 1 may accuse %v", o.Targets)
		}
	}
	g.refuse(1, Action{Type: ActNominate, Target: id(1)}, ErrBadTarget)
	g.do(1, ActNominate, 7)
	g.do(1, ActEndSpeech, 0)
	g.refuse(2, Action{Type: ActNominate, Target: id(2)}, ErrBadTarget)
	if len(g.s.Nominations) != 1 {
		t.Fatalf("R-PARTY-09: accusations %v", g.s.Nominations)
	}
}

// TestPartyCinderellaOnlyFromMafia: Cinderella's guest survives the mafia's
// sentence of the same night (R-PARTY-05, text 001 «если в эту же ночь Мафия
// "приговорит" именно этого Игрока»), and only that: at a table with a Maniac
// his victim dies whoever she protects.
func TestPartyCinderellaOnlyFromMafia(t *testing.T) {
	g := newGame(t, PresetParty, 9, func(o *Options) { o.Maniac = true }, Mafia, Mafia, Mafia, Sheriff, Advocate, Cinderella, Maniac)
	g.quietNight()
	g.skipDay()
	g.night(map[int][]string{1: {"kill:8"}, 2: {"kill:8"}, 3: {"kill:8"}, 6: {"protect:8"}})
	g.wantAlive(8)
	g.skipDay()
	g.night(map[int][]string{6: {"protect:9"}, 7: {"kill:9"}})
	g.wantDead(9)
}

// TestPartyDoubleDeath: the mafia kill the Commissar on a night he was right: he and
// the mafia he named both leave (R-PARTY-08).
func TestPartyDoubleDeath(t *testing.T) {
	g := party9(t, nil)
	g.quietNight()
	g.skipDay()
	g.night(map[int][]string{4: {"check:3"}, 1: {"kill:4"}, 2: {"kill:4"}, 3: {"kill:4"}})
	g.wantDead(4, 3)
}

// TestPartyTieRepeats: a tie repeats the accusations and the vote from scratch, at
// most TieRepeats times; then nobody leaves (R-PARTY-10).
func TestPartyTieRepeats(t *testing.T) {
	g := party9(t, nil)
	g.quietNight()
	for round := 0; round <= 2; round++ {
		g.want(PhaseDay)
		g.speeches(map[int]int{1: 7, 2: 8})
		g.speeches(nil) // defence
		g.vote(map[int]int{1: 7, 2: 7, 3: 7, 4: 7, 5: 8, 6: 8, 7: 8, 8: 8, 9: 0})
	}
	g.wantEvent(EvAcquitted, 0, "tie")
	g.want(PhaseNight)
	g.wantAlive(7, 8)
}

// TestPartyLastPair: the mafia win when exactly two are left, one of each side
// (R-PARTY-11), and when no citizen is left.
func TestPartyLastPair(t *testing.T) {
	g := party9(t, nil)
	for _, seat := range []int{2, 3, 4, 5, 6, 7} {
		g.s.player(id(seat)).Alive = false
	}
	g.quietNight()
	g.speeches(map[int]int{1: 9})
	g.speeches(nil)
	g.vote(map[int]int{1: 9, 8: 0, 9: 0})
	g.wantWinner(MafiaTeam)
}

// TestPartyLight: the light version without the three characters is allowed
// (R-PARTY-12), and the eliminated have no vote.
func TestPartyLight(t *testing.T) {
	g := newGame(t, PresetParty, 9, func(o *Options) {
		o.Sheriff, o.Advocate, o.Cinderella, o.RevealAfter, o.DoubleDeath, o.Commissar = false, false, false, 0, false, "check"
	}, Mafia, Mafia, Mafia)
	g.quietNight()
	g.speeches(map[int]int{4: 1})
	g.speeches(nil)
	g.vote(map[int]int{1: 0, 2: 0, 3: 0, 4: 1, 5: 1, 6: 1, 7: 1, 8: 1, 9: 1})
	g.wantDead(1)
	g.lastWords()
	g.night(map[int][]string{2: {"kill:4"}, 3: {"kill:4"}})
	g.lastWords()
	g.speeches(map[int]int{5: 2})
	g.speeches(nil)
	g.refuse(1, Action{Type: ActVote, Target: id(2)}, ErrDead)
}

// TestPartyAdvocateKilled: the mafia sentence before the Advocate wakes (R-PARTY-07),
// so an Advocate they kill that night protects nobody the next day (R-PARTY-06).
func TestPartyAdvocateKilled(t *testing.T) {
	g := party9(t, nil)
	g.quietNight()
	g.skipDay()
	g.night(map[int][]string{1: {"kill:5"}, 2: {"kill:5"}, 3: {"kill:5"}, 5: {"defend:8"}})
	g.wantDead(5)
	if g.s.Defended != "" {
		t.Fatalf("R-PARTY-06: the dead Advocate defends %s", g.s.Defended)
	}
	g.lastWords()
	g.speeches(map[int]int{1: 8})
	g.speeches(nil)
	g.vote(map[int]int{1: 8, 2: 8, 3: 8, 4: 8, 6: 8, 7: 8, 8: 0, 9: 8})
	g.wantDead(8)
	if g.hasEvent(EvDefended, 8, "") {
		t.Fatal("R-PARTY-06: the killed Advocate's client was defended")
	}
}

// TestPartyNoLastWords: text 001 gives no last word: the sentenced player lays the
// card face up and the day ends; a night victim simply leaves (R-PARTY-09).
func TestPartyNoLastWords(t *testing.T) {
	if o, _ := Preset(PresetParty); o.LastWords != "none" {
		t.Fatalf("R-PARTY-09: last words %q", o.LastWords)
	}
	g := party9(t, nil)
	g.quietNight()
	g.speeches(map[int]int{1: 7})
	g.speeches(nil)
	g.vote(map[int]int{1: 7, 2: 7, 3: 7, 4: 7, 5: 7, 6: 7, 7: 0, 8: 7, 9: 7})
	g.wantDead(7)
	g.wantEvent(EvRole, 7, "")
	g.want(PhaseNight)
	g.night(map[int][]string{1: {"kill:8"}, 2: {"kill:8"}, 3: {"kill:8"}})
	g.wantDead(8)
	g.want(PhaseDay)
}
