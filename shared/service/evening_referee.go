package service

import (
	"bytes"
	"context"
	"strconv"
	"time"

	"citysleeps/shared/evening"
	"citysleeps/shared/rules"
)

// refereeToken is the token of table's referee (from 1): the host token of
// every game the table plays, derived from the evening's key as the
// players' game tokens are, from "referee/" and the table's number, which
// no room code (six capitals, gameToken) nor join id (no "/") can be, and
// the times it was withdrawn (eveningItem.Referees) after another "/". The
// organiser's view holds every table's; a referee handed one moderates that
// table round after round (the console follows it to the next round's game)
// and is nobody on the evening: not the organiser, so it changes nothing
// there but the extra points at the table's games.
func (it *eveningItem) refereeToken(table int) string {
	id := refereeActor + strconv.Itoa(table)
	if n := it.withdrawn(table); n > 0 {
		id += "/" + strconv.Itoa(n)
	}
	return joinToken(it.Key, id)
}

// withdrawn is the times table's referee token was withdrawn.
func (it *eveningItem) withdrawn(table int) int {
	if table < 1 || table > len(it.Referees) {
		return 0
	}
	return it.Referees[table-1]
}

// withdrawReferee gives table (from 1, a table of the evening) a new referee
// token: the one it had opens nothing of the evening from then on, nor the
// table's games made after it (seatGame gives them the new one). The table
// changes hands this way when its moderator changes (ActSetModerator) or
// when the organiser withdraws a referee (ActNewReferee, which also hands
// the game in play over, newRefereeInPlay).
func (it *eveningItem) withdrawReferee(table int) {
	for len(it.Referees) < it.State.Tables {
		it.Referees = append(it.Referees, 0)
	}
	it.Referees[table-1]++
}

// newRefereeInPlay hands the table's game in play, if it is not over, from
// the referee token before withdrawReferee to the new one, so that the
// withdrawn referee's console moderates nothing from then on. It writes the
// game before the evening, and a try that finds it handed over already
// (a lost write of the evening, tried again) leaves it.
func (s *Service) newRefereeInPlay(ctx context.Context, it *eveningItem, table int, from, to string) error {
	round := len(it.State.Played) - 1
	if round < 0 {
		return nil
	}
	game := it.State.Played[round][table-1]
	if game == "" || it.State.Recorded(game) {
		return nil
	}
	old, now := hashToken(from), hashToken(to)
	_, err := s.write(ctx, "act_evening", game, func(env *envelope, at time.Time, try int) (bool, error) {
		if !bytes.Equal(env.Host, old) || rules.Advance(env.State, at).Phase.Name == rules.PhaseGameOver {
			return false, nil
		}
		env.Host = now
		return true, nil
	})
	return err
}

// newReferee is ActNewReferee's change: the table's referee token is
// withdrawn, and the game in play handed to the new one.
func (s *Service) newReferee(ctx context.Context, table int) func(it *eveningItem) error {
	return func(it *eveningItem) error {
		if table < 1 || table > it.State.Tables {
			return &rules.Error{Kind: rules.ErrBadTarget.Kind, Code: rules.ErrBadTarget.Code,
				Message: "table must be 1 to " + strconv.Itoa(it.State.Tables)}
		}
		if len(it.State.Played) >= it.State.Rounds && len(evening.Pending(it.State)) == 0 {
			return evening.ErrEveningOver
		}
		from := it.refereeToken(table)
		it.withdrawReferee(table)
		return s.newRefereeInPlay(ctx, it, table, from, it.refereeToken(table))
	}
}
