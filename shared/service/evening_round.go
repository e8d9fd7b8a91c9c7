package service

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"slices"
	"time"

	"citysleeps/shared/evening"
	"citysleeps/shared/rules"
)

// roundClaim is what an evening keeps of the request that is starting a
// round: the round, the request's own random id, a hash of its action's id,
// and when the claim lapses, in Unix milliseconds, should that request never
// finish (a Lambda stopped mid-way).
type roundClaim struct {
	Round  int    `json:"r"`
	ID     string `json:"i"`
	Action string `json:"a"`
	Until  int64  `json:"u"`
}

// claimedFor is what a claim keeps of the action id it was made for: the same
// action sent again (a client's retry after an error, whose first try may
// have left its claim behind) takes the claim over instead of waiting it out.
func claimedFor(actionID string) string {
	sum := sha256.Sum256([]byte("start_round\x00" + actionID))
	return hex.EncodeToString(sum[:8])
}

// roundClaimFor is how long a claim holds: far above the time a round's
// games take to make (one write a table, ten at most), well below what an
// organiser waits before tapping again.
const roundClaimFor = 30 * time.Second

// roundGames are the games a start of a round made: the round, the seating
// they were made for (the players present it was drawn for, the schedule and
// the random seating's score), the games' codes by table, and the claim they
// were made under.
type roundGames struct {
	round    int
	present  []string
	schedule []byte
	random   float64
	seated   [][]string
	codes    []string
	claim    string
}

// makeRound makes the games of the round the organiser may start now; nil
// when the action was applied already. It first claims the round on the
// evening, in a write that also closes the roster to the phones' new names
// (which the draw does in any case): a start of the same round by another
// action meanwhile, a double tap or a second device, is answered busy while
// the claim holds, and its client's retry finds the round started; the same
// action sent again takes the claim over. So only one request makes a
// round's games, and no game is left that no evening names, but those of a
// request that died holding the claim; and the joins that keep coming while
// the first round starts no longer change the roster under it. The seating
// is drawn after the claim, outside any write's budget: it is the one
// request's work, up to a second of a core.
func (s *Service) makeRound(ctx context.Context, code string, a EveningAction, organizer func(*eveningItem) error) (*roundGames, error) {
	id, err := s.token()
	if err != nil {
		return nil, err
	}
	var it *eveningItem
	round, applied := 0, false
	_, err = s.eveningLoop(ctx, "act_evening", code, func(ctx context.Context, got *eveningItem, now time.Time) (bool, error) {
		if err := organizer(got); err != nil {
			return false, err
		}
		recorded, err := s.reconcile(ctx, got, now, true)
		if err != nil {
			return false, err
		}
		it = got
		if applied = seenIn(got.Acted, rules.Actor{Host: true}, a.ID); applied {
			return recorded, nil
		}
		if round, err = evening.Ready(got.State); err != nil {
			return false, err
		}
		if c := got.Starting; c != nil && now.UnixMilli() < c.Until && c.ID != id && c.Action != claimedFor(a.ID) {
			return false, fail(ErrBusy, "the round is being started by another request; it is ready in a moment", nil)
		}
		got.State.Closed = true
		got.Starting = &roundClaim{Round: round, ID: id, Action: claimedFor(a.ID), Until: now.Add(roundClaimFor).UnixMilli()}
		return true, nil
	})
	if err != nil || applied {
		return nil, err
	}
	st, err := evening.Draw(it.State)
	if err != nil {
		return nil, refused(err)
	}
	seated, err := evening.Seated(st, round)
	if err != nil {
		return nil, fail(ErrInternal, "the evening's seating could not be read", err)
	}
	g := &roundGames{round: round, present: st.Present(), schedule: st.Schedule, random: st.Random,
		seated: seated, codes: make([]string, len(seated)), claim: id}
	for t, players := range seated {
		if players == nil {
			continue // closed this round
		}
		if g.codes[t], err = s.seatGame(ctx, it, st, t, players); err != nil {
			return nil, err
		}
	}
	return g, nil
}

// start names the games in the evening and lets the claim go, if the claim
// is still this request's and the evening is still as they were made for:
// the same seating (drawn by this request, for the players still present,
// or the one stored), which the organiser's change of the roster on another
// device could have changed.
func (g *roundGames) start(it *eveningItem) error {
	if c := it.Starting; c == nil || c.ID != g.claim {
		return fail(ErrBusy, "another request started this round meanwhile; it is ready in a moment", nil)
	}
	st := it.State
	if !st.Drawn() && slices.Equal(st.Present(), g.present) {
		st.Schedule, st.Random = g.schedule, g.random
	}
	if !st.Drawn() {
		return fail(ErrBusy, "the roster changed while the round was starting, try again", nil)
	}
	seated, err := evening.Seated(st, g.round)
	if err != nil {
		return fail(ErrInternal, "the evening's seating could not be read", err)
	}
	if !slices.EqualFunc(seated, g.seated, slices.Equal) {
		return fail(ErrBusy, "the seating changed while the round was starting, try again", nil)
	}
	if st, err = evening.StartRound(st, g.round, g.codes); err != nil {
		return err
	}
	it.State, it.Starting = st, nil
	return nil
}
