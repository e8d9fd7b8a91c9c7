package rules

import (
	"errors"
	"slices"
	"testing"
	"time"
)

// TestClassicDeal: 2 mafia for 5-7 players, 3 for 8-10, about a third above; one
// Commissar; the rest citizens (R-CLASSIC-01).
func TestClassicDeal(t *testing.T) {
	o, _ := Preset(PresetClassic)
	for n, want := range map[int]int{5: 2, 6: 2, 7: 2, 8: 3, 9: 3, 10: 3, 12: 4, 15: 5} {
		deck := o.Deck(n)
		black := 0
		for _, r := range deck {
			if r.Team() == MafiaTeam {
				black++
			}
		}
		if black != want || len(deck) != n || slices.Index(deck, Sheriff) < 0 {
			t.Errorf("R-CLASSIC-01: %d players: deck %v, want %d mafia and a Commissar", n, deck, want)
		}
	}
}

// TestClassicGame plays a whole classic game: the meeting night, open roles, a day
// vote against anyone, the Commissar's check and testament, and the town's win.
func TestClassicGame(t *testing.T) {
	g := newGame(t, PresetClassic, 7, nil, Mafia, Mafia, Sheriff)
	// R-CLASSIC-02: night 1 the mafia only meet; they see each other.
	if opts := Legal(g.s, Actor{Player: id(1)}); len(opts) != 1 || opts[0].Type != ActSleep {
		t.Fatalf("R-CLASSIC-02: night 1 offers %v", opts)
	}
	if v := ViewOf(g.s, Viewer{Player: id(1)}, g.now); v.Players[1].Role != Mafia {
		t.Fatal("R-CLASSIC-02: the mafia do not learn each other")
	}
	g.quietNight()
	// R-CLASSIC-03: everyone discusses, then votes against anyone; most votes is
	// killed and the card is shown.
	g.speeches(nil)
	g.vote(map[int]int{1: 7, 2: 7, 3: 7, 4: 7, 5: 6, 6: 5, 7: 4})
	g.wantDead(7)
	g.wantEvent(EvRole, 7, "")
	if v := ViewOf(g.s, Public, g.now); v.Players[6].Role != Citizen {
		t.Fatal("R-CLASSIC-03: the card of the voted-out player is not shown")
	}
	// R-CLASSIC-06: killed by the vote, no last word.
	g.want(PhaseNight)
	// R-CLASSIC-04: the mafia agree on one victim; the Commissar checks: mafia.
	g.night(map[int][]string{1: {"kill:3"}, 2: {"kill:3"}, 3: {"check:1"}})
	// R-CLASSIC-05: the morning names the victim, and the card is shown.
	g.wantDead(3)
	g.wantEvent(EvKilled, 3, "")
	g.wantEvent(EvRole, 3, "")
	// R-CLASSIC-06: the night-killed Commissar has a last word and may name one
	// checked player.
	g.want(PhaseLastWord)
	opts := Legal(g.s, Actor{Player: id(3)})
	if i := slices.IndexFunc(opts, func(o Option) bool { return o.Type == ActTestament }); i < 0 || !slices.Equal(opts[i].Targets, []string{id(1)}) {
		t.Fatalf("R-CLASSIC-06: testament options %v", opts)
	}
	g.refuse(3, Action{Type: ActTestament, Target: id(4), Verdict: "honest"}, ErrBadTarget)
	if err := g.apply(Actor{Player: id(3)}, Action{Type: ActTestament, Target: id(1), Verdict: "mafia"}); err != nil {
		t.Fatal(err)
	}
	g.wantEvent(EvTestament, 1, "mafia")
	g.wantAlive(1) // without the Каттани variant the named player lives
	g.lastWords()
	// R-CLASSIC-09: the dead take no part in votes.
	g.speeches(nil)
	g.refuse(7, Action{Type: ActVote, Target: id(1)}, ErrDead)
	g.vote(map[int]int{1: 4, 2: 4, 4: 1, 5: 1, 6: 1})
	g.wantDead(1)
	g.night(map[int][]string{2: {"kill:4"}})
	g.speeches(nil)
	g.vote(map[int]int{2: 5, 5: 2, 6: 2})
	// R-CLASSIC-08: the town wins when every mafia is gone.
	g.wantWinner(Town)
}

// TestClassicTestamentKills: in the Каттани variant a named player who really is
// mafia dies at once, without a vote (R-CLASSIC-07).
func TestClassicTestamentKills(t *testing.T) {
	g := newGame(t, PresetClassic, 7, func(o *Options) { o.TestamentKills = true }, Mafia, Mafia, Sheriff)
	g.quietNight()
	g.speeches(nil)
	g.vote(map[int]int{1: 7, 2: 7, 3: 7, 4: 7, 5: 7, 6: 7, 7: 6})
	g.night(map[int][]string{1: {"kill:3"}, 2: {"kill:3"}, 3: {"check:2"}})
	if err := g.apply(Actor{Player: id(3)}, Action{Type: ActTestament, Target: id(2), Verdict: "mafia"}); err != nil {
		t.Fatal(err)
	}
	g.wantDead(2)
	g.wantEvent(EvEliminated, 2, "testament")
}

// TestClassicElimination: under elimination the mafia must remove every other
// player; parity does not end the game (R-CLASSIC-08). Parity is the other setting.
func TestClassicElimination(t *testing.T) {
	for _, win := range []Win{WinElimination, WinParity} {
		t.Run(string(win), func(t *testing.T) {
			g := newGame(t, PresetClassic, 5, func(o *Options) { o.Win = win }, Mafia, Mafia, Sheriff)
			g.quietNight()
			g.speeches(nil)
			g.vote(map[int]int{1: 5, 2: 5, 3: 5, 4: 5, 5: 4}) // 2 black, 2 red left
			if win == "parity" {
				g.wantWinner(MafiaTeam)
				return
			}
			g.want(PhaseNight)
			g.night(map[int][]string{1: {"kill:3"}, 2: {"kill:3"}})
			g.lastWords()
			g.speeches(nil)
			g.vote(map[int]int{1: 4, 2: 4, 4: 1})
			g.wantWinner(MafiaTeam)
		})
	}
}

// TestClassicHalfVote: when the day vote has split evenly between two players,
// the player killed last night casts the deciding half vote (R-CLASSIC-10, text
// 000): after the split is known, between the two. It is off by default; only an
// honest victim has it; without it the tie goes on as ties do.
func TestClassicHalfVote(t *testing.T) {
	if o, _ := Preset(PresetClassic); o.HalfVote {
		t.Fatal("R-CLASSIC-10: the half vote is on by default")
	}
	g := newGame(t, PresetClassic, 8, func(o *Options) { o.HalfVote = true }, Mafia, Mafia, Mafia, Sheriff)
	g.quietNight()
	g.speeches(nil)
	g.vote(map[int]int{1: 8, 2: 8, 3: 8, 4: 8, 5: 8, 6: 8, 7: 8, 8: 7})
	g.night(map[int][]string{1: {"kill:5"}, 2: {"kill:5"}, 3: {"kill:5"}})
	g.speeches(nil)
	// The victim has no vote in the day's vote itself.
	g.refuse(5, Action{Type: ActVote, Target: id(1)}, ErrDead)
	g.vote(map[int]int{1: 6, 2: 6, 3: 6, 4: 1, 6: 1, 7: 1})
	// 3-3 between seats 1 and 6: now the half vote, between those two only.
	g.want(PhaseVote)
	if g.s.Phase.Reason != ReasonHalf || !slices.Equal(g.s.Phase.Candidates, []string{id(1), id(6)}) {
		t.Fatalf("R-CLASSIC-10: the half vote's step %+v", g.s.Phase)
	}
	g.wantEvent(EvTie, 1, "half_vote")
	if v := ViewOf(g.s, Public, g.now); v.Phase.Pending != 1 {
		t.Fatalf("R-CLASSIC-10: waiting for %d", v.Phase.Pending)
	}
	for _, seat := range []int{1, 4, 6} {
		if opts := Legal(g.s, Actor{Player: id(seat)}); len(opts) != 0 {
			t.Fatalf("R-CLASSIC-10: seat %d may %v during the half vote", seat, opts)
		}
	}
	g.refuse(5, Action{Type: ActVote, Target: id(7)}, ErrBadTarget)
	g.do(5, ActVote, 1)
	g.wantDead(1)
	g.wantAlive(6)
	if b := lastBallots(g.s); !slices.Equal(b, []Ballot{{Voter: id(5), Target: id(1), Half: true}}) {
		t.Fatalf("R-CLASSIC-10: the half vote's ballots %v", b)
	}
	// No victim last night: the next even split has no half vote.
	g.night(nil)
	g.speeches(nil)
	g.vote(map[int]int{2: 6, 3: 6, 4: 2, 6: 2, 7: 0})
	if g.s.Phase.Reason == ReasonHalf {
		t.Fatal("R-CLASSIC-10: a half vote with no victim last night")
	}

	t.Run("not cast", func(t *testing.T) {
		g := newGame(t, PresetClassic, 8, func(o *Options) { o.HalfVote = true }, Mafia, Mafia, Mafia, Sheriff)
		g.quietNight()
		g.speeches(nil)
		g.vote(map[int]int{1: 8, 2: 8, 3: 8, 4: 8, 5: 8, 6: 8, 7: 8, 8: 7})
		g.night(map[int][]string{1: {"kill:5"}, 2: {"kill:5"}, 3: {"kill:5"}})
		g.speeches(nil)
		g.vote(map[int]int{1: 6, 2: 6, 3: 6, 4: 1, 6: 1, 7: 1})
		g.tick(31 * time.Second) // the victim does not vote: the tie is a tie
		g.want(PhaseVote)
		if g.s.Phase.Reason != ReasonNone || g.s.Repeats != 1 {
			t.Fatalf("R-CLASSIC-10: after an unused half vote %+v, repeats %d", g.s.Phase, g.s.Repeats)
		}
	})
	t.Run("a black victim has none", func(t *testing.T) {
		g := newGame(t, PresetClassic, 8, func(o *Options) { o.HalfVote = true }, Mafia, Mafia, Mafia, Sheriff)
		g.quietNight()
		g.speeches(nil)
		g.vote(map[int]int{1: 8, 2: 8, 3: 8, 4: 8, 5: 8, 6: 8, 7: 8, 8: 7})
		g.night(map[int][]string{1: {"kill:3"}, 2: {"kill:3"}, 3: {"kill:5"}})
		g.wantDead(3)
		g.speeches(nil)
		g.vote(map[int]int{1: 6, 2: 6, 4: 1, 5: 1, 6: 0, 7: 0})
		if g.s.Phase.Reason == ReasonHalf || g.s.HalfVoter != "" {
			t.Fatal("R-CLASSIC-10: a mafia victim casts the half vote")
		}
	})
}

// TestClassicDoctor: the Doctor heals one player a night, mafia included; the
// morning says the mafia tried but the doctor healed, and may name whom he treated
// (R-CLASSIC-11).
func TestClassicDoctor(t *testing.T) {
	g := newGame(t, PresetClassic, 7, func(o *Options) { o.Doctor, o.DoctorNamesPatient = true, true }, Mafia, Mafia, Sheriff, Doctor)
	g.quietNight()
	g.speeches(nil)
	g.vote(map[int]int{1: 7, 2: 7, 3: 7, 4: 7, 5: 7, 6: 7, 7: 6})
	g.night(map[int][]string{1: {"kill:5"}, 2: {"kill:5"}, 4: {"heal:5"}})
	g.wantAlive(5)
	g.wantEvent(EvHealed, 5, "")
	g.speeches(nil)
	g.vote(map[int]int{1: 6, 2: 6, 3: 6, 4: 6, 5: 6, 6: 5})
	g.night(map[int][]string{1: {"kill:5"}, 2: {"kill:5"}, 4: {"heal:1"}})
	g.wantDead(5)
	g.wantEvent(EvTreated, 1, "") // "…who was healthy anyway"
}

// TestClassicLover: the Lover's guest survives the mafia (R-CLASSIC-11).
func TestClassicLover(t *testing.T) {
	g := newGame(t, PresetClassic, 7, func(o *Options) { o.Lover = true }, Mafia, Mafia, Sheriff, Lover)
	g.quietNight()
	g.speeches(nil)
	g.vote(map[int]int{1: 7, 2: 7, 3: 7, 4: 7, 5: 7, 6: 7, 7: 6})
	g.night(map[int][]string{1: {"kill:5"}, 2: {"kill:5"}, 4: {"protect:5"}})
	g.wantAlive(5)
	g.wantEvent(EvMissed, 0, "")
}

// TestClassicShootingCommissar: instead of checking, he shoots; a citizen hit is
// "the Commissar missed", a mafia hit dies (R-CLASSIC-11).
func TestClassicShootingCommissar(t *testing.T) {
	g := newGame(t, PresetClassic, 8, func(o *Options) { o.Commissar = CommissarShoot; o.Testament = false }, Mafia, Mafia, Mafia, Sheriff)
	g.quietNight()
	g.speeches(nil)
	g.vote(map[int]int{1: 8, 2: 8, 3: 8, 4: 8, 5: 8, 6: 8, 7: 8, 8: 7})
	g.refuse(4, Action{Type: ActCheck, Target: id(1)}, ErrNotYourRole)
	g.night(map[int][]string{4: {"shoot:5"}})
	g.wantAlive(5)
	g.wantEvent(EvSheriffMissed, 0, "")
	g.speeches(nil)
	g.vote(map[int]int{1: 7, 2: 7, 3: 7, 4: 7, 5: 7, 6: 7, 7: 6})
	g.night(map[int][]string{4: {"shoot:2"}})
	g.wantDead(2)
}

// healedSeen lists the targets of the healed events viewer sees ("" for a save
// told without a name).
func healedSeen(g *game, v Viewer) []string {
	var out []string
	for _, e := range ViewOf(g.s, v, g.now).Events {
		if e.Type == EvHealed {
			out = append(out, e.Target)
		}
	}
	return out
}

// TestClassicDoctorHealsEveryDeath: the Doctor «может спасти от гибели и мафию»
// (R-CLASSIC-11, text 000): his patient survives every death of the night, the
// shooting Commissar's shot included. Without a named patient the table hears of
// a save from the mafia, nameless, and of a save from the Commissar's shot not at
// all; the moderator hears whom.
func TestClassicDoctorHealsEveryDeath(t *testing.T) {
	g := newGame(t, PresetClassic, 8, func(o *Options) { o.Doctor, o.Commissar, o.Testament = true, CommissarShoot, false },
		Mafia, Mafia, Mafia, Sheriff, Doctor)
	g.quietNight()
	g.speeches(nil)
	g.vote(map[int]int{1: 8, 2: 8, 3: 8, 4: 8, 5: 8, 6: 8, 7: 8, 8: 7})
	// The Commissar hits mafia seat 2, whom the Doctor heals; the mafia kill seat 6.
	g.night(map[int][]string{1: {"kill:6"}, 2: {"kill:6"}, 3: {"kill:6"}, 4: {"shoot:2"}, 5: {"heal:2"}})
	g.wantAlive(2)
	g.wantDead(6)
	for _, v := range []Viewer{Public, {Player: id(7)}, {Player: id(1)}} {
		if got := healedSeen(g, v); len(got) != 0 {
			t.Fatalf("R-CLASSIC-11: %+v hears of a save from the Commissar's shot: %v", v, got)
		}
	}
	g.s.Moderator = ModeratorHost
	if got := healedSeen(g, Viewer{Host: true}); !slices.Equal(got, []string{id(2)}) {
		t.Fatalf("R-CLASSIC-11: the moderator hears of the saves %v", got)
	}
	g.s.Moderator = ModeratorApp
	g.speeches(nil)
	g.vote(map[int]int{1: 7, 2: 7, 3: 7, 4: 7, 5: 7, 7: 1})
	// The mafia go for seat 4, whom the Doctor heals: the table hears it, nameless.
	g.night(map[int][]string{1: {"kill:4"}, 2: {"kill:4"}, 3: {"kill:4"}, 5: {"heal:4"}})
	g.wantAlive(4)
	if got := healedSeen(g, Public); !slices.Equal(got, []string{""}) {
		t.Fatalf("R-CLASSIC-11: the table hears of the saves %v", got)
	}
}

// TestClassicLoverSheltersFromEveryDeath: the Lover's guest cannot be killed that
// night (R-CLASSIC-11, text 000 «может спасти одного из игроков, проведя с ним
// ночь»): neither by the mafia nor by the shooting Commissar.
func TestClassicLoverSheltersFromEveryDeath(t *testing.T) {
	g := newGame(t, PresetClassic, 8, func(o *Options) { o.Lover, o.Commissar, o.Testament = true, CommissarShoot, false },
		Mafia, Mafia, Mafia, Sheriff, Lover)
	g.quietNight()
	g.speeches(nil)
	g.vote(map[int]int{1: 8, 2: 8, 3: 8, 4: 8, 5: 8, 6: 8, 7: 8, 8: 7})
	g.night(map[int][]string{4: {"shoot:2"}, 5: {"protect:2"}})
	g.wantAlive(2)
	g.wantEvent(EvMissed, 0, "")
}

// TestFirstNightChecks: every preset keeps the first night a meeting with no
// checks (R-CLASSIC-02, R-SPORT-02: text 002 rule 15). The opening of text 000
// has the Commissar and the Don check on it («Комиссар может получить у Ведущего
// информацию…», «Дон может получить…»): with firstNightChecks they do, in its
// one wake, and still nobody is killed or protected.
func TestFirstNightChecks(t *testing.T) {
	for _, p := range Presets {
		if o, _ := Preset(p); o.FirstNightChecks {
			t.Errorf("R-CLASSIC-02: %s checks on the first night", p)
		}
	}
	g := newGame(t, PresetCustom, 10, func(o *Options) { o.FirstNightChecks, o.Doctor = true, true }, Don, Mafia, Mafia, Sheriff, Doctor)
	for seat, want := range map[int][]ActionType{1: {ActCheck, ActSleep}, 2: {ActSleep}, 4: {ActCheck, ActSleep}, 5: {ActSleep}, 7: {ActSleep}} {
		var got []ActionType
		for _, o := range Legal(g.s, Actor{Player: id(seat)}) {
			got = append(got, o.Type)
		}
		if !slices.Equal(got, want) {
			t.Errorf("R-CLASSIC-02: on the first night seat %d may %v, want %v", seat, got, want)
		}
	}
	g.wake(map[int]string{1: "check:4", 4: "check:2"})
	g.want(PhaseDay)
	if c := g.s.player(id(1)).Checks; len(c) != 1 || !c[0].Yes || c[0].Kind != CheckSheriff {
		t.Errorf("R-CLASSIC-02: the Don's first-night check %+v", c)
	}
	if c := g.s.player(id(4)).Checks; len(c) != 1 || !c[0].Yes || c[0].Kind != CheckBlack {
		t.Errorf("R-CLASSIC-02: the Commissar's first-night check %+v", c)
	}
	if g.hasEvent(EvMissed, 0, "") || g.hasEvent(EvKilled, 0, "") {
		t.Error("R-CLASSIC-02: the meeting night with checks is told as a night of kills")
	}
}

// TestClassicNamesNoFouls: the classic rules count no fouls (R-CLASSIC-01 has
// no warnings; the fouls are R-SPORT-16's), so the host's removal names none,
// and one that names a foul is refused.
func TestClassicNamesNoFouls(t *testing.T) {
	g := newGame(t, PresetClassic, 7, nil, Mafia, Mafia, Sheriff)
	g.quietNight()
	for _, o := range Legal(g.s, Actor{Host: true}) {
		if o.Type == ActWarn || len(o.Fouls) > 0 {
			t.Fatalf("R-SPORT-16: classic offers %s with fouls %v", o.Type, o.Fouls)
		}
	}
	if err := g.apply(Actor{Host: true}, Action{Type: ActRemove, Target: id(5), Foul: FoulPeeking}); !errors.Is(err, ErrBadField) {
		t.Fatalf("R-SPORT-16: a classic removal naming a foul: %v", err)
	}
	g.host(Action{Type: ActRemove, Target: id(5)})
	g.wantDead(5)
}
