package loadgen

import (
	"context"
	"testing"
	"time"

	"citysleeps/shared/rules"
)

// TestRealGames plays one real game for each way of moderating, in virtual
// time through the real handler, and checks what the bill and the "seen in
// time" figures rest on: the game ends at people's pace, every kind of request
// is counted, steps open and every kind of client shows them, every public
// change reaches every client, the play is timed, the bill is priced. The
// figures themselves (the cost of a game, how soon each client shows a step,
// the share of play in hand-overs) are the load tool's to print, from 80 games
// (make bench), and never judged here: under the race detector the handler is
// many times slower, and Lambda's bill follows its time.
//
// Two games show the point, one preset for each way of moderating (the app's
// game with its shared screen; a person's with the console beside it); the
// other presets play their real games in make bench. They get a deadline of
// their own, well inside the package's.
func TestRealGames(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), realGamesDeadline)
	defer cancel()
	var games []RealGame
	for i, c := range []struct{ preset, moderator string }{
		{rules.PresetSport, rules.ModeratorApp},
		{rules.PresetManiac, rules.ModeratorHost},
	} {
		g, err := PlayReal(ctx, c.preset, c.moderator, uint64(i+1), People, nil)
		if err != nil {
			t.Fatal(err)
		}
		games = append(games, g)
	}
	rep := SummarizeReal(games)
	t.Log("\n" + rep.Text())
	for _, mode := range Moderators {
		m := rep.Modes[mode]
		if m == nil {
			t.Fatalf("no game moderated by %s", mode)
		}
		if m.MeanMinutes < 15 || m.MeanMinutes > 90 {
			t.Errorf("%s: a real game lasted %.1f minutes; people's pace is off", mode, m.MeanMinutes)
		}
		u := m.Usage.Kinds
		if u[KindPoll304].Requests == 0 || u[KindPoll200].Requests == 0 || u[KindAction].Requests == 0 || u[KindJoin].Requests != int64(10*m.Games) {
			t.Errorf("%s: requests counted: %+v", mode, u)
		}
		kinds := []string{ClientPhone, ClientScreen}
		if mode == rules.ModeratorHost {
			kinds = append(kinds, ClientConsole)
		}
		for _, k := range kinds {
			if m.Opened[k].N < 30*m.Games {
				t.Errorf("%s: %d step openings measured on a %s", mode, m.Opened[k].N, k)
			}
			if n := m.Public[k].N; n < 100*m.Games {
				t.Errorf("%s: %d public changes measured on a %s", mode, n, k)
			}
		}
		if m.DeadAirPct <= 0 || m.DeadAirPct >= 50 {
			t.Errorf("%s: %.1f%% of play in hand-overs", mode, m.DeadAirPct)
		}
		if m.Cost.Total <= 0 || m.Cost.Requests < 1000 {
			t.Errorf("%s: cost %+v", mode, m.Cost)
		}
	}
	if len(rep.Targets) == 0 {
		t.Error("the report judges no target")
	}
}

// realGamesDeadline bounds TestRealGames: a game takes about a second, and
// under a minute under the race detector on a busy machine.
const realGamesDeadline = 4 * time.Minute
