package rules

import (
	"errors"
	"slices"
	"testing"
	"time"
)

// TestSportTable: exactly 10 players, 7 red with one Sheriff and 3 black with one
// Don; seats drawn by lot (R-SPORT-01).
func TestSportTable(t *testing.T) {
	o, _ := Preset(PresetSport)
	deck := o.Deck(10)
	count := map[Role]int{}
	for _, r := range deck {
		count[r]++
	}
	if count[Don] != 1 || count[Mafia] != 2 || count[Sheriff] != 1 || count[Citizen] != 6 {
		t.Fatalf("R-SPORT-01: deck %v", count)
	}
	for _, n := range []int{7, 9, 11} {
		if err := o.ValidateTable(n); !errors.Is(err, ErrInvalidTable) {
			t.Errorf("R-SPORT-01: a sport table of %d: %v", n, err)
		}
	}
	// Seats by lot: the deal reorders the lobby, differently for different seeds.
	orders := map[string]bool{}
	for seed := range byte(5) {
		s, _ := New("SEATS1", o, ModeratorApp, "en", t0)
		for _, name := range []string{"a", "b", "c", "d", "e", "f", "g", "h", "i", "j"} {
			s, _, _ = Join(s, name, t0)
		}
		a := Action{Type: ActStart}
		a.Deal[0] = seed
		s, err := Apply(s, Actor{Host: true}, a, t0)
		if err != nil {
			t.Fatal(err)
		}
		var order string
		for i, p := range s.Players {
			if p.Seat != i+1 {
				t.Fatalf("seat numbers %v", s.Players)
			}
			order += p.Name
		}
		orders[order] = true
	}
	if len(orders) < 2 {
		t.Fatal("R-SPORT-01: seats are not drawn by lot")
	}
}

// TestValidate refuses impossible mixes with a clear error.
func TestValidate(t *testing.T) {
	for name, tweak := range map[string]func(*Options){
		"3 mafia among 4":        func(o *Options) { o.MinPlayers, o.MaxPlayers, o.Mafia = 4, 4, 3 },
		"unknown win":            func(o *Options) { o.Win = "chess" },
		"speech of 1 second":     func(o *Options) { o.Speech = 1 },
		"don checks with no don": func(o *Options) { o.Don = false },
		"testament, no sheriff":  func(o *Options) { o.Sheriff = false; o.Testament = true },
		"mute after removal":     func(o *Options) { o.WarningsToMute = 5 },
		"min above max":          func(o *Options) { o.MinPlayers, o.MaxPlayers = 10, 8 },
		"checks, no meeting":     func(o *Options) { o.FirstNightMeeting, o.FirstNightChecks = false, true },
		"justified, no justify":  func(o *Options) { o.JustifiedLeaves = true },
		"whole round, no mute":   func(o *Options) { o.WarningsToMute, o.MuteWholeRound = 0, true },
		"apart, no maniac":       func(o *Options) { o.LoneManiacApart = true },
		"unknown day opener":     func(o *Options) { o.DayOpener = "seat_7" },
		"parity at the start": func(o *Options) {
			o.MinPlayers, o.MaxPlayers, o.Maniac, o.ManiacSide = 8, 8, true, "mafia"
			o.Mafia = 3
		},
	} {
		o, _ := Preset(PresetCustom)
		tweak(&o)
		if err := o.Validate(); !errors.Is(err, ErrInvalidOptions) && !errors.Is(err, ErrInvalidTable) {
			t.Errorf("%s: %v", name, err)
		}
	}
	for _, name := range Presets {
		o, err := Preset(name)
		if err != nil || o.Validate() != nil {
			t.Errorf("preset %s: %v %v", name, err, o.Validate())
		}
	}
	if _, err := Preset("chess"); !errors.Is(err, ErrInvalidOptions) {
		t.Error("an unknown preset is accepted")
	}
}

// TestLobby: joining, names, leaving, kicking, seating, configuring.
func TestLobby(t *testing.T) {
	o, _ := Preset(PresetClassic)
	s, _ := New("LOBBY1", o, ModeratorApp, "ru", t0)
	s, a, _ := Join(s, "Аня", t0)
	s, b, _ := Join(s, "Борис", t0)
	s, c, _ := Join(s, "Вера", t0)
	if _, _, err := Join(s, "Аня", t0); !errors.Is(err, ErrNameTaken) {
		t.Fatalf("duplicate name: %v", err)
	}
	if _, _, err := Join(s, "", t0); !errors.Is(err, ErrBadField) {
		t.Fatalf("empty name: %v", err)
	}
	if _, err := Apply(s, Actor{Host: true}, Action{Type: ActStart}, t0); !errors.Is(err, ErrWrongPhase) {
		t.Fatalf("start with 3 of 5: %v", err)
	}
	s, err := Apply(s, Actor{Host: true}, Action{Type: ActSeat, Target: c, Seat: 1}, t0)
	if err != nil || s.Players[0].ID != c || s.Players[1].Seat != 2 {
		t.Fatalf("seat: %v %v", err, s.Players)
	}
	s, _ = Apply(s, Actor{Player: b}, Action{Type: ActLeave}, t0)
	s, _ = Apply(s, Actor{Host: true}, Action{Type: ActKick, Target: a}, t0)
	if len(s.Players) != 1 || s.Players[0].Seat != 1 {
		t.Fatalf("after leave and kick: %v", s.Players)
	}
	if _, err := Apply(s, Actor{Player: c}, Action{Type: ActKick, Target: c}, t0); !errors.Is(err, ErrNotHost) {
		t.Fatalf("a player kicks: %v", err)
	}
	o.Speech = 90
	s, err = Apply(s, Actor{Host: true}, Action{Type: ActConfigure, Options: &o}, t0)
	if err != nil || s.Rules.Speech != 90 {
		t.Fatalf("configure: %v", err)
	}
	bad := o
	bad.Win = "nobody"
	if _, err := Apply(s, Actor{Host: true}, Action{Type: ActConfigure, Options: &bad}, t0); !errors.Is(err, ErrInvalidOptions) {
		t.Fatalf("configure bad: %v", err)
	}
}

// TestRefusals: each kind of refusal has its own error, and changes nothing.
func TestRefusals(t *testing.T) {
	g := sport10(t)
	g.refuse(1, Action{Type: "fly"}, ErrUnknownAction)
	g.refuse(1, Action{Type: ActStart}, ErrNotHost)
	g.refuse(1, Action{Type: ActVote, Target: id(2)}, ErrWrongPhase)
	g.refuse(99, Action{Type: ActSleep}, ErrNotPlayer)
	g.quietNight()
	g.refuse(3, Action{Type: ActEndSpeech}, ErrNotYourTurn)
	g.refuse(1, Action{Type: ActNominate, Target: "p77"}, ErrBadTarget)
	g.refuse(1, Action{Type: ActKill, Target: id(5)}, ErrWrongPhase)
	g.speeches(nil)
	g.night(map[int][]string{1: {"kill:5"}})
	if err := g.apply(Actor{Host: true}, Action{Type: ActVoteAll}); !errors.Is(err, ErrNotPlayer) {
		t.Fatalf("host votes: %v", err)
	}
	// Game over: everything is refused.
	for _, seat := range []int{1, 2, 3} {
		g.s.player(id(seat)).Alive = false
	}
	g.s.checkWin(g.now)
	g.refuse(4, Action{Type: ActEndSpeech}, ErrGameOver)
}

// TestNightAlreadyActed: one shot a night; once a player has finished, no more acts.
func TestNightAlreadyActed(t *testing.T) {
	g := sport10(t)
	g.quietNight()
	g.skipDay()
	g.do(2, ActKill, 5)
	g.refuse(2, Action{Type: ActKill, Target: id(6)}, ErrAlreadyActed)
	g.do(7, ActSleep, 0)
	g.refuse(7, Action{Type: ActSleep}, ErrAlreadyActed)
	g.refuse(7, Action{Type: ActKill, Target: id(5)}, ErrAlreadyActed)
	g.refuse(8, Action{Type: ActCheck, Target: id(5)}, ErrNotYourRole)
	// The Don taps once in each wake like everyone: his shot now, and his check
	// in the second wake (R-SPORT-11), which the whole table wakes for.
	g.do(1, ActKill, 5)
	if !slices.Contains(g.s.Done, id(1)) {
		t.Fatal("the Don is not done after his one tap of the wake")
	}
	g.sleepRest()
	if g.s.Phase.Name != PhaseNight || g.s.Phase.Wake != 2 {
		t.Fatalf("after the first wake: %s wake %d", g.s.Phase.Name, g.s.Phase.Wake)
	}
	if opts := Legal(g.s, Actor{Player: id(1)}); len(opts) != 2 || opts[0].Type != ActCheck || opts[1].Type != ActSleep {
		t.Fatalf("R-SPORT-11: the Don's second wake offers %v", opts)
	}
	g.refuse(2, Action{Type: ActKill, Target: id(6)}, ErrAlreadyActed)
}

// TestEveryoneHasANightTask: every living player has something to tap each night, and
// the same number of taps finishes the night for a citizen and a one-act role.
func TestEveryoneHasANightTask(t *testing.T) {
	g := party9(t, nil)
	g.quietNight()
	g.skipDay()
	for _, p := range g.s.living() {
		opts := Legal(g.s, Actor{Player: p.ID})
		if !slices.ContainsFunc(opts, func(o Option) bool { return o.Type == ActSleep }) {
			t.Errorf("%s (%s) has no sleep: %v", p.ID, p.Role, opts)
		}
	}
}

// TestViewBoundary checks the security boundary of each viewer in one position.
func TestViewBoundary(t *testing.T) {
	g := sport10(t)
	g.quietNight()
	g.skipDay()
	g.night(map[int][]string{1: {"kill:5", "check:4"}, 2: {"kill:5"}, 4: {"check:2"}})
	roles := func(v View) map[string]Role {
		m := map[string]Role{}
		for _, p := range v.Players {
			if p.Role != "" {
				m[p.ID] = p.Role
			}
		}
		return m
	}
	// A mafia player sees the black team, not the Sheriff.
	if m := roles(ViewOf(g.s, Viewer{Player: id(2)}, g.now)); len(m) != 3 || m[id(1)] != Don {
		t.Errorf("mafia sees %v", m)
	}
	// The Sheriff sees himself only, and his own check.
	v := ViewOf(g.s, Viewer{Player: id(4)}, g.now)
	if m := roles(v); len(m) != 1 || len(v.You.Checks) != 1 {
		t.Errorf("sheriff sees %v, checks %v", m, v.You.Checks)
	}
	// The public screen and the app-mode host see no role.
	for _, viewer := range []Viewer{Public, {Host: true}} {
		if m := roles(ViewOf(g.s, viewer, g.now)); len(m) != 0 {
			t.Errorf("%+v sees %v", viewer, m)
		}
	}
	// A citizen sees no check, no shot.
	for _, e := range ViewOf(g.s, Viewer{Player: id(7)}, g.now).Events {
		if e.Type == EvChecked || e.Type == EvShot || e.Type == EvAct {
			t.Errorf("citizen sees %+v", e)
		}
	}
	// A moderator in host mode sees everything.
	g.s.Moderator = ModeratorHost
	if m := roles(ViewOf(g.s, Viewer{Host: true}, g.now)); len(m) != 10 {
		t.Errorf("moderator sees %d roles", len(m))
	}
	g.s.Moderator = ModeratorApp
	// At the end everyone sees every role and the whole story.
	for _, seat := range []int{1, 2, 3} {
		g.s.player(id(seat)).Alive = false
	}
	g.s.checkWin(g.now)
	v = ViewOf(g.s, Public, g.now)
	if m := roles(v); len(m) != 10 || len(v.Events) != len(g.s.Events) {
		t.Errorf("game over: %d roles, %d of %d events", len(m), len(v.Events), len(g.s.Events))
	}
}

// TestTimers: in app mode deadlines move the game; a human moderator moves it with
// advance; a paused game does not move.
func TestTimers(t *testing.T) {
	g := sport10(t)
	g.tick(59 * time.Second)
	g.want(PhaseNight)
	g.tick(time.Second)
	g.want(PhaseDay)
	if g.s.speaker() != id(1) {
		t.Fatal(g.s.speaker())
	}
	g.tick(60 * time.Second)
	if g.s.speaker() != id(2) {
		t.Fatalf("speech over, speaker %s", g.s.speaker())
	}
	g.host(Action{Type: ActPause})
	g.tick(time.Hour)
	if g.s.speaker() != id(2) {
		t.Fatal("a paused game moved")
	}
	g.refuse(2, Action{Type: ActEndSpeech}, ErrPaused)
	g.host(Action{Type: ActResume})
	if left := g.s.Phase.EndsAt.Sub(g.now); left != 60*time.Second {
		t.Fatalf("resumed with %v left", left)
	}
	g.host(Action{Type: ActAdvance})
	if g.s.speaker() != id(3) {
		t.Fatal("advance did not end the speech")
	}
	// Host mode: the clock shows time but moves nothing.
	g.s.Moderator = ModeratorHost
	g.tick(time.Hour)
	if g.s.speaker() != id(3) {
		t.Fatal("the clock moved a moderated game")
	}
}

// TestApplyDoesNotMutate: Apply returns a new state and leaves its input alone.
func TestApplyDoesNotMutate(t *testing.T) {
	g := sport10(t)
	before := g.s.clone()
	if _, err := Apply(g.s, Actor{Player: id(1)}, Action{Type: ActSleep}, g.now); err != nil {
		t.Fatal(err)
	}
	if !equalState(before, g.s) {
		t.Fatal("Apply changed its input")
	}
}
