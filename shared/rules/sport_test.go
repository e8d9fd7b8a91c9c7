package rules

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

// TestSportGame plays a whole sport game, deal to winner: introduction night, a day-1
// single nominee, unanimous and split shots, both checks, last words, a car crash
// with a revote, non-voters' votes for the last nominee, and the mafia's parity win.
func TestSportGame(t *testing.T) {
	g := sport10(t)

	// R-SPORT-02: night 1 is the introduction: no kill, no check, just sleep.
	g.want(PhaseNight)
	for _, o := range Legal(g.s, Actor{Player: id(1)}) {
		if o.Type != ActSleep {
			t.Fatalf("R-SPORT-02: night 1 offers the Don %q", o.Type)
		}
	}
	g.refuse(1, Action{Type: ActKill, Target: id(5)}, ErrNotYourRole)
	g.quietNight()
	if g.hasEvent(EvMissed, 0, "") {
		t.Error("R-SPORT-02: the introduction night is not announced as a miss")
	}

	// Day 1 (R-SPORT-03): monologues from seat 1; one nominee on day 1 stays (R-SPORT-06).
	g.want(PhaseDay)
	if g.s.speaker() != id(1) {
		t.Fatalf("R-SPORT-03: day 1 starts at %s", g.s.speaker())
	}
	g.speeches(map[int]int{2: 7})
	g.wantEvent(EvAcquitted, 0, "single_nominee")

	// Night 2: the black team agree on seat 5 (R-SPORT-10); the Don checks seat 4 and
	// learns he is the Sheriff (R-SPORT-11); the Sheriff checks the Don: black (R-SPORT-12).
	g.night(map[int][]string{1: {"kill:5", "check:4"}, 2: {"kill:5"}, 3: {"kill:5"}, 4: {"check:1"}})
	g.wantDead(5)
	if c := g.s.player(id(1)).Checks; len(c) != 1 || !c[0].Yes || c[0].Kind != "sheriff" {
		t.Errorf("R-SPORT-11: the Don's check = %+v", c)
	}
	if c := g.s.player(id(4)).Checks; len(c) != 1 || !c[0].Yes || c[0].Kind != "black" {
		t.Errorf("R-SPORT-12: the Sheriff's check of the Don = %+v", c)
	}
	// R-SPORT-13, R-SPORT-09: the morning names the victim, who has a last word.
	g.wantEvent(EvKilled, 5, "")
	g.want(PhaseLastWord)
	if g.s.speaker() != id(5) {
		t.Fatalf("R-SPORT-09: last word by %s", g.s.speaker())
	}
	g.lastWords()

	// Day 2 starts at the next living seat after day 1's first speaker (R-SPORT-03).
	if g.s.speaker() != id(2) {
		t.Fatalf("R-SPORT-03: day 2 starts at %s, want p2", g.s.speaker())
	}
	// Nominations: 4 puts up 1, 6 puts up 2, 8 puts up 10. Car crash (R-SPORT-07):
	// 4 votes each for seats 1 and 2.
	g.speeches(map[int]int{4: 1, 6: 2, 8: 10})
	g.want(PhaseVote)
	g.vote(map[int]int{1: 2, 2: 1, 3: 1, 4: 1, 6: 1, 7: 2, 8: 2, 9: 2})
	// Seat 10 does not vote: the vote goes to the last nominee, seat 10 (R-SPORT-05).
	g.tick(31e9)
	if b := lastBallots(g.s); !slices.Contains(b, Ballot{Voter: id(10), Target: id(10), Missing: true}) {
		t.Fatalf("R-SPORT-05: the non-voter's ballot %v", b)
	}
	g.want(PhaseDefence)
	if !slices.Equal(g.s.Phase.Queue, []string{id(1), id(2)}) {
		t.Fatalf("R-SPORT-07: defence queue %v", g.s.Phase.Queue)
	}
	g.speeches(nil)
	// The revote among the tied: a single leader leaves.
	g.vote(map[int]int{1: 2, 2: 2, 3: 2, 4: 1, 6: 1, 7: 1, 8: 1, 9: 1, 10: 1})
	g.wantDead(1)
	// R-SPORT-15: closed roles: the Don's card stays hidden.
	if v := ViewOf(g.s, Viewer{Player: id(7)}, g.now); v.Players[0].Role != "" {
		t.Fatalf("R-SPORT-15: a citizen sees the eliminated Don's role %q", v.Players[0].Role)
	}
	g.lastWords()

	// Night 3: a split shot is a miss (R-SPORT-10).
	g.night(map[int][]string{2: {"kill:4"}, 3: {"kill:6"}})
	g.wantEvent(EvMissed, 0, "")
	g.wantAlive(4, 6)
	// Day 3: the mafia are voted out one by one.
	g.speeches(map[int]int{4: 2, 6: 4})
	g.vote(map[int]int{2: 4, 3: 4, 4: 2, 6: 2, 7: 2, 8: 2, 9: 2, 10: 2})
	g.wantDead(2)
	g.lastWords()
	// Night 4: seat 3, the last black, kills the Sheriff.
	g.night(map[int][]string{3: {"kill:4"}})
	g.wantDead(4)
	g.lastWords()
	g.speeches(map[int]int{6: 3, 7: 6})
	g.vote(map[int]int{3: 6, 6: 3, 7: 3, 8: 3, 9: 3, 10: 3})
	// R-SPORT-14: red win when every black player has left.
	g.wantWinner(Town)
}

// TestSportParityWin: black win when red and black are equal (R-SPORT-14).
func TestSportParityWin(t *testing.T) {
	g := sport10(t)
	g.quietNight()
	g.skipDay()
	for _, victim := range []int{5, 6, 7} {
		g.night(map[int][]string{1: {"kill:" + itoa(victim)}, 2: {"kill:" + itoa(victim)}, 3: {"kill:" + itoa(victim)}})
		g.lastWords()
		g.skipDay()
	}
	// 3 black, 4 red: one more kill gives 3 and 3.
	g.night(map[int][]string{1: {"kill:8"}, 2: {"kill:8"}, 3: {"kill:8"}})
	g.wantWinner(MafiaTeam)
}

// TestCarCrashAllLeave covers the all-leave vote with both outcomes (R-SPORT-07).
func TestCarCrashAllLeave(t *testing.T) {
	for _, tc := range []struct {
		name string
		yes  []int
		gone bool
	}{{"more than half say yes", []int{1, 2, 3, 4, 5, 6}, true}, {"half is not enough", []int{1, 2, 3, 4, 5}, false}} {
		t.Run(tc.name, func(t *testing.T) {
			g := sport10(t)
			g.quietNight()
			g.skipDay()
			g.quietNight()
			g.speeches(map[int]int{5: 7, 6: 8})
			g.vote(map[int]int{1: 7, 2: 7, 3: 7, 4: 7, 5: 7, 6: 8, 7: 8, 8: 8, 9: 8, 10: 8})
			g.speeches(nil)
			g.vote(map[int]int{1: 7, 2: 7, 3: 7, 4: 7, 5: 7, 6: 8, 7: 8, 8: 8, 9: 8, 10: 8})
			g.voteAll(tc.yes...)
			if tc.gone {
				g.wantDead(7, 8)
				g.wantEvent(EvEliminated, 7, "vote")
				g.want(PhaseLastWord)
			} else {
				g.wantAlive(7, 8)
				g.wantEvent(EvAcquitted, 0, "all_stay")
				g.want(PhaseNight)
			}
		})
	}
}

// TestFourLeft: with four players left a tie ends the day; nobody leaves (R-SPORT-08).
func TestFourLeft(t *testing.T) {
	g := newGame(t, PresetSport, 10, nil, Don, Mafia, Mafia, Sheriff)
	for _, seat := range []int{2, 3, 5, 6, 7, 8} {
		g.s.player(id(seat)).Alive = false
	}
	g.quietNight()
	g.speeches(map[int]int{1: 4, 4: 1})
	g.vote(map[int]int{1: 4, 4: 1, 9: 4, 10: 1})
	g.wantEvent(EvTie, 0, "four_left")
	g.wantAlive(1, 4, 9, 10)
	g.want(PhaseNight)
}

// TestNominations: one nomination per monologue, of a living player not yet
// nominated; the speaker may withdraw his own in the same monologue (R-SPORT-04).
func TestNominations(t *testing.T) {
	g := sport10(t)
	g.quietNight()
	g.do(1, ActNominate, 5)
	g.refuse(1, Action{Type: ActNominate, Target: id(6)}, ErrAlreadyActed)
	g.refuse(2, Action{Type: ActNominate, Target: id(6)}, ErrNotYourTurn)
	g.do(1, ActWithdraw, 0)
	g.do(1, ActNominate, 6)
	g.do(1, ActEndSpeech, 0)
	g.refuse(2, Action{Type: ActNominate, Target: id(6)}, ErrBadTarget)
	g.refuse(2, Action{Type: ActWithdraw}, ErrAlreadyActed)
	if got := g.s.Nominations; len(got) != 1 || got[0].Target != id(6) {
		t.Fatalf("nominations %v", got)
	}
}

// TestWithdrawThisMonologueOnly: a withdrawal takes back a nomination of the
// same monologue (R-SPORT-04), never one of an earlier speech. A speaker whose
// nominee of this monologue is removed from the game has nothing to withdraw
// and may nominate again; the nomination of his first speech of the day stands.
func TestWithdrawThisMonologueOnly(t *testing.T) {
	g := newGame(t, PresetSport, 10, func(o *Options) { o.ExtraSpeech = 30 }, Don, Mafia, Mafia, Sheriff)
	g.quietNight()
	g.do(1, ActNominate, 5)
	g.do(1, ActRaiseHand, 0)
	g.do(1, ActEndSpeech, 0)
	for g.s.Phase.Reason != ReasonExtra {
		g.do(g.s.player(g.s.speaker()).Seat, ActEndSpeech, 0)
	}
	if g.s.speaker() != id(1) {
		t.Fatalf("R-MANIAC-09: the further speech is %s's", g.s.speaker())
	}
	g.do(1, ActNominate, 6)
	g.host(Action{Type: ActRemove, Target: id(6)})
	g.refuse(1, Action{Type: ActWithdraw}, ErrAlreadyActed)
	g.do(1, ActNominate, 7)
	g.do(1, ActWithdraw, 0)
	if got := g.s.Nominations; len(got) != 1 || got[0] != (Nomination{By: id(1), Target: id(5)}) {
		t.Fatalf("R-SPORT-04: nominations %v, want the first speech's 1 → 5", got)
	}
}

// TestDayOpenerSeatOfDay: each later day opens at the next living seat after
// the one who opened the day before (R-SPORT-03, texts 000 and 002); read as
// text 004's closed rules («În prima zi, jucătorul începe la numărul unu, în al
// doilea - la numărul doi»), day n opens at seat n whoever has left, from the
// next living seat if that one has. The sport rules keep the first reading.
func TestDayOpenerSeatOfDay(t *testing.T) {
	if o, _ := Preset(PresetSport); o.DayOpener != OpenerNextSeat {
		t.Fatalf("R-SPORT-03: the sport rules open the day at %s", o.DayOpener)
	}
	for opener, want := range map[DayOpener][]int{OpenerNextSeat: {1, 3, 4}, OpenerDaySeat: {1, 3, 3}} {
		g := newGame(t, PresetSport, 10, func(o *Options) { o.DayOpener = opener }, Don, Mafia, Mafia, Sheriff)
		g.s.player(id(2)).Alive = false // seat 2 has left
		g.quietNight()
		var got []int
		for range 3 {
			got = append(got, g.s.player(g.s.speaker()).Seat)
			g.skipDay()
			g.quietNight()
		}
		if !slices.Equal(got, want) {
			t.Errorf("R-SPORT-03: %s: days 1-3 open at seats %v, want %v", opener, got, want)
		}
		g.s.Day = 11
		if first := g.s.dayOpener(); opener == OpenerDaySeat && first != id(1) {
			t.Errorf("R-SPORT-03: day 11 of ten seats opens at %s, want seat 1", first)
		}
	}
}

// TestNominateAnotherOnly: a speaker puts up another player, never himself
// (R-SPORT-04, text 003 «выставить другого игрока»): he is not among his own
// targets, and a nomination of himself is refused, before and after a nomination
// of another, changing nothing. So a self-nominated last nominee cannot collect
// the missing votes, nor a lone self-nomination on day 1 block the vote.
func TestNominateAnotherOnly(t *testing.T) {
	g := sport10(t)
	g.quietNight()
	opts := Legal(g.s, Actor{Player: id(1)})
	i := slices.IndexFunc(opts, func(o Option) bool { return o.Type == ActNominate })
	if i < 0 || slices.Contains(opts[i].Targets, id(1)) || len(opts[i].Targets) != 9 {
		t.Fatalf("R-SPORT-04: seat 1 may nominate %v", opts)
	}
	g.refuse(1, Action{Type: ActNominate, Target: id(1)}, ErrBadTarget)
	g.do(1, ActNominate, 5)
	g.refuse(1, Action{Type: ActNominate, Target: id(1)}, ErrBadTarget)
	g.do(1, ActEndSpeech, 0)
	g.refuse(2, Action{Type: ActNominate, Target: id(2)}, ErrBadTarget)
	if err := g.apply(Actor{Player: id(2)}, Action{Type: ActNominate, Target: id(2)}); err == nil || !strings.Contains(err.Error(), "another player") {
		t.Fatalf("R-SPORT-04: the refusal says %v", err)
	}
	if len(g.s.Nominations) != 1 || g.s.Nominations[0].Target != id(5) {
		t.Fatalf("R-SPORT-04: nominations %v", g.s.Nominations)
	}
}

// TestLaterDaySingleNominee: after day 1 a single nominee is voted on, and the
// non-voters' votes make him leave (R-SPORT-06, R-SPORT-05).
func TestLaterDaySingleNominee(t *testing.T) {
	g := sport10(t)
	g.quietNight()
	g.skipDay()
	g.quietNight()
	g.speeches(map[int]int{3: 9})
	g.want(PhaseVote)
	g.tick(31e9) // nobody votes: every vote goes to the last (only) nominee
	g.wantDead(9)
}

// TestNoNominees: no nominee, nobody leaves (R-SPORT-06).
func TestNoNominees(t *testing.T) {
	g := sport10(t)
	g.quietNight()
	g.skipDay()
	g.wantEvent(EvAcquitted, 0, "no_nominees")
	g.want(PhaseNight)
}

// TestFouls: the third warning costs the next monologue, the fourth removes the
// player at once with no last word (R-SPORT-16); removed players never act
// (R-SPORT-17).
func TestFouls(t *testing.T) {
	g := sport10(t)
	g.quietNight()
	for range 3 {
		g.host(Action{Type: ActWarn, Target: id(2)})
	}
	g.do(1, ActEndSpeech, 0)
	g.wantEvent(EvMuted, 2, "")
	if g.s.speaker() != id(3) {
		t.Fatalf("R-SPORT-16: a muted player speaks; speaker %s", g.s.speaker())
	}
	g.host(Action{Type: ActWarn, Target: id(2)})
	g.wantDead(2)
	g.wantEvent(EvRemoved, 2, "fouls")
	// Removal by the host for a grave breach: at once, no last word.
	g.host(Action{Type: ActRemove, Target: id(3)})
	g.wantDead(3)
	if g.s.Phase.Name == PhaseLastWord {
		t.Fatal("R-SPORT-16: a removed player got a last word")
	}
	// R-SPORT-17: the removed may not speak, vote or act.
	g.refuse(2, Action{Type: ActNominate, Target: id(5)}, ErrDead)
	g.speeches(nil)
	g.night(nil)
	g.refuse(3, Action{Type: ActSleep}, ErrDead)
}

// TestRemovedAtNightTapGoes: a player the host removes at night leaves at once
// (R-SPORT-16), and their tap goes with them (R-SPORT-17): the night waits for
// the living who have still to tap, no more and no fewer.
func TestRemovedAtNightTapGoes(t *testing.T) {
	g := sport10(t)
	g.quietNight()
	g.skipDay()
	pending := func() int { return ViewOf(g.s, Public, g.now).Phase.Pending }
	g.do(5, ActSleep, 0)
	g.host(Action{Type: ActRemove, Target: id(5)})
	if p := pending(); p != 9 {
		t.Fatalf("R-SPORT-16: after the removal pending is %d with 9 still to tap", p)
	}
	for _, seat := range []int{1, 2, 3, 4, 6, 7, 8, 9} {
		g.do(seat, ActSleep, 0)
	}
	if p := pending(); p != 1 || g.s.Phase.Name != PhaseNight || g.s.Phase.Closing {
		t.Fatalf("R-SPORT-16: with seat 10 still to tap pending is %d in %s", p, g.s.Phase.Name)
	}
	g.do(10, ActSleep, 0)
	if p := pending(); p != 10-1 || g.s.Phase.Wake != 2 {
		t.Fatalf("R-SPORT-17: the second wake waits for %d in wake %d", p, g.s.Phase.Wake)
	}
}

// TestDeadCannotAct: dead players may not speak, vote or act (R-SPORT-17,
// R-CLASSIC-09, R-PARTY-12).
func TestDeadCannotAct(t *testing.T) {
	g := sport10(t)
	g.quietNight()
	g.skipDay()
	g.night(map[int][]string{1: {"kill:5"}, 2: {"kill:5"}, 3: {"kill:5"}})
	g.lastWords()
	g.refuse(5, Action{Type: ActNominate, Target: id(6)}, ErrDead)
	g.speeches(map[int]int{2: 6})
	g.want(PhaseVote)
	g.refuse(5, Action{Type: ActVote, Target: id(6)}, ErrDead)
	for _, o := range Legal(g.s, Actor{Player: id(5)}) {
		t.Fatalf("a dead player is offered %s", o.Type)
	}
}

func lastBallots(s State) []Ballot {
	for i := len(s.Events) - 1; i >= 0; i-- {
		if s.Events[i].Type == EvVoted {
			return s.Events[i].Ballots
		}
	}
	return nil
}

func itoa(n int) string { return id(n)[1:] }

// TestSportEyesClosed: after night 1 the mafia shoot with their eyes closed
// (R-SPORT-10): a black player sees only their own shot, on the phone and in the
// story, through the morning; the moderator sees every shot; the game's end shows
// them all. With the option off the team sees its shots as they come.
func TestSportEyesClosed(t *testing.T) {
	shotsSeen := func(g *game, seat int) (you, story []string) {
		v := ViewOf(g.s, Viewer{Player: id(seat)}, g.now)
		for _, c := range v.You.Shots {
			you = append(you, c.Actor)
		}
		for _, e := range v.Events {
			if e.Type == EvShot {
				story = append(story, e.Actor)
			}
		}
		return you, story
	}
	g := sport10(t)
	if !g.s.Rules.EyesClosed {
		t.Fatal("R-SPORT-10: the sport rules shoot with eyes open")
	}
	g.quietNight()
	g.skipDay()
	g.do(1, ActKill, 5)
	g.do(2, ActKill, 6)
	for seat, want := range map[int]string{1: id(1), 2: id(2), 3: ""} {
		you, story := shotsSeen(g, seat)
		if want == "" && (len(you) > 0 || len(story) > 0) || want != "" && (!slices.Equal(you, []string{want}) || !slices.Equal(story, []string{want})) {
			t.Errorf("R-SPORT-10: seat %d sees the shots of %v on the phone and %v in the story, want only %q", seat, you, story, want)
		}
	}
	g.s.Moderator = ModeratorHost
	if v := ViewOf(g.s, Viewer{Host: true}, g.now); len(v.Night.Choices) != 2 {
		t.Errorf("R-SPORT-10: the moderator sees %v", v.Night.Choices)
	}
	g.s.Moderator = ModeratorApp
	g.sleepNight() // seat 3 never shot: a miss
	g.wantEvent(EvMissed, 0, "")
	if _, story := shotsSeen(g, 2); !slices.Equal(story, []string{id(2)}) {
		t.Errorf("R-SPORT-10: by day seat 2 sees the shots of %v", story)
	}
	for _, seat := range []int{1, 2, 3} {
		g.s.player(id(seat)).Alive = false
	}
	g.s.checkWin(g.now)
	if _, story := shotsSeen(g, 7); len(story) != 2 {
		t.Errorf("R-SPORT-10: the finished game's story shows the shots of %v", story)
	}

	open := newGame(t, PresetCustom, 10, func(o *Options) { o.EyesClosed = false }, Don, Mafia, Mafia, Sheriff)
	open.quietNight()
	open.skipDay()
	open.do(1, ActKill, 5)
	if you, story := shotsSeen(open, 2); !slices.Equal(you, []string{id(1)}) || !slices.Equal(story, []string{id(1)}) {
		t.Errorf("eyes open: seat 2 sees %v and %v, want the Don's shot", you, story)
	}
}

// TestFoulsByText: the host names the foul and the rule set decides its cost
// (R-SPORT-16): "honestly" / "I swear" is a warning under text 002 (rule 3) and
// removal at once under text 003; oaths, bets and abuse let the host warn or
// remove (text 002 rules 2, 21, 22); peeking removes (rule 4). The story says why.
func TestFoulsByText(t *testing.T) {
	hostRefused := func(g *game, a Action) {
		t.Helper()
		if err := g.apply(Actor{Host: true}, a); !errors.Is(err, ErrBadField) {
			t.Fatalf("R-SPORT-16: %s for %q: %v", a.Type, a.Foul, err)
		}
	}
	g := sport10(t)
	if g.s.Rules.ForbiddenWords != "warning" {
		t.Fatalf("R-SPORT-16: the sport rules make the forbidden words a %s", g.s.Rules.ForbiddenWords)
	}
	g.quietNight()
	fouls := map[ActionType][]string{}
	for _, o := range Legal(g.s, Actor{Host: true}) {
		fouls[o.Type] = o.Fouls
	}
	if !slices.Equal(fouls[ActWarn], []string{FoulWords, FoulSpeech, FoulAbuse}) || !slices.Equal(fouls[ActRemove], []string{FoulAbuse, FoulPeeking, FoulPrompting}) {
		t.Fatalf("R-SPORT-16: fouls offered %v", fouls)
	}
	g.host(Action{Type: ActWarn, Target: id(5), Foul: FoulWords})
	g.wantEvent(EvWarned, 5, "1")
	if e := g.s.Events[len(g.s.Events)-1]; e.Foul != FoulWords {
		t.Fatalf("R-SPORT-16: the warning names %q", e.Foul)
	}
	hostRefused(g, Action{Type: ActRemove, Target: id(5), Foul: FoulWords})
	hostRefused(g, Action{Type: ActWarn, Target: id(5), Foul: FoulPeeking})
	hostRefused(g, Action{Type: ActWarn, Target: id(5), Foul: "cheating"})
	g.host(Action{Type: ActWarn, Target: id(6), Foul: FoulAbuse})
	g.host(Action{Type: ActRemove, Target: id(7), Foul: FoulAbuse})
	g.host(Action{Type: ActRemove, Target: id(8), Foul: FoulPeeking})
	g.wantDead(7, 8)
	g.wantAlive(5, 6)
	// The fourth warning removes, and says for what.
	for range 3 {
		g.host(Action{Type: ActWarn, Target: id(5), Foul: FoulSpeech})
	}
	g.wantDead(5)
	if e := g.s.Events[len(g.s.Events)-1]; e.Type != EvRemoved || e.Result != "fouls" || e.Foul != FoulSpeech {
		t.Fatalf("R-SPORT-16: the removal by warnings %+v", e)
	}

	// Text 003: «За фразы честное слово и клянусь следует также немедленное
	// удаление из-за стола».
	g = newGame(t, PresetSport, 10, func(o *Options) { o.ForbiddenWords = "removal" }, Don, Mafia, Mafia, Sheriff)
	g.quietNight()
	hostRefused(g, Action{Type: ActWarn, Target: id(5), Foul: FoulWords})
	g.host(Action{Type: ActRemove, Target: id(5), Foul: FoulWords})
	g.wantDead(5)
	if g.s.Phase.Name == PhaseLastWord {
		t.Fatal("R-SPORT-16: a removed player got a last word")
	}
}

// TestFoulThirdWarningInOwnSpeech: three warnings cost the word for one round; a
// third warning given during the player's own monologue ends it at once, one
// given after it costs the next round's (R-SPORT-16, text 002 rule 23).
func TestFoulThirdWarningInOwnSpeech(t *testing.T) {
	g := sport10(t)
	g.quietNight()
	g.want(PhaseDay)
	for range 2 {
		g.host(Action{Type: ActWarn, Target: id(1), Foul: FoulSpeech})
	}
	if g.s.speaker() != id(1) {
		t.Fatal("two warnings ended the speech")
	}
	g.host(Action{Type: ActWarn, Target: id(1), Foul: FoulSpeech})
	g.wantEvent(EvMuted, 1, "")
	if g.s.speaker() != id(2) || g.s.player(id(1)).Muted != 0 {
		t.Fatalf("R-SPORT-16: after the third warning the speaker is %s, muted %d", g.s.speaker(), g.s.player(id(1)).Muted)
	}
	// Seat 2 speaks, then gets a third warning: the next round's word is lost.
	g.do(2, ActEndSpeech, 0)
	for range 3 {
		g.host(Action{Type: ActWarn, Target: id(2)})
	}
	g.speeches(nil)
	g.quietNight()
	g.want(PhaseDay)
	if g.s.speaker() != id(3) { // day 2 would open with seat 2
		t.Fatalf("R-SPORT-16: day 2 opens with %s", g.s.speaker())
	}
	g.wantEvent(EvMuted, 2, "")
}

// TestFoulMuteWholeRound: three warnings cost the word for one round (R-SPORT-16,
// text 002 rule 23: «позбавляється слова на одне коло»). The sport rules read it
// as the monologue; with muteWholeRound the player who lost it also has no
// car-crash defence and no last word after that day's vote. A last word the
// next morning belongs to the next round.
func TestFoulMuteWholeRound(t *testing.T) {
	if o, _ := Preset(PresetSport); o.MuteWholeRound {
		t.Fatal("R-SPORT-16: the sport rules take the whole round")
	}
	for _, whole := range []bool{false, true} {
		g := newGame(t, PresetSport, 10, func(o *Options) { o.MuteWholeRound = whole }, Don, Mafia, Mafia, Sheriff)
		g.quietNight()
		g.skipDay()
		g.quietNight()
		for range 3 {
			g.host(Action{Type: ActWarn, Target: id(7)})
			g.host(Action{Type: ActWarn, Target: id(9)})
		}
		g.speeches(map[int]int{2: 7, 3: 8})
		g.wantEvent(EvMuted, 7, "")
		g.vote(map[int]int{1: 7, 2: 7, 3: 7, 4: 7, 5: 7, 6: 8, 7: 8, 8: 8, 9: 8, 10: 8})
		g.want(PhaseDefence)
		if defence := g.s.Phase.Queue; whole != !slices.Contains(defence, id(7)) {
			t.Errorf("R-SPORT-16: whole round %v: the car crash's defences %v", whole, defence)
		}
		g.speeches(nil)
		g.vote(map[int]int{1: 7, 2: 7, 3: 7, 4: 7, 5: 7, 6: 7, 7: 8, 8: 8, 9: 8, 10: 8})
		g.wantDead(7)
		if lastWord := g.s.Phase.Name == PhaseLastWord; lastWord == whole {
			t.Errorf("R-SPORT-16: whole round %v: a last word after the vote %v", whole, lastWord)
		}
		g.lastWords()
		g.night(map[int][]string{1: {"kill:9"}, 2: {"kill:9"}, 3: {"kill:9"}})
		if g.want(PhaseLastWord); g.s.speaker() != id(9) {
			t.Errorf("R-SPORT-16: whole round %v: the morning's last word is %s's", whole, g.s.speaker())
		}
	}
}
