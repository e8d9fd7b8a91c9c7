package evening

import (
	"errors"
	"slices"

	"citysleeps/shared/rules"
	"citysleeps/shared/seating"
)

// The organiser's changes of the roster before a round begins: Swap, Absent
// and Late. Each takes effect from the next round not yet started (the
// seating's change of the same name, from round len(Played)), so the rounds
// already started, their games and the points recorded from them stay exactly
// as they were; the rounds after it are redrawn only where they must be.

// The refusals of a change.
var (
	// ErrAbsent: the player has left the evening (Absent) already, so has no
	// place left to swap or to leave, and the name is not a phone's to take.
	ErrAbsent = refuse(rules.Conflict, "player_absent", "that player has left the evening")
	// ErrNotDrawn: a swap before the first round, when there are no places to
	// exchange yet (the draw deals everyone by lot anyway).
	ErrNotDrawn = refuse(rules.Conflict, "not_drawn", "the seating is drawn when the first round starts: until then there are no places to swap")
)

// Swap exchanges the places of players a and b, by id, from the next round
// on: each takes the other's tables, seats and turns at sitting out. Before
// the draw there is nothing to exchange, and it refuses (ErrNotDrawn) rather
// than answer as if it had done something.
func Swap(s State, a, b string) (State, error) {
	i, err := s.present(a)
	if err != nil {
		return s, err
	}
	j, err := s.present(b)
	if err != nil {
		return s, err
	}
	if i == j {
		return s, refusef(rules.ErrBadTarget, "%s cannot swap with themselves: name two players", a)
	}
	if !s.Drawn() {
		return s, ErrNotDrawn
	}
	return s.reseat(func(sc seating.Schedule, from int) (seating.Schedule, error) { return sc.Swap(i, j, from) })
}

// Absent takes player id out of the evening from the next round on: the
// seats they leave go to those who were to sit out, or the tables shrink or
// close (seating's Absent). The player stays on the roster, marked Absent,
// before the draw as after it: a player's id is their place on the roster,
// so taking a name off would change the ids of the phones joined after it.
// An absent player is never drawn (Draw) and the name cannot be taken by a
// phone (Join). The games they played still count in the standings.
func Absent(s State, id string) (State, error) {
	i, err := s.present(id)
	if err != nil {
		return s, err
	}
	n := s
	if s.Drawn() {
		n, err = s.reseat(func(sc seating.Schedule, from int) (seating.Schedule, error) { return sc.Absent(i, from) })
		if errors.Is(err, seating.ErrTooFewPlayers) {
			return s, refusef(ErrRosterSmall, "without %s the players left cannot fill a table", s.Players[i].Name)
		}
		if err != nil {
			return s, err
		}
	}
	n = n.clone()
	n.Players[i].Absent = true
	return n, nil
}

// Late adds a name the organiser types for a player who came late, and
// returns the evening and the new player's id: on the roster before the draw,
// and after it seated from the next round on, as a late phone's Join is. No
// phone holds the name yet; the first to join with it takes it. A name on the
// roster already is refused (ErrNameTaken), taken by a phone or not: the
// organiser means someone new.
func Late(s State, name string) (State, string, error) {
	if s.player(name) >= 0 {
		return s, "", refusef(ErrNameTaken, "%q is on the evening's roster already", name)
	}
	return s.add(name, false)
}

// present is the roster index of player id, who must be on the roster
// (rules.ErrBadTarget, as a game answers a target that is no player) and not
// gone (ErrAbsent): the one check of every change that names a player.
func (s State) present(id string) (int, error) {
	i := s.index(id)
	switch {
	case i < 0:
		return -1, refusef(rules.ErrBadTarget, "there is no player %q on the evening's roster", id)
	case s.Players[i].Absent:
		return -1, refusef(ErrAbsent, "%s (%s) has left the evening already", id, s.Players[i].Name)
	}
	return i, nil
}

// Here checks that player id is on the roster (rules.ErrBadTarget) and has
// not left (ErrAbsent), as every change that names a player does: the
// organiser's link that moves a player's place to another phone is the
// service's, not the state's, and is checked the same way.
func (s State) Here(id string) error {
	_, err := s.present(id)
	return err
}

// Take gives a phone the place of player id, present (Here), by the link the
// organiser made for it: the name is taken by a phone from then on, as after
// a Join, so that no phone can take it by name after it. The player's other
// phone, if there was one, is the service's to forget (its token).
func Take(s State, id string) (State, error) {
	i, err := s.present(id)
	if err != nil {
		return s, err
	}
	if s.Players[i].Joined {
		return s, nil
	}
	n := s.clone()
	n.Players[i].Joined = true
	return n, nil
}

// reseat applies a change of the drawn seating from the next round not yet
// started, the first whose tables nobody sits at yet: ErrEveningOver when
// every round has started, since then no round is left to change.
func (s State) reseat(change func(sc seating.Schedule, from int) (seating.Schedule, error)) (State, error) {
	if len(s.Played) >= s.Rounds {
		return s, refusef(ErrEveningOver, "every round has started: the seating can no longer change")
	}
	sc, err := s.seating()
	if err != nil {
		return s, err
	}
	changed, err := change(sc, len(s.Played))
	if err != nil {
		return s, err
	}
	n := s.clone()
	if n.Schedule, err = changed.MarshalBinary(); err != nil {
		return s, err
	}
	return n, nil
}

// add puts a new name at the end of the roster (its id the next one, so no
// other id moves), seated from the next round on when the seating is drawn.
// joined says whether a phone takes it now (Join) or the organiser typed it
// (Late).
func (s State) add(name string, joined bool) (State, string, error) {
	if err := s.roomFor(); err != nil {
		return s, "", err
	}
	n := s
	if s.Drawn() {
		var err error
		n, err = s.reseat(func(sc seating.Schedule, from int) (seating.Schedule, error) {
			late, _, err := sc.Late(from)
			if err != nil {
				return late, refusef(ErrRosterFull, "no seat can be made for a late player: %v", err)
			}
			return late, nil
		})
		if err != nil {
			if errors.Is(err, ErrEveningOver) {
				return s, "", refusef(ErrEveningOver, "every round has started: nobody can join now")
			}
			return s, "", err
		}
	}
	n = n.clone()
	id := playerID(len(n.Players))
	n.Players = append(n.Players, Player{ID: id, Name: name, Joined: joined})
	return n, id, nil
}

// Present returns the ids of the players who have not left the evening, in
// roster order: those the seating is drawn for.
func (s State) Present() []string {
	var out []string
	for _, p := range s.Players {
		if !p.Absent {
			out = append(out, p.ID)
		}
	}
	return out
}

// drawPresent draws the seating for the players present (Present) and
// numbers it by the roster, the seating's player k being the k-th present
// player, so that a player absent before the draw is in no round; random is
// the Score of a seating by lot of the same players.
func (s State) drawPresent() (sc seating.Schedule, random float64, err error) {
	var present []int
	for i, p := range s.Players {
		if !p.Absent {
			present = append(present, i)
		}
	}
	plan := seating.Plan{Players: len(present), Tables: s.Tables,
		MinSeats: s.Rules.MinPlayers, MaxSeats: s.Rules.MaxPlayers, Rounds: s.Rounds}
	sc, err = seating.Draw(plan, seating.Options{Seed: s.Seed})
	if errors.Is(err, seating.ErrTooFewPlayers) {
		return sc, 0, s.tooSmall()
	}
	if err != nil {
		return sc, 0, err
	}
	r, err := seating.Random(plan, s.Seed)
	if err != nil {
		return sc, 0, err
	}
	renumber(&sc, present, len(s.Players))
	return sc, r.Score().Total(), nil
}

// renumber makes player k of sc player to[k] of a schedule of players;
// to is ascending, so every SitOut stays in order.
func renumber(sc *seating.Schedule, to []int, players int) {
	sc.Players = players
	for _, r := range sc.Rounds {
		for _, table := range r.Tables {
			for k, p := range table {
				table[k] = to[p]
			}
		}
		for k, p := range r.SitOut {
			r.SitOut[k] = to[p]
		}
	}
}

// quality is the Score of the seating over the players it places in some
// round: one absent before the draw is in none, and counting them would make
// every pair they never meet a deviation, and the seating look worse than the
// same seating of those who came (and than Random, drawn without them).
func quality(sc seating.Schedule) float64 {
	placed := make([]bool, sc.Players)
	for _, r := range sc.Rounds {
		for _, table := range r.Tables {
			for _, p := range table {
				placed[p] = true
			}
		}
		for _, p := range r.SitOut {
			placed[p] = true
		}
	}
	if !slices.Contains(placed, false) {
		return sc.Score().Total()
	}
	number := make([]int, sc.Players) // a placed player's number among the placed
	compact := seating.Schedule{MinSeats: sc.MinSeats, MaxSeats: sc.MaxSeats, Rounds: make([]seating.Round, len(sc.Rounds))}
	for p, ok := range placed {
		if ok {
			number[p] = compact.Players
			compact.Players++
		}
	}
	for ri, r := range sc.Rounds {
		c := seating.Round{Tables: make([][]int, len(r.Tables))}
		for t, table := range r.Tables {
			for _, p := range table {
				c.Tables[t] = append(c.Tables[t], number[p])
			}
		}
		for _, p := range r.SitOut {
			c.SitOut = append(c.SitOut, number[p])
		}
		compact.Rounds[ri] = c
	}
	return compact.Score().Total()
}
