package rules

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
)

func lobbyApply(t *testing.T, s State, actor Actor, a Action) State {
	t.Helper()
	n, err := Apply(s, actor, a, t0)
	if err != nil {
		t.Fatalf("%+v by %+v: %v", a, actor, err)
	}
	return n
}

func mustJoin(t *testing.T, s State, name, device string) (State, string) {
	t.Helper()
	n, id, err := JoinFrom(s, name, device, t0)
	if err != nil {
		t.Fatalf("join %q: %v", name, err)
	}
	return n, id
}

func size(t *testing.T, s State) int {
	t.Helper()
	b, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	return len(b)
}

func eventTypes(s State) []EventType {
	var out []EventType
	for _, e := range s.Events {
		out = append(out, e.Type)
	}
	return out
}

// TestLobbyChurnLeavesNoTrace: joining and leaving (or being kicked or
// banned) in a loop leaves the lobby as it was: no events, and ids reused, so a
// stranger cannot grow a game by coming and going (issue 12: 1,500 cycles gave a
// 100 KB view).
func TestLobbyChurnLeavesNoTrace(t *testing.T) {
	o, _ := Preset(PresetClassic)
	s, _ := New("CHURN1", o, ModeratorApp, "en", t0)
	s, _ = mustJoin(t, s, "Аня", "")
	s, _ = mustJoin(t, s, "Борис", "")
	before := s
	for i := range 3000 {
		var id string
		s, id = mustJoin(t, s, fmt.Sprintf("Troll %d", i), fmt.Sprintf("dev%d", i))
		if id != "p3" {
			t.Fatalf("cycle %d: the newcomer is %s, want the free id p3", i, id)
		}
		switch i % 3 {
		case 0:
			s = lobbyApply(t, s, Actor{Player: id}, Action{Type: ActLeave})
		case 1:
			s = lobbyApply(t, s, Actor{Host: true}, Action{Type: ActKick, Target: id})
		case 2:
			s = lobbyApply(t, s, Actor{Host: true}, Action{Type: ActBan, Target: id})
		}
	}
	s.Banned = nil // the bans are kept, up to MaxBanned (TestLockAndBan)
	if !equalState(s, before) {
		t.Errorf("after 3000 cycles the lobby differs: %d bytes of JSON, was %d; events %v",
			size(t, s), size(t, before), eventTypes(s))
	}
	// Ids stay within the table: after p1 leaves, the next newcomer is p1.
	s = lobbyApply(t, s, Actor{Player: "p1"}, Action{Type: ActLeave})
	if _, id := mustJoin(t, s, "Вера", ""); id != "p1" {
		t.Errorf("newcomer after p1 left is %s, want p1", id)
	}
}

// TestLockAndBan: the host may lock the lobby and ban a seat's device; a
// locked lobby and a banned device are refused with their own errors; the bans
// are bounded, and all of it is forgotten at the start, when joining closes.
func TestLockAndBan(t *testing.T) {
	o, _ := Preset(PresetClassic)
	s, _ := New("LOCK01", o, ModeratorApp, "en", t0)
	host := Actor{Host: true}
	s, troll := mustJoin(t, s, "Troll", "troll-phone")
	s, _ = mustJoin(t, s, "Аня", "anya-phone")
	opts := Legal(s, host)
	for _, typ := range []ActionType{ActLock, ActBan, ActKick} {
		if !slices.ContainsFunc(opts, func(o Option) bool { return o.Type == typ }) {
			t.Errorf("the host's lobby options %v lack %s", opts, typ)
		}
	}
	if _, err := Apply(s, Actor{Player: troll}, Action{Type: ActLock}, t0); !errors.Is(err, ErrNotHost) {
		t.Errorf("a player locks: %v", err)
	}
	if _, err := Apply(s, host, Action{Type: ActBan, Target: "p9"}, t0); !errors.Is(err, ErrBadTarget) {
		t.Errorf("ban of nobody: %v", err)
	}

	s = lobbyApply(t, s, host, Action{Type: ActBan, Target: troll})
	if s.player(troll) != nil {
		t.Fatal("the banned player is still seated")
	}
	if _, _, err := JoinFrom(s, "Troll again", "troll-phone", t0); !errors.Is(err, ErrBanned) {
		t.Errorf("the banned device joins again: %v", err)
	}
	s, _ = mustJoin(t, s, "Борис", "boris-phone")
	// A device-less join (an old client, a script) cannot be banned, only kicked.
	s, nobody := mustJoin(t, s, "Nobody", "")
	s = lobbyApply(t, s, host, Action{Type: ActBan, Target: nobody})
	if len(s.Banned) != 1 {
		t.Errorf("banned %v after banning a seat without a device", s.Banned)
	}

	s = lobbyApply(t, s, host, Action{Type: ActLock})
	if !s.Locked || !ViewOf(s, Public, t0).Phase.Locked {
		t.Fatal("locked, yet the public view does not say so")
	}
	if _, _, err := JoinFrom(s, "Вера", "vera-phone", t0); !errors.Is(err, ErrLocked) {
		t.Errorf("join to a locked lobby: %v", err)
	}
	if !slices.ContainsFunc(Legal(s, host), func(o Option) bool { return o.Type == ActUnlock }) {
		t.Error("a locked lobby offers the host no unlock")
	}
	s = lobbyApply(t, s, host, Action{Type: ActUnlock})
	s, _ = mustJoin(t, s, "Вера", "vera-phone")

	// The bans are bounded: the oldest goes first.
	for i := range MaxBanned + 5 {
		var id string
		s, id = mustJoin(t, s, fmt.Sprintf("Troll %d", i), fmt.Sprintf("troll-%d", i))
		s = lobbyApply(t, s, host, Action{Type: ActBan, Target: id})
	}
	if len(s.Banned) != MaxBanned || slices.Contains(s.Banned, "troll-phone") || !slices.Contains(s.Banned, fmt.Sprintf("troll-%d", MaxBanned+4)) {
		t.Errorf("banned %d devices: %v", len(s.Banned), s.Banned)
	}
	// Devices never leave the server.
	for _, v := range []Viewer{Public, {Host: true}, {Player: "p2"}} {
		data, _ := json.Marshal(ViewOf(s, v, t0))
		if strings.Contains(string(data), "phone") || strings.Contains(string(data), "troll-") {
			t.Errorf("the view of %+v shows a device: %s", v, data)
		}
	}

	// The start forgets the lobby's lock, bans and devices; joins are closed.
	for i := len(s.Players); i < 5; i++ {
		s, _ = mustJoin(t, s, fmt.Sprintf("Guest %d", i), "")
	}
	s = lobbyApply(t, s, host, Action{Type: ActLock})
	s = lobbyApply(t, s, host, Action{Type: ActStart})
	if s.Locked || s.Banned != nil || slices.ContainsFunc(s.Players, func(p Player) bool { return p.Device != "" }) {
		t.Errorf("after the start: locked %v, banned %v, players %+v", s.Locked, s.Banned, s.Players)
	}
	if slices.Contains(eventTypes(s), EvJoined) {
		t.Errorf("the lobby's lines outlive the start: %v", eventTypes(s))
	}
	if _, _, err := JoinFrom(s, "Late", "late-phone", t0); !errors.Is(err, ErrWrongPhase) {
		t.Errorf("join after the start: %v", err)
	}
	if slices.ContainsFunc(Legal(s, host), func(o Option) bool { return o.Type == ActLock || o.Type == ActBan }) {
		t.Error("lock or ban offered after the start")
	}
}

// TestRepeatsLeaveNoTrace: what one actor can repeat at will does not grow the
// story: pausing and resuming, nominating and withdrawing, setting the Maniac's
// side, and fouls, which stop at MaxWarnings (R-SPORT-16).
func TestRepeatsLeaveNoTrace(t *testing.T) {
	g := sport10(t)
	g.quietNight()
	g.want(PhaseDay)
	before := len(g.s.Events)
	for range 500 {
		g.host(Action{Type: ActPause})
		if g.s.Events[len(g.s.Events)-1].Type != EvPaused {
			t.Fatal("a pause is not told while it lasts")
		}
		g.host(Action{Type: ActResume})
	}
	speaker := g.s.player(g.s.speaker()).Seat
	target := speaker%10 + 1
	for range 500 {
		g.do(speaker, ActNominate, target)
		g.do(speaker, ActWithdraw, 0)
	}
	if n := len(g.s.Events); n != before {
		t.Errorf("%d events after 500 pauses and 500 withdrawn nominations, was %d: %v", n, before, g.lastEvents(6))
	}
	g.do(speaker, ActNominate, target)
	g.wantEvent(EvNominated, target, "")

	// Fouls stop at MaxWarnings where they remove nobody.
	g.s.Rules.WarningsToRemove = 0
	for range MaxWarnings {
		g.host(Action{Type: ActWarn, Target: id(target)})
	}
	err := g.apply(Actor{Host: true}, Action{Type: ActWarn, Target: id(target)})
	if !errors.Is(err, ErrBadTarget) || g.s.player(id(target)).Warnings != MaxWarnings {
		t.Errorf("warning %d: %v, count %d", MaxWarnings+1, err, g.s.player(id(target)).Warnings)
	}

	// The Maniac's side: only the last word stands (R-MANIAC-01).
	o, _ := Preset(PresetManiac)
	s, _ := New("SIDE01", o, ModeratorHost, "en", t0)
	for i := range 500 {
		s = lobbyApply(t, s, Actor{Host: true}, Action{Type: ActManiacSide, Side: []ManiacSide{ManiacAlone, ManiacMafia}[i%2]})
	}
	if types := eventTypes(s); len(types) != 1 || s.Events[0].Result != "mafia" {
		t.Errorf("after 500 choices of side: %v", s.Events)
	}
}

// TestCondense: each level tells the story before the current round more
// briefly and leaves the round, and everything the rules decide by, alone;
// the past it takes from the story stays whole beside it (History) until the
// levels that must cut it, and they say from which night it is whole.
func TestCondense(t *testing.T) {
	g := newGame(t, PresetSport, 10, func(o *Options) { o.FirstNightMeeting, o.Day1SingleNomineeStays = false, false },
		Don, Mafia, Mafia, Sheriff)
	// Three rounds: shots that miss, a check, a nomination and a vote a day.
	for r := range 3 {
		g.night(map[int][]string{1: {"kill:5"}, 2: {"kill:6"}, 3: {"kill:7"}, 4: {"check:1"}})
		g.lastWords()
		g.speeches(map[int]int{5: 8 + r})
		votes := map[int]int{}
		for _, p := range g.s.living() {
			votes[p.Seat] = 8 + r
		}
		g.vote(votes)
		g.lastWords()
	}
	g.want(PhaseNight)
	s := g.s
	sheriff := s.player(id(4))
	sheriff.Checks = append(sheriff.Checks, sheriff.Checks...) // as if every night checked the same seat
	s.Events = append(s.Events, Event{Night: s.Night, Type: EvAct, To: ToMod, Actor: id(4)})
	current := slices.IndexFunc(s.Events, func(e Event) bool { return e.Night >= s.Night })
	round := s.Events[current:]
	old := s.Events[:current]
	votes := slices.DeleteFunc(slices.Clone(old), func(e Event) bool { return e.Type != EvVoted || len(e.Ballots) == 0 })
	private := slices.DeleteFunc(slices.Clone(old), func(e Event) bool { return e.To == ToAll })
	routine := slices.DeleteFunc(slices.Clone(old), func(e Event) bool { return told[e.Type] })
	if len(votes) < 3 || len(private) == 0 || len(routine) == len(private) || len(round) < 2 {
		t.Fatalf("the scenario tells too little: %d votes, %d private and %d routine events before the round of %d", len(votes), len(private), len(routine), len(round))
	}

	whole := mustJSON(t, s.Events)
	prev := len(s.Events) + 1
	for level := 1; level <= CondenseLevels; level++ {
		c := Condense(s, level)
		if len(c.Events) > prev || len(c.Events) == prev && level > 3 && level < 8 {
			t.Errorf("level %d keeps %d events, no fewer than the level below", level, len(c.Events))
		}
		prev = len(c.Events)
		history, from := History(c)
		switch {
		case level <= 8 && (from != 0 || mustJSON(t, history) != whole):
			t.Errorf("level %d: the history differs from the story (whole from night %d)", level, from)
		case level > 8 && level < CondenseLevels && (from <= 1 || from > s.Night):
			t.Errorf("level %d: the history is whole from night %d, want a night of the past cut", level, from)
		case level == CondenseLevels && from != s.Night+1:
			t.Errorf("the briefest level: the history is whole from night %d, want %d", from, s.Night+1)
		}
		for _, e := range history {
			if e.Night >= from && level < CondenseLevels && !slices.ContainsFunc(s.Events, func(f Event) bool { return mustJSON(t, []Event{e}) == mustJSON(t, []Event{f}) }) {
				t.Errorf("level %d: the history of night %d tells %+v, which the story does not", level, e.Night, e)
			}
		}
		if !slices.EqualFunc(c.Events[len(c.Events)-len(round):], round, func(a, b Event) bool { return a.Type == b.Type && a.Night == b.Night }) {
			t.Errorf("level %d changed the current round", level)
		}
		if got := c.player(id(4)).Checks; len(got) != 1 || got[0].Night != 3 {
			t.Errorf("level %d: checks %+v, want the latest one about p1", level, got)
		}
		for i, e := range c.Events {
			if e.Type == EvVoted && len(e.Ballots) > 0 && slices.ContainsFunc(c.Events[i+1:], func(f Event) bool { return f.Type == EvVoted }) {
				t.Errorf("level %d: an old vote keeps its ballots", level)
			}
			if e.Night < s.Night && level >= 2 && e.To != ToAll {
				t.Errorf("level %d keeps a private %s", level, e.Type)
			}
			if e.Night < s.Night && level >= 3 && !told[e.Type] {
				t.Errorf("level %d keeps a %s", level, e.Type)
			}
		}
		// What the rules decide by is untouched: every actor's options and view.
		for _, v := range []Viewer{Public, {Host: true}, {Player: id(1)}, {Player: id(4)}} {
			a, b := ViewOf(s, v, g.now), ViewOf(c, v, g.now)
			a.Events, b.Events, a.You, b.You = nil, nil, nil, nil
			if ja, jb := fmt.Sprint(a), fmt.Sprint(b); ja != jb {
				t.Errorf("level %d changed the view of %+v", level, v)
			}
		}
		c.Events, c.Players, c.Past, c.PastUntil, c.WholeFrom = s.Events, s.Players, s.Past, s.PastUntil, s.WholeFrom
		if !equalState(c, s) {
			t.Errorf("level %d changed more than the story and the checks", level)
		}
	}
	if c := Condense(s, 8); len(c.Events) != len(round) {
		t.Errorf("level 8 keeps %d events, want the %d of the round", len(c.Events), len(round))
	}
	if c := Condense(s, CondenseLevels); len(c.Events) != len(round) {
		t.Errorf("the briefest level keeps %d events, want the %d of the round", len(c.Events), len(round))
	}
	if !equalState(Condense(s, 0), s) {
		t.Error("level 0 changed the game")
	}
	if g.s.player(id(4)).Checks[0].Night != 1 {
		t.Error("Condense changed the state it was given")
	}
}

// TestViewsTellTheirBudget: a view tells a game's story whole while it is
// within viewStory, and past that as briefly as it takes to fit, the current
// round whole (the trust issue's point on views growing where the stored
// item does not).
func TestViewsTellTheirBudget(t *testing.T) {
	g := newGame(t, PresetSport, 10, func(o *Options) { o.FirstNightMeeting = false }, Don, Mafia, Mafia, Sheriff)
	g.night(map[int][]string{1: {"kill:5"}, 2: {"kill:6"}, 3: {"kill:7"}, 4: {"check:1"}})
	short := ViewOf(g.s, Public, g.now)
	if visible := slices.DeleteFunc(slices.Clone(g.s.Events), func(e Event) bool { return !g.s.visible(e, Public) }); len(short.Events) != len(visible) {
		t.Fatalf("a short story: the view tells %d of its %d events", len(short.Events), len(visible))
	}
	// The same round after hundreds of quiet ones: the moderator's steps
	// with nobody leaving, as a long night's routine lines.
	long := g.s
	for night := range 400 {
		long.Events = append([]Event{{Night: night - 400, Type: EvNightFell, To: ToAll}, {Night: night - 400, Type: EvMissed, To: ToAll}, {Night: night - 400, Type: EvDayBegan, To: ToAll}}, long.Events...)
	}
	v := ViewOf(long, Public, g.now)
	if w := storyWeight(v.Events); w > viewStory || len(v.Events) >= len(long.Events) {
		t.Fatalf("a long story: the view tells %d of %d events, weighing %d; want within %d", len(v.Events), len(long.Events), w, viewStory)
	}
	for _, e := range short.Events {
		if !slices.ContainsFunc(v.Events, func(f Event) bool { return f.Type == e.Type && f.Night == e.Night && f.Target == e.Target }) {
			t.Errorf("the current round's %s is not told in the long story", e.Type)
		}
	}
}
