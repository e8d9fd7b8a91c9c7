package service

import (
	"bytes"
	"context"
	"errors"
	"slices"
	"strconv"
	"time"

	"citysleeps/shared/evening"
	"citysleeps/shared/rules"
)

// takePlace is a join with a seat key: it moves the place of the player whose
// link has the key (ActReseat) to the phone that sends it, with a new token,
// and closes the link. The player's old token matches nobody from then on:
// the dead phone, or the one a substitute replaced, is out of the evening.
// A join id makes it safe to send again, as for any join: the key is used by
// the first try, and the same join then finds the player it took.
//
// A player at a game in play has their seat there moved too (moveGameSeat),
// so that the old phone holds no seat either, and a seat whose card is dealt
// in a game the app moderates moves only with the seat's code, as a game's
// own link moves it: nobody learns a card through the organiser's link
// without the seat's player taking part.
//
// The player keeps their name and id, so a name is refused here. The key is
// checked as a game's (seatLinks.usable): a key that no open link of this
// evening has is CodeSeatKeyInvalid, one whose time is up CodeSeatKeyExpired,
// both 403; a player who left since the link was made is evening.ErrAbsent.
// None of them changes anything; a wrong seat code counts against the link.
func (s *Service) takePlace(ctx context.Context, code string, req EveningJoinRequest) (EveningJoined, error) {
	if req.Name != "" {
		return EveningJoined{}, invalid("a seat key takes the player's place as it is, name and all: send it without a name")
	}
	return s.eveningPlace(ctx, "move_evening", code, req.JoinID, func(it *eveningItem, now time.Time) (evening.State, string, error) {
		id, l, err := it.Moving.usable(req.SeatKey, now, "place", "evening", "organiser")
		if err != nil {
			return it.State, "", err
		}
		st, err := evening.Take(it.State, id)
		if err != nil {
			return it.State, "", err
		}
		moved, err := s.moveGameSeat(ctx, it, id, l, req.SeatCode)
		if err != nil {
			return it.State, "", err
		}
		if moved {
			if it.Moved == nil {
				it.Moved = map[string]int{}
			}
			it.Moved[id]++
		}
		delete(it.Moving, id)
		return st, id, nil
	})
}

// placeInPlay is the player's seat in the round in play: its game's room code
// and the player's id in that game, or "" when they sit out or no round has
// started. An evening's game seats its players in the seating's order and
// takes nobody else (rules.State.Table), so the k-th is "pk".
func placeInPlay(st evening.State, id string) (game, seat string) {
	round := len(st.Played) - 1
	if round < 0 {
		return "", ""
	}
	seated, err := evening.Seated(st, round)
	if err != nil {
		return "", ""
	}
	for t, players := range seated {
		if k := slices.Index(players, id); k >= 0 && st.Played[round][t] != "" {
			return st.Played[round][t], "p" + strconv.Itoa(k+1)
		}
	}
	return "", ""
}

// moveGameSeat gives the player's seat in the game in play (placeInPlay) the
// token of their place's next move (gameToken with eveningItem.Moved + 1),
// and reports whether it did: the old phone's next request there is then
// refused (401), which its page shows as a seat this phone no longer holds.
// A seat whose card is dealt in a game the app moderates (needsSeatCode)
// moves only with the seat's code; a wrong one counts against the evening's
// link l. Nothing moves when the player is at no game in play, when the game
// is over, or when the seat's own link moved it to another token since.
//
// It writes the game before the evening, and a try of the same request finds
// the seat moved already, so a write of the evening that is lost and tried
// again moves it once.
func (s *Service) moveGameSeat(ctx context.Context, it *eveningItem, id string, l openLink, code string) (bool, error) {
	game, seat := placeInPlay(it.State, id)
	if game == "" || it.State.Recorded(game) {
		return false, nil
	}
	from := hashToken(gameToken(it.Key, game, id, it.Moved[id]))
	to := hashToken(gameToken(it.Key, game, id, it.Moved[id]+1))
	moved, wrong := false, false
	_, err := s.write(ctx, "move_evening", game, func(env *envelope, now time.Time, try int) (bool, error) {
		moved, wrong = false, false
		held := env.Tokens[seat]
		at := rules.Advance(env.State, now).Phase
		switch {
		case bytes.Equal(held, to):
			moved = true // moved by an earlier try of this request
			return false, nil
		case at.Name == rules.PhaseGameOver || !bytes.Equal(held, from):
			return false, nil
		case needsSeatCode(env.State.Moderator, at.Name, at.Closing):
			if err := matchSeatCode(code, held); err != nil {
				wrong = errors.Is(err, errWrongSeatCode)
				return false, err
			}
		}
		env.Tokens[seat] = to
		moved = true
		return true, nil
	})
	switch {
	case wrong:
		return false, it.Moving.miss(id, l, "organiser")
	case err != nil:
		return false, err
	}
	return moved, nil
}
