package rules

import "testing"

// TestPace: a client polls fast only while another's act may hand it something to
// do; the shared screen follows the table; everyone else waits.
func TestPace(t *testing.T) {
	g := sport10(t)
	pace := func(v Viewer) Pace { return PaceOf(g.s, v, g.now) }
	// Night: everyone has a task.
	if p := pace(Viewer{Player: id(5)}); p != PaceActing {
		t.Errorf("night, a citizen with his task: %v", p)
	}
	g.quietNight()
	// Day 1, seat 1 speaks: seat 2 is next and may be asked any moment; seat 7
	// waits; the shared screen watches.
	for seat, want := range map[int]Pace{1: PaceActing, 2: PaceUrgent, 7: PaceIdle} {
		if p := pace(Viewer{Player: id(seat)}); p != want {
			t.Errorf("day 1, seat %d: %v, want %v", seat, p, want)
		}
	}
	if p := pace(Public); p != PaceWatching {
		t.Errorf("shared screen: %v", p)
	}
	// The last speech: the vote is about to open for everyone.
	g.do(1, ActNominate, 7)
	for g.s.speaker() != id(10) {
		g.do(g.s.player(g.s.speaker()).Seat, ActEndSpeech, 0)
	}
	g.do(10, ActNominate, 8)
	if p := pace(Viewer{Player: id(4)}); p != PaceUrgent {
		t.Errorf("last speech, a voter: %v", p)
	}
	// Paused: nothing moves but the host.
	g.host(Action{Type: ActPause})
	if p := pace(Viewer{Player: id(4)}); p != PaceIdle {
		t.Errorf("paused: %v", p)
	}
	// A human moderator may end any step: the next speaker is urgent even when
	// the speaker is slow.
	g.host(Action{Type: ActResume})
	g.s.Moderator = ModeratorHost
	if p := pace(Viewer{Player: id(1)}); p != PaceUrgent {
		t.Errorf("moderated, the vote ahead: %v", p)
	}
}
