package protocol_test

import (
	"cmp"
	"fmt"
	"slices"
	"testing"
	"time"

	"pgregory.net/rapid"

	"citysleeps/shared/protocol"
	"citysleeps/shared/rules"
)

var t0 = time.Date(2026, 11, 29, 20, 0, 0, 0, time.UTC)

var host = rules.Actor{Host: true}

// drawRules draws a preset, or a custom mix of the options the rule sets vary
// on that validates.
func drawRules(t *rapid.T) rules.Options {
	name := rapid.SampledFrom(rules.Presets).Draw(t, "preset")
	o, _ := rules.Preset(name)
	if name != rules.PresetCustom {
		return o
	}
	for {
		c := o
		c.MinPlayers = rapid.IntRange(6, 12).Draw(t, "min")
		c.MaxPlayers = c.MinPlayers + rapid.IntRange(0, 3).Draw(t, "spread")
		for _, f := range []*bool{&c.Doctor, &c.Lover, &c.Advocate, &c.Cinderella, &c.Maniac, &c.OpenRoles, &c.LastPairMafia,
			&c.FirstNightMeeting, &c.IntroRound, &c.Day1SingleNomineeStays, &c.FourLeftNoRevote, &c.HalfVote, &c.VoteChange,
			&c.DoctorOncePerPlayer, &c.DoctorNamesPatient, &c.EyesClosed, &c.DonChecks, &c.BestMove} {
			*f = rapid.Bool().Draw(t, "flag")
		}
		c.Win = rapid.SampledFrom([]rules.Win{rules.WinParity, rules.WinElimination}).Draw(t, "win")
		c.MafiaKill = rapid.SampledFrom([]rules.MafiaKill{rules.KillUnanimous, rules.KillDon, rules.KillMajority}).Draw(t, "kill")
		c.Voting = rapid.SampledFrom([]rules.Voting{rules.VotingNominees, rules.VotingAnyone}).Draw(t, "voting")
		c.NonVoters = rapid.SampledFrom([]rules.NonVoters{rules.NonVotersLastNominee, rules.NonVotersAbstain, rules.NonVotersCompulsory}).Draw(t, "nonVoters")
		c.Ties = rapid.SampledFrom([]rules.Ties{rules.TiesCarCrash, rules.TiesRevote, rules.TiesJustify, rules.TiesNone}).Draw(t, "ties")
		c.LastWords = rapid.SampledFrom([]rules.LastWords{rules.LastWordsAll, rules.LastWordsTownNight, rules.LastWordsSheriffNight, rules.LastWordsNone}).Draw(t, "words")
		c.Commissar = rapid.SampledFrom([]rules.Commissar{rules.CommissarCheck, rules.CommissarPublic, rules.CommissarShoot, rules.CommissarCheckOrShoot}).Draw(t, "commissar")
		c.ManiacSide = rapid.SampledFrom([]rules.ManiacSide{rules.ManiacAlone, rules.ManiacMafia}).Draw(t, "side")
		c.MafiaTime = rapid.SampledFrom([]int{0, 30}).Draw(t, "mafiaTime")
		c.ExtraSpeech = rapid.SampledFrom([]int{0, 30}).Draw(t, "extra")
		c.Testament = rapid.Bool().Draw(t, "testament")
		c.TestamentKills = c.Testament && rapid.Bool().Draw(t, "testamentKills")
		c.RevealAfter = rapid.IntRange(0, 1).Draw(t, "reveal")
		c.DoubleDeath = rapid.Bool().Draw(t, "double")
		c.DoctorVictims = c.Doctor && rapid.Bool().Draw(t, "doctorVictims")
		c.DoctorOncePerPlayer = c.DoctorOncePerPlayer && c.Doctor
		c.DoctorNamesPatient = c.DoctorNamesPatient && c.Doctor
		c.NomineeDefence = c.Voting == rules.VotingNominees && rapid.Bool().Draw(t, "defence")
		c.FirstNightChecks = c.FirstNightMeeting && rapid.Bool().Draw(t, "firstNightChecks")
		c.JustifiedLeaves = c.Ties == rules.TiesJustify && rapid.Bool().Draw(t, "justifiedLeaves")
		if c.Validate() == nil {
			return c
		}
	}
}

// game is a game under way: its state and clock.
type game struct {
	t   *rapid.T
	s   rules.State
	now time.Time
}

func (g *game) apply(actor rules.Actor, a rules.Action) {
	n, err := rules.Apply(g.s, actor, a, g.now)
	if err != nil {
		g.t.Fatalf("%+v %s %s in %s (day %d, night %d): %v", actor, a.Type, a.Target, g.s.Phase.Name, g.s.Day, g.s.Night, err)
	}
	g.s = n
}

func (g *game) legal(actor rules.Actor, typ rules.ActionType) (rules.Option, bool) {
	i := slices.IndexFunc(rules.Legal(g.s, actor), func(o rules.Option) bool { return o.Type == typ })
	if i < 0 {
		return rules.Option{}, false
	}
	return rules.Legal(g.s, actor)[i], true
}

// play plays a random game to its end: the players take random legal actions
// (the mafia mostly agree), the clock runs on, and the host moves the game on,
// warns and removes players during the day's speeches and sets the Maniac's
// side where the rules let him.
func play(t *rapid.T, g *game) {
	for i := 0; g.s.Phase.Name != rules.PhaseGameOver; i++ {
		if i == 4000 {
			t.Fatalf("no winner after %d steps", i)
		}
		g.s = rules.Advance(g.s, g.now)
		var actors []rules.Actor
		for _, p := range g.s.Players {
			if len(rules.Legal(g.s, rules.Actor{Player: p.ID})) > 0 {
				actors = append(actors, rules.Actor{Player: p.ID})
			}
		}
		if len(actors) == 0 || rapid.IntRange(0, 15).Draw(t, "host") == 0 {
			hostTurn(t, g)
			continue
		}
		actor := rapid.SampledFrom(actors).Draw(t, "actor")
		o := rapid.SampledFrom(rules.Legal(g.s, actor)).Draw(t, "option")
		a := rules.Action{Type: o.Type}
		if len(o.Targets) > 0 {
			a.Target = rapid.SampledFrom(o.Targets).Draw(t, "target")
			for _, c := range g.s.Choices {
				if o.Type == rules.ActKill && slices.Contains(o.Targets, c.Target) && rapid.IntRange(0, 3).Draw(t, "follow") > 0 {
					a.Target = c.Target
				}
			}
		}
		switch o.Type {
		case rules.ActVote:
			if o.Abstain && rapid.IntRange(0, 4).Draw(t, "abstain") == 0 {
				a.Target = ""
			}
		case rules.ActVoteAll:
			yes := rapid.Bool().Draw(t, "yes")
			a.Yes = &yes
		case rules.ActTestament:
			a.Verdict = rapid.SampledFrom(o.Verdicts).Draw(t, "verdict")
		case rules.ActBestMove:
			a.Target = ""
			a.Targets = rapid.SliceOfNDistinct(rapid.SampledFrom(o.Targets), 1, min(o.Max, len(o.Targets)), rapid.ID).Draw(t, "named")
		}
		g.apply(actor, a)
	}
}

// hostTurn is the host's move, or the clock's.
func hostTurn(t *rapid.T, g *game) {
	speeches := g.s.Phase.Name == rules.PhaseDay && !g.s.Phase.Closing && g.s.Phase.Paused == 0
	switch rapid.IntRange(0, 9).Draw(t, "move") {
	case 0:
		if o, ok := g.legal(host, rules.ActWarn); ok && speeches {
			a := rules.Action{Type: rules.ActWarn, Target: rapid.SampledFrom(o.Targets).Draw(t, "warned")}
			if len(o.Fouls) > 0 && rapid.Bool().Draw(t, "named") {
				a.Foul = rapid.SampledFrom(o.Fouls).Draw(t, "foul")
			}
			g.apply(host, a)
			return
		}
	case 1:
		if o, ok := g.legal(host, rules.ActRemove); ok && speeches && rapid.IntRange(0, 3).Draw(t, "remove") == 0 {
			a := rules.Action{Type: rules.ActRemove, Target: rapid.SampledFrom(o.Targets).Draw(t, "removed")}
			if len(o.Fouls) > 0 && rapid.Bool().Draw(t, "named") {
				a.Foul = rapid.SampledFrom(o.Fouls).Draw(t, "foul")
			}
			g.apply(host, a)
			return
		}
	case 2:
		if _, ok := g.legal(host, rules.ActManiacSide); ok {
			g.apply(host, rules.Action{Type: rules.ActManiacSide, Side: rapid.SampledFrom([]rules.ManiacSide{rules.ManiacAlone, rules.ManiacMafia}).Draw(t, "side")})
			return
		}
	}
	if g.s.Moderator == rules.ModeratorHost {
		g.apply(host, rules.Action{Type: rules.ActAdvance, Now: true})
		return
	}
	g.now = g.now.Add(time.Duration(rapid.IntRange(1, 40).Draw(t, "seconds")) * time.Second)
}

// step is one input the protocol records: an action to take in a night or day
// (and, by day, after so many of its votes), in the order of the game.
type step struct {
	at      int
	section int // the night's or day's place among them
	votes   int // by day: the day's votes held before it
	vote    bool
	late    bool
	actor   rules.Actor
	a       rules.Action
}

// sections are a protocol's nights and days in the order they began: the
// night's or day's At.
func sections(p protocol.Protocol) []int {
	var out []int
	for _, n := range p.Nights {
		out = append(out, n.At)
	}
	for _, d := range p.Days {
		out = append(out, d.At)
	}
	slices.Sort(out)
	return out
}

// steps reads from a protocol every input a game's course depends on: the
// night acts, the testaments, the hands, reveals and nominations, each vote's
// ballots (not the missing ones: the rules count those), the host's warnings,
// removals and word on the Maniac's side; and the best moves, which change
// nothing but the record.
func steps(p protocol.Protocol) []step {
	begins := sections(p)
	// pos places a fact: the night or day it falls in, and by day the votes
	// held before it.
	pos := func(at int) (section, votes int) {
		section = len(slices.DeleteFunc(slices.Clone(begins), func(b int) bool { return b > at })) - 1
		for _, d := range p.Days {
			if section >= 0 && d.At == begins[section] {
				votes = len(slices.DeleteFunc(slices.Clone(d.Votes), func(v protocol.Vote) bool { return v.At >= at }))
			}
		}
		return section, votes
	}
	var out []step
	add := func(at int, actor rules.Actor, a rules.Action, late, vote bool) {
		section, votes := pos(at)
		out = append(out, step{at: at, section: section, votes: votes, late: late, vote: vote, actor: actor, a: a})
	}
	id := func(seat int) string {
		if seat == 0 {
			return ""
		}
		return p.Seats[seat-1].ID
	}
	player := func(seat int) rules.Actor { return rules.Actor{Player: id(seat)} }
	for _, n := range p.Nights {
		for _, a := range n.Acts {
			add(a.At, player(a.Seat), rules.Action{Type: a.Act, Target: id(a.Target)}, a.Late, false)
		}
		for _, w := range n.Testaments {
			add(w.At, player(w.Seat), rules.Action{Type: rules.ActTestament, Target: id(w.Target), Verdict: rules.Verdict(w.Verdict)}, false, false)
		}
		for _, m := range n.BestMoves {
			a := rules.Action{Type: rules.ActBestMove}
			for _, n := range m.Targets {
				a.Targets = append(a.Targets, id(n))
			}
			add(m.At, player(m.Seat), a, false, false)
		}
	}
	for _, d := range p.Days {
		for _, n := range d.Nominations {
			add(n.At, player(n.By), rules.Action{Type: rules.ActNominate, Target: id(n.Target)}, false, false)
		}
		for _, h := range d.Hands {
			add(h.At, player(h.Seat), rules.Action{Type: rules.ActRaiseHand}, false, false)
		}
		if r := d.Revealed; r != nil {
			add(r.At, player(r.Seat), rules.Action{Type: rules.ActReveal}, false, false)
		}
		for _, v := range d.Votes {
			for _, b := range v.Ballots {
				a := rules.Action{Type: rules.ActVote, Target: id(b.Target)}
				if b.Yes != nil {
					a = rules.Action{Type: rules.ActVoteAll, Yes: b.Yes}
				}
				if !b.Missing {
					add(v.At, player(b.Voter), a, false, true)
				}
			}
		}
	}
	for _, s := range p.Seats {
		for _, f := range s.Fouls {
			add(f.At, host, rules.Action{Type: rules.ActWarn, Target: s.ID, Foul: f.Foul}, false, false)
		}
		if l := s.Left; l != nil && l.How == protocol.LeftRemoved {
			add(l.At, host, rules.Action{Type: rules.ActRemove, Target: s.ID, Foul: l.Foul}, false, false)
		}
	}
	if m := p.ManiacSide; m != nil {
		add(m.At, host, rules.Action{Type: rules.ActManiacSide, Side: m.Side}, false, false)
	}
	slices.SortStableFunc(out, func(a, b step) int { return cmp.Compare(a.at, b.at) })
	return out
}

// replay drives a fresh game of the same lobby and deal by the protocol's
// steps alone, moving it on as a moderator would wherever no step applies.
func replay(t *rapid.T, lobby rules.State, start rules.Action, p protocol.Protocol) rules.State {
	lobby.Moderator = rules.ModeratorHost
	g := &game{t: t, s: lobby, now: t0}
	g.apply(host, start)
	next := func() {
		g.apply(host, rules.Action{Type: rules.ActAdvance, Now: g.s.Phase.Closing || g.s.Phase.Resuming})
	}
	for _, st := range steps(p) {
		for tries := 0; ; tries++ {
			if g.s.Phase.Name == rules.PhaseGameOver || tries > 400 {
				t.Fatalf("the replay could not take %+v (%s, day %d, night %d)", st, g.s.Phase.Name, g.s.Day, g.s.Night)
			}
			now := protocol.Of(g.s)
			begins := sections(now)
			here, votes := len(begins)-1, 0
			if i := len(now.Days) - 1; i >= 0 && now.Days[i].At == begins[here] {
				votes = len(now.Days[i].Votes)
			}
			if here > st.section || here == st.section && votes > st.votes {
				t.Fatalf("the replay went past %+v: %s, day %d, night %d", st, g.s.Phase.Name, g.s.Day, g.s.Night)
			}
			open := !g.s.Phase.Closing && !g.s.Phase.Resuming
			if st.a.Type == rules.ActManiacSide && g.s.Rules.ManiacSide == st.a.Side {
				break // the side it already plays on: the deal's word, or one said again
			}
			if _, ok := g.legal(st.actor, st.a.Type); ok && open && here == st.section && votes == st.votes &&
				(!st.vote || g.s.Phase.Name == rules.PhaseVote || g.s.Phase.Name == rules.PhaseVoteAll) {
				if st.late {
					// R-MANIAC-03: a shot after the mafia's time counts as none.
					late := g.s.Phase.EndsAt.Add(-time.Duration(g.s.Rules.Night-g.s.Rules.MafiaTime)*time.Second + time.Second)
					g.now = maxTime(g.now, late)
				}
				g.apply(st.actor, st.a)
				break
			}
			next()
		}
	}
	for i := 0; g.s.Phase.Name != rules.PhaseGameOver; i++ {
		if i > 400 {
			t.Fatalf("the replay does not end: %s, day %d, night %d", g.s.Phase.Name, g.s.Day, g.s.Night)
		}
		next()
	}
	return g.s
}

func maxTime(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}

// departures are how the seats left, without the moment they did, which
// differs between a game and its replay.
func departures(p protocol.Protocol) []string {
	var out []string
	for _, s := range p.Seats {
		if l := s.Left; l != nil {
			out = append(out, fmt.Sprintf("seat %d %s %+v by %s (%s, vote %d, foul %q)", s.Seat, l.How, l.When, l.Rule, l.Cause, l.Vote, l.Foul))
		} else {
			out = append(out, fmt.Sprintf("seat %d stays", s.Seat))
		}
	}
	return out
}

// bestMoves are the best moves of a protocol, without the moment they were
// made, which differs between a game and its replay.
func bestMoves(p protocol.Protocol) []string {
	var out []string
	for _, n := range p.Nights {
		for _, m := range n.BestMoves {
			out = append(out, fmt.Sprintf("night %d: seat %d names %v, %d black", n.Night, m.Seat, m.Targets, m.Black))
		}
	}
	return out
}

// TestPropertyProtocolReplays plays random games of every preset and of custom
// mixes, builds each one's protocol, and drives a fresh game with the same
// deal by what the protocol records alone: the nominations, hands and reveals,
// every ballot of every vote round, every night act with the checks' answers
// and the late shots (R-MANIAC-03), the testaments and best moves, and the
// host's warnings, removals (R-SPORT-16) and word on the Maniac's side. The
// replay deals the same cards, the same seats leave the same way, in the same
// night or day, by the same rule, the same best moves count the same black
// seats, and the same side wins by the same rule: the protocol holds all that
// decided the game.
func TestPropertyProtocolReplays(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		o := drawRules(t)
		n := rapid.IntRange(o.MinPlayers, min(o.MaxPlayers, o.MinPlayers+4)).Draw(t, "players")
		moderator := rapid.SampledFrom([]string{rules.ModeratorApp, rules.ModeratorHost}).Draw(t, "moderator")
		lobby, err := rules.New("REPLAY", o, moderator, "en", t0)
		if err != nil {
			t.Fatal(err)
		}
		for i := range n {
			if lobby, _, err = rules.Join(lobby, fmt.Sprintf("Player %d", i+1), t0); err != nil {
				t.Fatal(err)
			}
		}
		start := rules.Action{Type: rules.ActStart}
		start.Deal[0], start.Deal[1] = rapid.Byte().Draw(t, "seed"), rapid.Byte().Draw(t, "seed2")
		g := &game{t: t, s: lobby, now: t0}
		g.apply(host, start)
		play(t, g)
		want := protocol.Of(g.s)
		if !want.Over || !want.Complete || want.Winner == "" || want.WinRule == "" {
			t.Fatalf("a finished game's protocol: over %v, complete %v, winner %q by %q", want.Over, want.Complete, want.Winner, want.WinRule)
		}

		got := protocol.Of(replay(t, lobby, start, want))
		for i, s := range got.Seats {
			if s.Role != want.Seats[i].Role || s.ID != want.Seats[i].ID {
				t.Fatalf("the replay dealt seat %d %s to %s, the protocol %s to %s", s.Seat, s.Role, s.ID, want.Seats[i].Role, want.Seats[i].ID)
			}
		}
		if g, w := departures(got), departures(want); !slices.Equal(g, w) {
			t.Fatalf("the replay's departures differ:\n%v\nwant\n%v", g, w)
		}
		if got.Winner != want.Winner || got.WinRule != want.WinRule {
			t.Fatalf("the replay is won by %s (%s), the game by %s (%s)", got.Winner, got.WinRule, want.Winner, want.WinRule)
		}
		if g, w := bestMoves(got), bestMoves(want); !slices.Equal(g, w) {
			t.Fatalf("the replay's best moves differ:\n%v\nwant\n%v", g, w)
		}
	})
}
