package rules

import "slices"

// The story (State.Events) is bounded in two ways.
//
// What one actor can repeat at will leaves no lasting trace: a lobby's comings
// and goings (unseat, closeLobby), a pause once resumed, a nomination once
// withdrawn, an earlier word on the Maniac's side, and fouls past MaxWarnings.
// So no loop of actions grows a game while it stays where it is.
//
// What the game itself adds (nights, days, votes) grows with every round, and a
// game in which nobody ever leaves can go on for as long as people play it. For
// that, Condense tells the story more briefly: the store keeps a game within a
// size (the service's budget) by asking for more brevity until it fits.

// MaxWarnings is where a player's foul count stops: the highest count any rule
// set acts on (Options.WarningsToRemove is at most 10).
const MaxWarnings = 10

// forget drops every event that matches, from the past too (State.Past).
func (s *State) forget(match func(Event) bool) {
	s.Events = slices.DeleteFunc(s.Events, match)
	if s.Past != "" {
		s.Past = pastOf(slices.DeleteFunc(readPast(s.Past), match))
	}
}

// forgetLast drops the latest event that matches, if any.
func (s *State) forgetLast(match func(Event) bool) {
	for i := len(s.Events) - 1; i >= 0; i-- {
		if match(s.Events[i]) {
			s.Events = slices.Delete(s.Events, i, i+1)
			return
		}
	}
}

// resumed ends a pause: nothing of the game can happen while it is paused,
// so the latest "paused" line is this pause's (only a seat moved to another
// device may be told after it), and it goes. A pause that is over leaves no
// trace in the story; while it lasts, everyone sees it.
func (s *State) resumed() {
	s.forgetLast(func(e Event) bool { return e.Type == EvPaused })
}

// CondenseLevels is the briefest level of Condense.
const CondenseLevels = 12

// told are the events kept at Condense level 3 and above: who was dealt in, the
// chapters, who left the game and how, the cards shown, the last words that
// name players (a testament, the best move) and the end.
var told = map[EventType]bool{
	EvStarted: true, EvNightFell: true, EvDayBegan: true, EvKilled: true, EvEliminated: true,
	EvRemoved: true, EvRole: true, EvRevealed: true, EvTestament: true, EvBestMove: true, EvManiacSide: true, EvGameOver: true,
}

// Condense returns s with its story told more briefly, and changes nothing that
// the rules decide by: level 1 is the least brief, CondenseLevels the most, and
// each level does what the ones below it do and more. First it keeps the story
// before the current round (the last nightfall) whole in the past (State.Past),
// which History reads; then it shortens that story, and only at the last levels
// the past, and the current round's votes:
//
//  1. the seats moved to other devices are told no more (they tell nothing
//     of the game, and a host may move every seat in one round); the past
//     takes the story before the round; there every vote but the last loses
//     its ballots, and each player's checks keep only the latest answer
//     about each player;
//  2. what only some saw (night acts, shots, checks) goes from that story;
//  3. only the told events stay: the start, each night and day, who left the
//     game and how, the cards shown;
//  4. to 7: the older half of what is left goes, then three quarters, and so
//     on; at 8 only the current round is told;
//  9. to 11: the past keeps its later half, a quarter, then nothing: History
//     is whole only from a later night on (State.WholeFrom);
//  12. every vote of the round but the last loses its ballots.
//
// The current round is left whole up to the last level (but for the moves),
// so every screen still shows what it is about.
func Condense(s State, level int) State {
	if level < 1 {
		return s
	}
	n := s.clone()
	n.forget(func(e Event) bool { return e.Type == EvMoved })
	n.keepPast()
	last := -1
	for i, e := range n.Events {
		if e.Type == EvVoted {
			last = i
		}
	}
	// The story before the last nightfall, oldest first, and the current round.
	past := slices.IndexFunc(n.Events, func(e Event) bool { return e.Night >= n.Night })
	if past < 0 {
		past = len(n.Events)
	}
	votes := past
	if level >= 12 {
		votes = len(n.Events)
		n.WholeFrom = max(n.WholeFrom, n.Night+1)
	}
	for i := range votes {
		if n.Events[i].Type == EvVoted && i != last {
			n.Events[i].Ballots = nil
		}
	}
	for i := range n.Players {
		n.Players[i].Checks = latestChecks(n.Players[i].Checks)
	}
	old, current := slices.Clone(n.Events[:past]), n.Events[past:]
	if level >= 2 {
		old = slices.DeleteFunc(old, func(e Event) bool { return e.To != ToAll })
	}
	if level >= 3 {
		old = slices.DeleteFunc(old, func(e Event) bool { return !told[e.Type] })
	}
	switch {
	case level >= 8:
		old = nil
	case level >= 4:
		old = old[len(old)-len(old)>>(level-3):]
	}
	switch {
	case level >= 11:
		n.cutPast(0)
	case level >= 9:
		n.cutPast(level - 8)
	}
	n.Events = append(old, current...)
	return n
}

// latestChecks keeps the latest check of each kind about each player, in the
// order they were made.
func latestChecks(cs []Check) []Check {
	out := cs[:0:0]
	for i, c := range cs {
		later := slices.ContainsFunc(cs[i+1:], func(d Check) bool { return d.Target == c.Target && d.Kind == c.Kind })
		if !later {
			out = append(out, c)
		}
	}
	return out
}
