package ratings_test

import (
	"encoding/json"
	"slices"
	"testing"
)

// brokenCases are records the site refuses or finds issues in: the club
// game's export with one thing broken, and what the site says.
var brokenCases = []struct {
	name   string
	break_ func(g map[string]any)
	issues []string // the site's issues, all of them
	fatal  string   // or the error with which it refuses the record
}{
	{"a black player shot another seat on the night of a kill", func(g map[string]any) {
		player(g, 2)["shooting"] = []any{8}
	}, []string{"Wrong shooting to player 7 in round 1 for player 2. Because player 7was shot in night 1."}, ""},
	{"a black player did not shoot", func(g map[string]any) {
		delete(player(g, 3), "shooting")
	}, []string{"Shooting is not set for player 3."}, ""},
	{"a red player shot", func(g map[string]any) {
		player(g, 9)["shooting"] = []any{7}
	}, []string{"Player 9 can not shoot because he/she is red.", "Player 9 is not mafia but they were shooting ."}, ""},
	{"the killed voted in a later round", func(g map[string]any) {
		player(g, 7)["voting"] = []any{[]any{5, 5, false}, nil, 9}
	}, []string{"Player 7 is voting for someone after he/she is dead.", "Player 9 was voted out in round 2 but did not die."}, ""},
	{"a voted out player did not leave", func(g map[string]any) {
		delete(player(g, 6), "death")
	}, []string{"Player was voted out in round 0 but is not dead."}, ""},
	{"the voted out left at night", func(g map[string]any) {
		player(g, 5)["death"] = map[string]any{"round": 0, "type": "night"}
	}, []string{"Player 1 was shot in night 0. This is not possible.", "Player 1 nominated dead player 5 in round 0.",
		"Player 4 voted for dead player 5 in round 0.", "Player 6 voted for dead player 5 in round 0.",
		"Player 7 voted for dead player 5 in round 0.", "Player 8 voted for dead player 5 in round 0.",
		"Player 9 voted for dead player 5 in round 0.", "Player was voted out in round 0 but was dead by night."}, ""},
	{"a player at the table did not vote", func(g map[string]any) {
		delete(player(g, 9), "voting")
	}, []string{"Player 9 did not vote in round 0. Although they were alive and voting was not canceled.",
		"Player 5 is specified as voted out in round 0. But accordiong to the voting info, another player was voted out."}, ""},
	{"a vote for a player nobody nominated", func(g map[string]any) {
		player(g, 9)["voting"] = []any{[]any{6, 2, false}}
	}, []string{"Player 9 voted for player 2, who is not nominated in round 0.",
		"Player 5 is specified as voted out in round 0. But accordiong to the voting info, another player was voted out."}, ""},
	{"the best move of a player voted out", func(g map[string]any) {
		player(g, 5)["legacy"] = []any{1, 2, 3}
	}, []string{"Player 5 was not killed in night. he/she can not leave legacy."}, ""},
	{"a nomination by the killed", func(g map[string]any) {
		player(g, 7)["nominating"] = []any{nil, 3}
	}, []string{"Player 7 was dead when they nominated player 3 in round 1."}, ""},
	{"a removal with no moment", func(g map[string]any) {
		delete(player(g, 8)["death"].(map[string]any), "time")
	}, []string{"Death time is not set for player 8."}, ""},
	{"a warning with no speaker", func(g map[string]any) {
		player(g, 3)["warnings"] = []any{map[string]any{"round": 0, "time": "speaking"}}
	}, []string{`Player 3 warning 1 is incorect: speaker must be set when time is "speaking".`}, ""},
	{"five warnings", func(g map[string]any) {
		w := map[string]any{"round": 0, "time": "start"}
		player(g, 4)["warnings"] = []any{w, w, w, w, w}
	}, []string{"Player 4 has 5 warnings."}, ""},
	{"a death type the site does not know", func(g map[string]any) {
		player(g, 8)["death"].(map[string]any)["type"] = "testament"
	}, nil, `Player 8 has invalid death type "testament". Death type must be one of: "day", "night", "warnings", "techFouls", "kickOut", "teamKickOut", or "giveUp".`},
	{"a Doctor", func(g map[string]any) {
		player(g, 9)["role"] = "doctor"
	}, nil, `Player 9 has invalid role "doctor". Role must be one of: "civ", "sheriff", "maf", or "don".`},
	{"three mafia", func(g map[string]any) {
		player(g, 9)["role"] = "maf"
	}, nil, "This game has 5 civilians. Must be 6."},
	{"nine players", func(g map[string]any) {
		g["players"] = g["players"].([]any)[:9]
	}, nil, "Field players must be an array of size 10 in the game."},
}

// player is seat n of a decoded game.
func player(g map[string]any, n int) map[string]any {
	return g["players"].([]any)[n-1].(map[string]any)
}

// TestValidatorFinds: the checks find in a broken record what the site's
// Game::check finds, in its words: the issues of each case are the site's.
func TestValidatorFinds(t *testing.T) {
	data, err := json.Marshal(export(t, clubProtocol(t)))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range brokenCases {
		t.Run(c.name, func(t *testing.T) {
			var g map[string]any
			if err := json.Unmarshal(data, &g); err != nil {
				t.Fatal(err)
			}
			c.break_(g)
			broken, err := json.Marshal(g)
			if err != nil {
				t.Fatal(err)
			}
			issues, err := validate(broken)
			if c.fatal != "" {
				if err == nil || err.Error() != c.fatal {
					t.Errorf("refused with %v, want %q", err, c.fatal)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			slices.Sort(issues)
			if want := slices.Sorted(slices.Values(c.issues)); !slices.Equal(issues, want) {
				t.Errorf("issues\n%q\nwant\n%q", issues, want)
			}
		})
	}
}
