package rules

import (
	"encoding/json"
	"reflect"
	"testing"
)

// FuzzApply decodes arbitrary bytes as an action and applies it, as a player or as
// the host, to games in several phases: nothing may panic, and a refusal must leave
// the state as it was.
func FuzzApply(f *testing.F) {
	for _, seed := range []string{
		`{"id":"a1","type":"kill","target":"p5"}`,
		`{"id":"a2","type":"vote_all","yes":true}`,
		`{"type":"seat","target":"p1","seat":99}`,
		`{"type":"configure","options":{"preset":"sport","win":"x"}}`,
		`{"type":"testament","target":"p1","verdict":"mafia"}`,
		`{"type":"nominate","target":""}`,
		`{"id":"r1","type":"reseat","target":"p4"}`, `{"type":"reseat"}`,
		`{"type":"best_move","targets":["p1","p2","p3"]}`, `{"type":"best_move","targets":["p1","p1","p2","p3"]}`,
		`[]`, `{"type":7}`, `null`,
	} {
		f.Add([]byte(seed), uint8(0), uint8(1))
	}
	states := fuzzStates(f)
	f.Fuzz(func(t *testing.T, data []byte, which, who uint8) {
		var a Action
		if json.Unmarshal(data, &a) != nil {
			return
		}
		s := states[int(which)%len(states)]
		actor := Actor{Host: who == 0}
		if !actor.Host {
			actor.Player = id(int(who % 12))
		}
		before := s.clone()
		next, err := Apply(s, actor, a, t0.Add(90e9))
		if err != nil && !reflect.DeepEqual(next, before) {
			t.Fatalf("refused %s changed the state", a.Type)
		}
		_ = ViewOf(next, Viewer(actor), t0)
	})
}

// fuzzStates are games in the lobby, at night, in a speech and in a vote.
func fuzzStates(tb testing.TB) []State {
	o, _ := Preset(PresetSport)
	lobby, _ := New("FUZZ01", o, ModeratorApp, "en", t0)
	g := sport10(tb)
	night := g.s
	g.quietNight()
	day := g.s
	g.speeches(map[int]int{1: 5, 2: 6})
	return []State{lobby, night, day, g.s}
}

// FuzzMove moves any seat id, of games in several phases, to another device:
// nothing may panic, a refusal leaves the state as it was, and a move changes
// no view but for its line of the story.
func FuzzMove(f *testing.F) {
	for _, seed := range []string{"p1", "p10", "p11", "", "p01", "host", "\x00"} {
		f.Add(seed, uint8(0))
	}
	states := fuzzStates(f)
	f.Fuzz(func(t *testing.T, who string, which uint8) {
		s := states[int(which)%len(states)]
		before := s.clone()
		next, err := Move(s, who, "", t0.Add(90e9))
		if err != nil {
			if !reflect.DeepEqual(next, before) {
				t.Fatalf("the refused move of %q changed the state", who)
			}
			return
		}
		if err := movedOnly(s, next, who, t0.Add(90e9)); err != nil {
			t.Fatal(err)
		}
	})
}
