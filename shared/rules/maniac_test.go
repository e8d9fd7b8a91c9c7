package rules

import (
	"errors"
	"slices"
	"testing"
	"time"
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
// (R-MANIAC-01); the moderator decides the Maniac's side, and the deal announces it.
func TestManiacDeal(t *testing.T) {
	g := maniac10(t, func(o *Options) { o.ManiacSide = "mafia" })
	g.wantEvent(EvManiacSide, 0, "mafia")
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
	for g.s.Phase.Reason != ReasonExtra {
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
	g.vote(map[int]int{1: 7, 2: 7, 3: 7, 4: 8, 5: 8, 6: 8, 7: 9, 8: 9, 9: 9, 10: 1})
	g.wantEvent(EvAcquitted, 0, "tie")
	g.quietNight()
	g.speeches(nil)
	g.vote(map[int]int{1: 7, 2: 7, 3: 7, 4: 8, 5: 8, 6: 8, 7: 9, 8: 10, 9: 1, 10: 2})
	g.want(PhaseDefence)
	if !slices.Equal(g.s.Phase.Queue, []string{id(7), id(8)}) {
		t.Fatalf("R-MANIAC-10: justifications %v", g.s.Phase.Queue)
	}
	g.speeches(nil)
	g.vote(map[int]int{1: 7, 2: 7, 3: 7, 4: 7, 5: 8, 6: 8, 7: 8, 8: 7, 9: 7, 10: 8})
	g.wantDead(7)
}

// TestManiacWins: a Maniac on the mafia's side makes the town play on after the
// last mafia member leaves, and counts with the mafia; text 004 is silent on a
// Maniac who plays alone, and both readings are played: by default he is a side
// of his own, the town must remove him too, and he wins as one of the last two;
// read as the town's, the town wins with him once no black player is left
// (R-MANIAC-11).
func TestManiacWins(t *testing.T) {
	if o, _ := Preset(PresetManiac); o.ManiacSide != "alone" || o.LoneManiac != "last_two" {
		t.Fatalf("R-MANIAC-11: the default is %s, %s", o.ManiacSide, o.LoneManiac)
	}
	t.Run("alone", func(t *testing.T) {
		g := maniac10(t, nil)
		for _, seat := range []int{1, 2, 3, 4, 5, 7, 8} {
			g.s.player(id(seat)).Alive = false
		}
		g.night(map[int][]string{6: {"kill:9"}})
		g.wantWinner(Loner)
	})
	for reading, want := range map[LoneManiac]Team{LoneLastTwo: "", LoneTown: Town} {
		t.Run("the last black voted out, read "+string(reading), func(t *testing.T) {
			g := maniac10(t, func(o *Options) { o.LoneManiac = reading })
			for _, seat := range []int{1, 2, 5, 7} {
				g.s.player(id(seat)).Alive = false
			}
			// Mafia 3, Sheriff 4, Maniac 6, citizens 8, 9, 10: the town votes out the
			// last black player.
			g.quietNight()
			g.speeches(nil)
			g.vote(map[int]int{3: 4, 4: 3, 6: 3, 8: 3, 9: 3, 10: 3})
			g.speeches(nil)
			g.voteAll(4, 6, 8, 9, 10)
			g.wantDead(3)
			if want == "" {
				g.want(PhaseNight) // the town must still remove the Maniac
				return
			}
			g.wantWinner(want)
		})
	}
	t.Run("the last two, read town", func(t *testing.T) {
		g := maniac10(t, func(o *Options) { o.LoneManiac = "town" })
		for _, seat := range []int{2, 3, 4, 5, 7, 8} {
			g.s.player(id(seat)).Alive = false
		}
		// Don 1, Maniac 6, citizens 9 and 10: the Maniac kills the Don, the Don a
		// citizen: one citizen and the Maniac are left, and they have won.
		g.night(map[int][]string{1: {"kill:9"}, 6: {"kill:1"}})
		g.wantWinner(Town)
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

// TestManiacDonGoneUnanimous: with the Don gone every living black player must
// shoot the same seat, or it is a miss (R-MANIAC-03); a majority no longer kills.
func TestManiacDonGoneUnanimous(t *testing.T) {
	g := maniac10(t, nil)
	g.night(nil)
	g.speeches(nil)
	g.vote(map[int]int{1: 2, 2: 1, 3: 1, 4: 1, 5: 1, 6: 1, 7: 1, 8: 1, 9: 1, 10: 1})
	g.speeches(nil)
	g.voteAll(2, 3, 4, 5, 6, 7, 8, 9, 10)
	g.wantDead(1)
	// Seat 2 shoots, seat 3 does not: a miss.
	g.night(map[int][]string{2: {"kill:9"}})
	g.wantAlive(9)
	g.wantEvent(EvMissed, 0, "")
	g.speeches(nil)
	g.vote(map[int]int{2: 7, 3: 7, 4: 7, 5: 8, 6: 8, 7: 8, 8: 10, 9: 10, 10: 10}) // three tied: all stay
	// Different seats: a miss. The same seat: a kill.
	g.night(map[int][]string{2: {"kill:9"}, 3: {"kill:10"}})
	g.wantAlive(9, 10)
	g.speeches(nil)
	g.vote(map[int]int{2: 7, 3: 7, 4: 7, 5: 8, 6: 8, 7: 8, 8: 10, 9: 10, 10: 10})
	g.night(map[int][]string{2: {"kill:9"}, 3: {"kill:9"}})
	g.wantDead(9)
}

// TestManiacMafiaTime: the mafia have 30 s from nightfall to agree (R-MANIAC-03,
// text 004 «în termen de 30 de secunde»): the Don's choice made later is "the
// mafia missed"; with the Don gone every shot must come within the 30 s. The time
// is the state's: a pause moves it, and the black players' view says when it ends.
func TestManiacMafiaTime(t *testing.T) {
	o, _ := Preset(PresetManiac)
	if o.MafiaTime != 30 {
		t.Fatalf("R-MANIAC-03: the mafia have %d s", o.MafiaTime)
	}
	g := maniac10(t, nil)
	v := ViewOf(g.s, Viewer{Player: id(2)}, g.now)
	if v.You.ShootBy == nil || !v.You.ShootBy.Equal(g.now.Add(30*time.Second)) {
		t.Fatalf("R-MANIAC-03: the mafia's time ends at %v, night fell at %v", v.You.ShootBy, g.now)
	}
	if v := ViewOf(g.s, Viewer{Player: id(7)}, g.now); v.You.ShootBy != nil {
		t.Fatal("a citizen is told the mafia's time")
	}
	// The Don shoots after 31 s: a miss, though his shot stands in the moderator's list.
	g.tick(31 * time.Second)
	g.do(1, ActKill, 9)
	if !slices.Equal(g.s.LateShots, []string{id(1)}) {
		t.Fatalf("R-MANIAC-03: late shots %v", g.s.LateShots)
	}
	g.sleepNight()
	g.wantAlive(9)
	g.wantEvent(EvMissed, 0, "")
	g.speeches(nil)
	g.vote(map[int]int{1: 7, 2: 7, 3: 7, 4: 8, 5: 8, 6: 8, 7: 10, 8: 10, 9: 10, 10: 9})
	// A pause stops the mafia's clock with the night's: 20 s, a pause of a minute,
	// 9 s more, and the Don is still in time.
	g.tick(20 * time.Second)
	g.host(Action{Type: ActPause})
	g.tick(time.Minute)
	g.host(Action{Type: ActResume})
	g.tick(9 * time.Second)
	g.do(1, ActKill, 9)
	g.sleepNight()
	g.wantDead(9)
	g.lastWords()
	g.speeches(nil)
	g.vote(map[int]int{1: 2, 2: 1, 3: 1, 4: 1, 5: 1, 6: 1, 7: 1, 8: 1, 10: 1})
	g.speeches(nil)
	g.voteAll(2, 3, 4, 5, 6, 7, 8, 10)
	g.wantDead(1)
	// The Don is gone: seat 2 shoots in time, seat 3 at 40 s: a miss.
	g.do(2, ActKill, 10)
	g.tick(40 * time.Second)
	g.do(3, ActKill, 10)
	g.sleepNight()
	g.wantAlive(10)
	g.want(PhaseDay)
	g.wantEvent(EvMissed, 0, "")
}

// TestManiacSpeakerRaisesHand: a speaker who runs out of time raises a hand
// during their own speech and speaks 30 s more after the round; a hand raised
// after the round does not count (R-MANIAC-09).
func TestManiacSpeakerRaisesHand(t *testing.T) {
	g := maniac10(t, nil)
	g.quietNight()
	g.want(PhaseDay)
	g.do(1, ActRaiseHand, 0) // seat 1, speaking
	g.refuse(1, Action{Type: ActRaiseHand}, ErrAlreadyActed)
	g.do(1, ActEndSpeech, 0)
	g.do(3, ActRaiseHand, 0) // seat 3, before their own speech
	for g.s.Phase.Reason != ReasonExtra {
		g.do(g.s.player(g.s.speaker()).Seat, ActEndSpeech, 0)
	}
	if !slices.Equal(g.s.Phase.Queue, []string{id(1), id(3)}) || g.s.Phase.EndsAt.Sub(g.now) != 30*time.Second {
		t.Fatalf("R-MANIAC-09: further speeches %v ending in %v", g.s.Phase.Queue, g.s.Phase.EndsAt.Sub(g.now))
	}
	// After the round: a hand raised now does not count.
	g.refuse(5, Action{Type: ActRaiseHand}, ErrWrongPhase)
	g.refuse(1, Action{Type: ActRaiseHand}, ErrWrongPhase)
	g.speeches(nil)
	g.want(PhaseVote)
	g.refuse(7, Action{Type: ActRaiseHand}, ErrWrongPhase)
}

// TestManiacCompulsoryVote: voting is compulsory (R-MANIAC-10): there is no
// abstaining; when the time is up with votes missing the table hears who has not
// voted and the vote is held open once more; then it is counted without them, so
// the day always ends. A human moderator's "advance" does the same.
func TestManiacCompulsoryVote(t *testing.T) {
	g := maniac10(t, nil)
	g.quietNight()
	g.speeches(nil)
	g.want(PhaseVote)
	for _, o := range Legal(g.s, Actor{Player: id(7)}) {
		if o.Type == ActVote && o.Abstain {
			t.Fatal("R-MANIAC-10: an abstention is offered")
		}
	}
	g.refuse(7, Action{Type: ActVote}, ErrBadTarget)
	for _, seat := range []int{1, 2, 3, 4, 5, 6, 7, 8} {
		g.do(seat, ActVote, 9)
	}
	g.tick(30 * time.Second)
	g.want(PhaseVote)
	g.wantEvent(EvNotVoted, 9, "wait")
	g.wantEvent(EvNotVoted, 10, "wait")
	if !g.s.Phase.Extended || g.s.Phase.EndsAt.Sub(g.now) != 30*time.Second {
		t.Fatalf("R-MANIAC-10: the vote is not held open: %+v", g.s.Phase)
	}
	g.do(9, ActVote, 1)
	g.tick(30 * time.Second)
	g.wantEvent(EvNotVoted, 10, "lost")
	if g.hasEvent(EvNotVoted, 9, "lost") {
		t.Fatal("R-MANIAC-10: a late voter is named as lost")
	}
	if b := lastBallots(g.s); len(b) != 9 {
		t.Fatalf("R-MANIAC-10: counted %v", b)
	}
	g.want(PhaseDefence) // seat 9 justifies

	t.Run("moderator", func(t *testing.T) {
		g := maniac10(t, nil)
		g.s.Moderator = ModeratorHost
		g.quietNight()
		g.speeches(nil)
		g.host(Action{Type: ActAdvance})
		g.want(PhaseVote)
		g.wantEvent(EvNotVoted, 1, "wait")
		g.host(Action{Type: ActAdvance})
		g.wantEvent(EvAcquitted, 0, "no_votes")
	})
}

// TestManiacJustifyOnce: a justification is once per game (R-MANIAC-10): a player
// who has justified and then ties with another for most votes does not speak
// again, and the new vote between the two follows.
func TestManiacJustifyOnce(t *testing.T) {
	g := maniac10(t, nil)
	g.quietNight()
	g.speeches(nil)
	g.vote(map[int]int{1: 7, 2: 7, 3: 7, 4: 8, 5: 9, 6: 10, 7: 1, 8: 2, 9: 3, 10: 4})
	g.want(PhaseDefence)
	g.speeches(nil)
	g.voteAll() // nobody: 0 < 3, seat 7 stays
	g.wantAlive(7)
	g.quietNight()
	g.speeches(nil)
	g.vote(map[int]int{1: 7, 2: 7, 3: 7, 4: 8, 5: 8, 6: 8, 7: 9, 8: 10, 9: 1, 10: 2})
	g.want(PhaseDefence)
	if !slices.Equal(g.s.Phase.Queue, []string{id(8)}) || !slices.Equal(g.s.Phase.Candidates, []string{id(7), id(8)}) {
		t.Fatalf("R-MANIAC-10: justifications %v for the tie of %v", g.s.Phase.Queue, g.s.Phase.Candidates)
	}
	g.speeches(nil)
	g.want(PhaseVote)
	g.vote(map[int]int{1: 7, 2: 7, 3: 7, 4: 7, 5: 8, 6: 8, 7: 8, 8: 7, 9: 7, 10: 8})
	g.wantDead(7)
}

// TestManiacSaveNotTold: the morning names only who did not wake up («Astăzi
// numărul … nu sa trezit», R-MANIAC-07, R-MANIAC-08): neither the shared screen
// nor any player hears of the Doctor's save, so nobody learns whom the mafia or
// the Maniac went for; the moderator does. Where the rules name the patient
// (doctorNamesPatient), everyone hears whom.
func TestManiacSaveNotTold(t *testing.T) {
	for _, named := range []bool{false, true} {
		g := maniac10(t, func(o *Options) { o.DoctorNamesPatient = named })
		g.wake(map[int]string{1: "kill:7", 2: "kill:7", 3: "kill:7", 6: "kill:8"})
		g.wake(map[int]string{5: "heal:7"})
		g.wantAlive(7)
		g.wantDead(8)
		want := []string(nil)
		if named {
			want = []string{id(7)}
		}
		for _, v := range []Viewer{Public, {Host: true}, {Player: id(7)}, {Player: id(9)}, {Player: id(2)}, {Player: id(6)}} {
			if got := healedSeen(g, v); !slices.Equal(got, want) {
				t.Errorf("R-MANIAC-07: named %v: %+v hears of the saves %v", named, v, got)
			}
		}
		g.s.Moderator = ModeratorHost
		if got := healedSeen(g, Viewer{Host: true}); !slices.Equal(got, []string{id(7)}) {
			t.Errorf("R-MANIAC-07: named %v: the moderator hears of the saves %v", named, got)
		}
	}
}

// TestManiacJustifiedLeavesOnTie: read literally, text 004's «justificarea poate
// fi utilizată o singură dată… Dacă următoarea dată jucătorul recuperează
// maximum de voturi, el părăsește automat masa» sends a player who has justified
// once away as soon as he has the most votes again, in a tie too (R-MANIAC-10,
// justifiedLeaves); the one tied with him stays. The maniac rules keep the
// reading in which a tie goes where ties go (TestManiacJustifyOnce).
func TestManiacJustifiedLeavesOnTie(t *testing.T) {
	if o, _ := Preset(PresetManiac); o.JustifiedLeaves {
		t.Fatal("R-MANIAC-10: the maniac rules read the justification literally")
	}
	for name, votes := range map[string]map[int]int{
		"two tied":   {1: 7, 2: 7, 3: 7, 4: 8, 5: 8, 6: 8, 7: 9, 8: 10, 9: 1, 10: 2},
		"three tied": {1: 7, 2: 7, 3: 8, 4: 8, 5: 9, 6: 9, 7: 10, 8: 1, 9: 2, 10: 3},
	} {
		t.Run(name, func(t *testing.T) {
			g := maniac10(t, func(o *Options) { o.JustifiedLeaves = true })
			g.quietNight()
			g.speeches(nil)
			g.vote(map[int]int{1: 7, 2: 7, 3: 7, 4: 8, 5: 9, 6: 10, 7: 1, 8: 2, 9: 3, 10: 4})
			g.want(PhaseDefence) // seat 7 justifies
			g.speeches(nil)
			g.voteAll() // and stays
			g.wantAlive(7)
			g.quietNight()
			g.speeches(nil)
			g.vote(votes)
			g.wantDead(7)
			g.wantAlive(8, 9)
			g.wantEvent(EvEliminated, 7, "vote")
		})
	}
}

// TestManiacLoneManiacApart: the mafia win when the peaceful and the black are
// as many (R-MANIAC-11). A Maniac playing alone counts with the peaceful under
// both loneManiac readings; read literally («locuitorii pașnici și negri»,
// loneManiacApart), he is neither, and two black against two peaceful and him
// have won.
func TestManiacLoneManiacApart(t *testing.T) {
	for _, reading := range []LoneManiac{LoneLastTwo, LoneTown} {
		for _, apart := range []bool{false, true} {
			g := maniac10(t, func(o *Options) { o.LoneManiac, o.LoneManiacApart = reading, apart })
			for _, seat := range []int{3, 5, 7, 8} {
				g.s.player(id(seat)).Alive = false
			}
			// Don 1, mafia 2, Sheriff 4, Maniac 6, citizens 9, 10: the mafia kill 9.
			g.night(map[int][]string{1: {"kill:9"}, 2: {"kill:9"}})
			if !apart {
				g.want(PhaseLastWord)
				continue
			}
			g.wantWinner(MafiaTeam)
		}
	}
	// Nor can a table be dealt that the mafia have won at the deal: two black,
	// two citizens and a Maniac playing alone, counted with neither.
	o, _ := Preset(PresetCustom)
	o.MinPlayers, o.MaxPlayers, o.Don, o.DonChecks, o.Sheriff, o.Maniac, o.LoneManiacApart = 5, 5, false, false, false, true, true
	if err := o.ValidateTable(5); !errors.Is(err, ErrInvalidTable) {
		t.Errorf("R-MANIAC-11: a table won at the deal: %v", err)
	}
}
