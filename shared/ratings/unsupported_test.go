package ratings_test

import (
	"fmt"
	"strings"
	"testing"

	"citysleeps/shared/protocol"
	"citysleeps/shared/ratings"
	"citysleeps/shared/rules"
)

// TestUnsupported: the games the format cannot tell, each refused with a
// reason that says why.
func TestUnsupported(t *testing.T) {
	tests := []struct {
		name   string
		change func(p *protocol.Protocol)
		reason string
	}{
		{"not over", func(p *protocol.Protocol) { p.Over = false }, "the game is not over"},
		{"incomplete", func(p *protocol.Protocol) { p.Complete, p.WholeFrom = false, 3 }, "whole only from night 3"},
		{"nine players", func(p *protocol.Protocol) { p.Seats = p.Seats[:9] }, "10 players, this one has 9"},
		{"eleven players", func(p *protocol.Protocol) {
			p.Seats = append(p.Seats, protocol.Seat{Seat: 11, Name: "Player 11", Role: rules.Citizen, Team: rules.Town, Alive: true})
		}, "10 players, this one has 11"},
		{"a doctor", func(p *protocol.Protocol) { p.Seats[4].Role = rules.Doctor }, "this one deals citizen: 5, sheriff: 1, mafia: 2, don: 1, doctor: 1"},
		{"a maniac", func(p *protocol.Protocol) { p.Seats[4].Role, p.Seats[4].Team = rules.Maniac, rules.Loner }, "maniac: 1"},
		{"three mafia, no don", func(p *protocol.Protocol) { p.Seats[0].Role = rules.Mafia }, "this one deals citizen: 6, sheriff: 1, mafia: 3"},
		{"a seat with no card", func(p *protocol.Protocol) { p.Seats[9].Role = "" }, "no card: 1"},
		{"seats out of order", func(p *protocol.Protocol) { p.Seats[0], p.Seats[1] = p.Seats[1], p.Seats[0] }, "seat 1 of the protocol is numbered 2"},
		{"no meeting night", func(p *protocol.Protocol) { p.Rules.FirstNightMeeting = false }, "the first night is not a meeting"},
		{"the maniac won", func(p *protocol.Protocol) { p.Winner = rules.Loner }, `the winner is "maniac"`},
		{"the Sheriff's shot", func(p *protocol.Protocol) { p.Seats[6].Left.Cause = rules.CauseSheriff }, "night 2: seat 7 was killed by the Sheriff's shot"},
		{"a double death", func(p *protocol.Protocol) { p.Seats[6].Left.Cause = rules.CauseDoubleDeath }, "killed by the double death"},
		{"a testament", func(p *protocol.Protocol) {
			p.Seats[7].Left = &protocol.Departure{Seat: 8, When: protocol.When{Night: 2}, How: protocol.LeftTestament, Rule: "R-CLASSIC-07"}
		}, "night 2: seat 8 left named in the Commissar's testament (R-CLASSIC-07)"},
		{"a reveal", func(p *protocol.Protocol) {
			p.Seats[7].Left = &protocol.Departure{Seat: 8, When: protocol.When{Day: 2}, How: protocol.LeftReveal, Rule: "R-PARTY-04"}
		}, "day 2: seat 8 left named by the Commissar who showed his card"},
		{"a shot that missed", func(p *protocol.Protocol) {
			p.Nights[1].Acts = append(p.Nights[1].Acts, protocol.Act{Seat: 4, Act: rules.ActShoot, Target: 9})
		}, `night 2: seat 4's night act "shoot"`},
		{"a heal", func(p *protocol.Protocol) {
			p.Nights[1].Acts = append(p.Nights[1].Acts, protocol.Act{Seat: 9, Act: rules.ActHeal, Target: 9})
		}, `night act "heal"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := clubProtocol(t)
			tt.change(&p)
			_, err := ratings.MafiaRatings(p)
			u, ok := ratings.AsUnsupported(err)
			if !ok {
				t.Fatalf("got %v, want Unsupported", err)
			}
			if !strings.Contains(u.Reason, tt.reason) {
				t.Errorf("reason %q, want it to say %q", u.Reason, tt.reason)
			}
			if !strings.HasPrefix(err.Error(), "mafiaratings cannot tell this game: ") {
				t.Errorf("error %q", err)
			}
		})
	}
}

// TestUnsupportedFromEngine: the rule sets whose deal is not the site's are
// refused whatever happens in them: the presets as they are (classic deals
// three mafia and no Don, party an Advocate and Cinderella, maniac a Doctor
// and a Maniac), and sport at a table the preset does not have.
func TestUnsupportedFromEngine(t *testing.T) {
	for _, preset := range []string{rules.PresetClassic, rules.PresetParty, rules.PresetManiac} {
		o, err := rules.Preset(preset)
		if err != nil {
			t.Fatal(err)
		}
		o.MinPlayers, o.MaxPlayers = 10, 10
		s, err := rules.New("DEAL", o, rules.ModeratorHost, "en", t0)
		if err != nil {
			t.Fatal(err)
		}
		for i := range 10 {
			if s, _, err = rules.Join(s, fmt.Sprintf("Player %d", i+1), t0); err != nil {
				t.Fatal(err)
			}
		}
		if s, err = rules.Apply(s, host, rules.Action{Type: rules.ActStart}, t0); err != nil {
			t.Fatal(err)
		}
		p := protocol.Of(s)
		p.Over, p.Winner = true, rules.Town // the deal alone decides
		_, err = ratings.MafiaRatings(p)
		if u, ok := ratings.AsUnsupported(err); !ok || !strings.Contains(u.Reason, "mafiaratings' games deal 6 citizens") {
			t.Errorf("%s: %v", preset, err)
		}
	}
}
