package rules

import (
	"errors"
	"slices"
	"testing"
)

// options returns the types of the options of the player in seat.
func (g *game) options(seat int) []ActionType {
	var out []ActionType
	for _, o := range Legal(g.s, Actor{Player: id(seat)}) {
		out = append(out, o.Type)
	}
	return out
}

// myVote is the ballot the player in seat sees as theirs.
func (g *game) myVote(seat int) *Ballot {
	return ViewOf(g.s, Viewer{Player: id(seat)}, g.now).You.Vote
}

// TestVoteChange: at a home or party table hands go up and down until the host
// counts (R-CLASSIC-03, R-PARTY-09): a player takes the vote back and votes
// again, and only the last choice is counted.
func TestVoteChange(t *testing.T) {
	for _, preset := range []string{PresetClassic, PresetParty} {
		if o, _ := Preset(preset); !o.VoteChange {
			t.Errorf("%s: votes cannot change", preset)
		}
	}
	g := newGame(t, PresetClassic, 7, nil, Mafia, Mafia, Sheriff)
	g.quietNight()
	g.speeches(nil)
	g.do(4, ActVote, 1)
	if got := g.options(4); !slices.Equal(got, []ActionType{ActWithdraw}) {
		t.Fatalf("after voting seat 4 may %v, want only to take the vote back", got)
	}
	if b := g.myVote(4); b == nil || b.Target != id(1) {
		t.Fatalf("seat 4 sees its vote as %+v", b)
	}
	// Nobody else sees whom seat 4 voted for, only that it voted.
	if b := ViewOf(g.s, Viewer{Player: id(5)}, g.now).You.Vote; b != nil {
		t.Fatalf("seat 5 sees a vote of its own: %+v", b)
	}
	pub := ViewOf(g.s, Public, g.now)
	if !slices.Equal(pub.Phase.Voted, []string{id(4)}) || pub.Phase.Pending != 6 {
		t.Fatalf("voted %v, pending %d", pub.Phase.Voted, pub.Phase.Pending)
	}
	g.do(4, ActWithdraw, 0)
	if got := g.options(4); !slices.Equal(got, []ActionType{ActVote}) || g.myVote(4) != nil {
		t.Fatalf("after taking the vote back seat 4 may %v and has the vote %+v", got, g.myVote(4))
	}
	if pub := ViewOf(g.s, Public, g.now); len(pub.Phase.Voted) != 0 || pub.Phase.Pending != 7 {
		t.Fatalf("a withdrawn vote still counts as cast: voted %v, pending %d", pub.Phase.Voted, pub.Phase.Pending)
	}
	g.refuse(4, Action{Type: ActWithdraw}, ErrWrongPhase) // nothing left to take back
	g.do(4, ActVote, 2)
	g.vote(map[int]int{1: 7, 2: 7, 3: 7, 5: 2, 6: 2, 7: 2})
	g.wantDead(2)
	for _, e := range g.s.Events {
		if e.Type == EvVoted {
			if i := slices.IndexFunc(e.Ballots, func(b Ballot) bool { return b.Voter == id(4) }); i < 0 || e.Ballots[i].Target != id(2) || len(e.Ballots) != 7 {
				t.Fatalf("the count has ballots %+v, want seat 4's last choice once", e.Ballots)
			}
		}
	}
}

// TestVoteFinal: in club rules a vote is final once cast: a hand taken off the
// table before "Thank you" removes the player (R-SPORT-05; text 002, rules 8-9).
func TestVoteFinal(t *testing.T) {
	for _, preset := range []string{PresetSport, PresetManiac} {
		if o, _ := Preset(preset); o.VoteChange {
			t.Errorf("%s: votes may change", preset)
		}
	}
	g := sport10(t)
	g.quietNight()
	g.do(1, ActNominate, 7)
	g.speeches(map[int]int{2: 8})
	g.do(3, ActVote, 7)
	if got := g.options(3); len(got) != 0 {
		t.Fatalf("after voting seat 3 may %v", got)
	}
	if b := g.myVote(3); b == nil || b.Target != id(7) {
		t.Fatalf("seat 3 sees its vote as %+v", b)
	}
	err := g.apply(Actor{Player: id(3)}, Action{Type: ActWithdraw})
	if !errors.Is(err, ErrWrongPhase) || err.Error() != "rules: votes are final under these rules" {
		t.Fatalf("withdrawing a final vote: %v", err)
	}
}

// TestVoteChangeEnds: a vote can change only while it is open. The last ballot
// closes it (in the hand-over every phone is told the count comes), and from
// then on every vote is final. A "shall they leave?" vote's yes or no changes
// the same way (R-SPORT-07).
func TestVoteChangeEnds(t *testing.T) {
	g := newGame(t, PresetClassic, 7, nil, Mafia, Mafia, Sheriff)
	g.quietNight()
	g.speeches(nil)
	g.vote(map[int]int{1: 7, 2: 7, 3: 7, 4: 7, 5: 7, 6: 7})
	last, err := Apply(g.s, Actor{Player: id(7)}, Action{Type: ActVote, Target: id(1)}, g.now)
	if err != nil || !last.Phase.Closing {
		t.Fatalf("the last vote: closing %v, %v", last.Phase.Closing, err)
	}
	for seat := 1; seat <= 7; seat++ {
		if o := Legal(last, Actor{Player: id(seat)}); len(o) != 0 {
			t.Errorf("seat %d may %v after the vote closed", seat, o)
		}
		if _, err := Apply(last, Actor{Player: id(seat)}, Action{Type: ActWithdraw}, g.now); err == nil {
			t.Errorf("seat %d took a vote back in the hand-over", seat)
		}
	}
	g.s = last
	g.tick(seconds(g.s.Rules.HandOver))
	g.wantDead(7)

	// "Shall they leave?": a yes becomes a no.
	c := newGame(t, PresetSport, 10, func(o *Options) { o.VoteChange = true }, Don, Mafia, Mafia, Sheriff)
	c.quietNight()
	c.do(1, ActNominate, 7)
	c.speeches(map[int]int{2: 8})
	c.vote(map[int]int{1: 7, 2: 7, 3: 7, 4: 7, 5: 7, 6: 8, 7: 8, 8: 8, 9: 8, 10: 8})
	c.speeches(nil)
	c.vote(map[int]int{1: 7, 2: 7, 3: 7, 4: 7, 5: 7, 6: 8, 7: 8, 8: 8, 9: 8, 10: 8})
	c.want(PhaseVoteAll)
	yes, no := true, false
	if err := c.apply(Actor{Player: id(1)}, Action{Type: ActVoteAll, Yes: &yes}); err != nil {
		t.Fatal(err)
	}
	c.do(1, ActWithdraw, 0)
	if err := c.apply(Actor{Player: id(1)}, Action{Type: ActVoteAll, Yes: &no}); err != nil {
		t.Fatal(err)
	}
	if b := c.myVote(1); b == nil || b.Yes {
		t.Fatalf("seat 1's answer is %+v, want no", b)
	}
}

// TestRemovedAccused: when every accused is removed during the defence
// (R-SPORT-16), nobody is left to vote on and nobody leaves by vote today.
func TestRemovedAccused(t *testing.T) {
	g := newGame(t, PresetParty, 9, nil, Mafia, Mafia, Mafia, Sheriff)
	g.quietNight()
	g.speeches(map[int]int{1: 5})
	g.want(PhaseDefence)
	g.host(Action{Type: ActRemove, Target: id(5)})
	g.want(PhaseNight)
	g.wantEvent(EvAcquitted, 0, "removed")
}
