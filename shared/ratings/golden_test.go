package ratings_test

import (
	"encoding/json"
	"reflect"
	"testing"
	"time"

	"citysleeps/shared/protocol"
	"citysleeps/shared/ratings"
	"citysleeps/shared/rules"
)

// clubGame is the protocol of docs/PROTOCOL.md's example: a sport game with
// the best move and a person moderating. On day 1 seats 1 and 2 nominate 5
// and 6, seat 3 is warned, seat 10 does not vote and the vote goes to the
// last nominee; two ties, and the table sends both away. On night 2 the
// three black players shoot seat 7, the Sheriff checks the Don, the Don the
// Sheriff, and seat 7's best move names seats 1, 2 and 9. On day 2 the
// moderator removes seat 8 for peeking: the mafia win.
const clubGame = `{
  "schemaVersion": 1,
  "code": "K7QX2M",
  "lang": "en",
  "moderator": "host",
  "created": "2026-11-29T20:00:00Z",
  "over": true,
  "complete": true,
  "winner": "mafia",
  "winRule": "R-SPORT-14",
  "seats": [
    {"seat": 1, "id": "p1", "name": "Player 1", "role": "don", "team": "mafia", "alive": true},
    {"seat": 2, "id": "p2", "name": "Player 2", "role": "mafia", "team": "mafia", "alive": true},
    {
      "seat": 3,
      "id": "p3",
      "name": "Player 3",
      "role": "mafia",
      "team": "mafia",
      "alive": true,
      "fouls": [
        {"at": 6, "day": 1, "count": 1, "foul": "words"}
      ]
    },
    {"seat": 4, "id": "p4", "name": "Player 4", "role": "sheriff", "team": "town", "alive": true},
    {
      "seat": 5,
      "id": "p5",
      "name": "Player 5",
      "role": "citizen",
      "team": "town",
      "alive": false,
      "left": {"at": 14, "seat": 5, "day": 1, "how": "vote", "vote": 3, "rule": "R-SPORT-07"}
    },
    {
      "seat": 6,
      "id": "p6",
      "name": "Player 6",
      "role": "citizen",
      "team": "town",
      "alive": false,
      "left": {"at": 15, "seat": 6, "day": 1, "how": "vote", "vote": 3, "rule": "R-SPORT-07"}
    },
    {
      "seat": 7,
      "id": "p7",
      "name": "Player 7",
      "role": "citizen",
      "team": "town",
      "alive": false,
      "left": {"at": 28, "seat": 7, "night": 2, "how": "killed", "cause": "mafia", "rule": "R-SPORT-10"}
    },
    {
      "seat": 8,
      "id": "p8",
      "name": "Player 8",
      "role": "citizen",
      "team": "town",
      "alive": false,
      "left": {"at": 31, "seat": 8, "day": 2, "how": "removed", "foul": "peeking", "rule": "R-SPORT-16"}
    },
    {"seat": 9, "id": "p9", "name": "Player 9", "role": "citizen", "team": "town", "alive": true},
    {"seat": 10, "id": "p10", "name": "Player 10", "role": "citizen", "team": "town", "alive": true}
  ],
  "nights": [
    {"at": 1, "night": 1, "acts": [], "left": []},
    {
      "at": 16,
      "night": 2,
      "acts": [
        {"at": 17, "seat": 1, "act": "kill", "target": 7},
        {"at": 19, "seat": 2, "act": "kill", "target": 7},
        {"at": 21, "seat": 3, "act": "kill", "target": 7},
        {"at": 23, "seat": 4, "act": "check", "target": 1, "answer": "black"},
        {"at": 25, "seat": 1, "act": "check", "target": 4, "answer": "sheriff"}
      ],
      "left": [
        {"at": 28, "seat": 7, "night": 2, "how": "killed", "cause": "mafia", "rule": "R-SPORT-10"}
      ],
      "bestMoves": [
        {"at": 29, "seat": 7, "targets": [1, 2, 9], "black": 2}
      ]
    }
  ],
  "days": [
    {
      "at": 3,
      "day": 1,
      "nominations": [
        {"at": 4, "by": 1, "target": 5},
        {"at": 5, "by": 2, "target": 6}
      ],
      "votes": [
        {
          "at": 7,
          "round": 1,
          "kind": "vote",
          "ballots": [
            {"voter": 1, "target": 6},
            {"voter": 2, "target": 6},
            {"voter": 3, "target": 6},
            {"voter": 4, "target": 5},
            {"voter": 5, "target": 5},
            {"voter": 6, "target": 5},
            {"voter": 7, "target": 5},
            {"voter": 8, "target": 5},
            {"voter": 9, "target": 6},
            {"voter": 10, "target": 6, "missing": true}
          ],
          "tied": [5, 6]
        },
        {
          "at": 10,
          "round": 2,
          "kind": "vote",
          "ballots": [
            {"voter": 1, "target": 6},
            {"voter": 2, "target": 6},
            {"voter": 3, "target": 6},
            {"voter": 4, "target": 6},
            {"voter": 5, "target": 5},
            {"voter": 6, "target": 5},
            {"voter": 7, "target": 5},
            {"voter": 8, "target": 5},
            {"voter": 9, "target": 5},
            {"voter": 10, "target": 6}
          ],
          "tied": [5, 6]
        },
        {
          "at": 13,
          "round": 3,
          "kind": "all_leave",
          "ballots": [
            {"voter": 1, "yes": true},
            {"voter": 2, "yes": true},
            {"voter": 3, "yes": true},
            {"voter": 4, "yes": true},
            {"voter": 5, "yes": true},
            {"voter": 6, "yes": true},
            {"voter": 7, "yes": false},
            {"voter": 8, "yes": false},
            {"voter": 9, "yes": false},
            {"voter": 10, "yes": false}
          ]
        }
      ],
      "left": [
        {"at": 14, "seat": 5, "day": 1, "how": "vote", "vote": 3, "rule": "R-SPORT-07"},
        {"at": 15, "seat": 6, "day": 1, "how": "vote", "vote": 3, "rule": "R-SPORT-07"}
      ]
    },
    {
      "at": 30,
      "day": 2,
      "nominations": [],
      "votes": [],
      "left": [
        {"at": 31, "seat": 8, "day": 2, "how": "removed", "foul": "peeking", "rule": "R-SPORT-16"}
      ]
    }
  ]
}`

func clubProtocol(t *testing.T) protocol.Protocol {
	t.Helper()
	var p protocol.Protocol
	if err := json.Unmarshal([]byte(clubGame), &p); err != nil {
		t.Fatal(err)
	}
	o, err := rules.Preset(rules.PresetSport)
	if err != nil {
		t.Fatal(err)
	}
	o.BestMove = true
	p.Rules = o
	return p
}

// TestClubGame: every field of the example's export, as the site reads it:
// the rounds counted from 0 (night 1 is night 0, day 1 day 0, night 2 night
// 1), the car crash's votes as arrays ended by the vote on all leaving, the
// warning and the removal at the speech they came in, the site's ids given.
func TestClubGame(t *testing.T) {
	g := export(t, clubProtocol(t),
		ratings.ClubID(42), ratings.EventID(7), ratings.ModeratorID(894),
		ratings.UserIDs(101, 102, 103, 104, 105, 106, 107, 108, 109, 0),
		ratings.Times(t0, t0.Add(50*time.Minute)))
	got, err := json.Marshal(g)
	if err != nil {
		t.Fatal(err)
	}
	const want = `{
		"version": "1.3", "features": "gsdutclhvknwr", "clubId": 42, "eventId": 7, "rating": true,
		"startTime": "2026-11-29T20:00:00Z", "endTime": "2026-11-29T20:50:00Z", "timezone": "UTC",
		"language": "en", "rules": "0000000100100", "winner": "maf", "moderator": {"id": 894},
		"players": [
			{"id": 101, "name": "Player 1", "role": "don", "sheriff": 1, "nominating": [5], "voting": [[6, 6, true]], "shooting": [7]},
			{"id": 102, "name": "Player 2", "role": "maf", "nominating": [6], "voting": [[6, 6, true]], "shooting": [7]},
			{"id": 103, "name": "Player 3", "role": "maf", "warnings": [{"round": 0, "time": "speaking", "speaker": 2}],
				"voting": [[6, 6, true]], "shooting": [7]},
			{"id": 104, "name": "Player 4", "role": "sheriff", "don": 1, "voting": [[5, 6, true]]},
			{"id": 105, "name": "Player 5", "role": "civ", "death": {"round": 0, "type": "day"}, "voting": [[5, 5, true]]},
			{"id": 106, "name": "Player 6", "role": "civ", "death": {"round": 0, "type": "day"}, "voting": [[5, 5, true]]},
			{"id": 107, "name": "Player 7", "role": "civ", "death": {"round": 1, "type": "night"}, "legacy": [1, 2, 9],
				"voting": [[5, 5, false]]},
			{"id": 108, "name": "Player 8", "role": "civ",
				"death": {"round": 1, "type": "kickOut", "time": {"round": 1, "time": "speaking", "speaker": 2}},
				"voting": [[5, 5, false]]},
			{"id": 109, "name": "Player 9", "role": "civ", "voting": [[6, 5, false]]},
			{"name": "Player 10", "role": "civ", "voting": [[6, 6, false]]}
		]
	}`
	var a, b any
	if err := json.Unmarshal(got, &a); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(want), &b); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(a, b) {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	if len(g.Omitted) > 0 {
		t.Errorf("left out %+v", g.Omitted)
	}
}

// TestClubGameDefaults: without options the site's ids are 0 (a player's
// left out: unknown to the site), the game starts and ends when it was
// opened, and the times are in UTC; a game in Ukrainian says "ua", as the
// site codes it; a game for fun is not rated.
func TestClubGameDefaults(t *testing.T) {
	p := clubProtocol(t)
	p.Lang = "uk"
	g := export(t, p, ratings.NotRated())
	if g.ClubID != 0 || g.EventID != 0 || g.Moderator.ID != 0 || g.Players[0].ID != 0 {
		t.Errorf("ids %d %d %d %d, want 0", g.ClubID, g.EventID, g.Moderator.ID, g.Players[0].ID)
	}
	if g.StartTime != "2026-11-29T20:00:00Z" || g.EndTime != g.StartTime || g.Timezone != "UTC" {
		t.Errorf("times %s to %s in %s", g.StartTime, g.EndTime, g.Timezone)
	}
	if g.Language != "ua" || g.Rating {
		t.Errorf("language %q, rating %v", g.Language, g.Rating)
	}
	kyiv := time.FixedZone("EET", 2*60*60)
	g = export(t, p, ratings.In(kyiv))
	if g.StartTime != "2026-11-29T22:00:00+02:00" || g.Timezone != "EET" {
		t.Errorf("in EET: %s, %s", g.StartTime, g.Timezone)
	}
}
