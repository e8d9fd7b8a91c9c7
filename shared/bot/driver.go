package bot

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"

	"citysleeps/shared/rules"
)

// Table is what a Driver needs of a game server: a *service.Service, or a
// client of the HTTP API with the same two calls.
type Table interface {
	Read(ctx context.Context, code, token string) (rules.View, error)
	Act(ctx context.Context, code, token string, a rules.Action) (rules.View, error)
}

// Seats are the secrets to play one game: its code, the host's token and the
// players' tokens in joining order.
type Seats struct {
	Code    string
	Host    string
	Players []string
}

// Driver plays one game through a Table with a bot (Choose) in every seat,
// and the host moving the game on, as a moderator would, when nobody can act.
type Driver struct {
	Table Table
	Seats Seats
	// Rand decides the bots' choices; a seeded one replays them.
	Rand *rand.Rand
	// Actions counts the actions applied, Advances the host's "advance"s.
	Actions, Advances int
}

// MaxRounds bounds Until; a 10-player game takes a few dozen rounds.
const MaxRounds = 500

// Round gives every player, in joining order, one turn: each reads their view
// and takes Choose's action if it offers one. done is asked after every
// action, with the view of the player who acted, and ends the round when it
// holds. If nobody acted, the host advances the game (a step that waits for
// its deadline, or a hand-over). It returns whether anything was done and the
// host's view afterwards.
func (d *Driver) Round(ctx context.Context, done func(rules.View) bool) (bool, rules.View, error) {
	acted := false
	for _, tok := range d.Seats.Players {
		v, err := d.Table.Read(ctx, d.Seats.Code, tok)
		if err != nil {
			return acted, rules.View{}, fmt.Errorf("read %s: %w", d.Seats.Code, err)
		}
		if v.Phase.Name == rules.PhaseGameOver {
			break
		}
		a, ok := Choose(v, d.Rand)
		if !ok {
			continue
		}
		if v, err = d.act(ctx, tok, a); err != nil {
			return acted, rules.View{}, err
		}
		acted = true
		if done(v) {
			break
		}
	}
	host, err := d.Table.Read(ctx, d.Seats.Code, d.Seats.Host)
	if err != nil {
		return acted, host, fmt.Errorf("read %s as the host: %w", d.Seats.Code, err)
	}
	if acted || done(host) || host.Phase.Name == rules.PhaseGameOver || (host.Phase.Name == rules.PhaseLobby && !host.Phase.Closing) ||
		!slices.ContainsFunc(host.Actions, func(o rules.Option) bool { return o.Type == rules.ActAdvance }) {
		return acted, host, nil
	}
	d.Advances++
	host, err = d.act(ctx, d.Seats.Host, rules.Action{Type: rules.ActAdvance, Now: true})
	return err == nil, host, err
}

// Move is what one player does next.
type Move struct {
	Player int          // the player's place in Seats.Players
	View   rules.View   // what they saw when they chose
	Action rules.Action // with no id yet
}

// Next looks for the next move of the game: from place from in
// Seats.Players on, round the table, the first player whose bot acts on what
// they see. It reports false when nobody acts: everyone waits for a deadline
// or the host, or the game is over. The caller sends the move, as it likes
// (twice at once, late, under a burst of others).
func (d *Driver) Next(ctx context.Context, from int) (Move, bool, error) {
	n := len(d.Seats.Players)
	for k := range n {
		i := (from + k) % n
		v, err := d.Table.Read(ctx, d.Seats.Code, d.Seats.Players[i])
		if err != nil {
			return Move{}, false, fmt.Errorf("read %s: %w", d.Seats.Code, err)
		}
		if v.Winner != nil {
			return Move{}, false, nil
		}
		if a, ok := Choose(v, d.Rand); ok {
			return Move{Player: i, View: v, Action: a}, true, nil
		}
	}
	return Move{}, false, nil
}

// act sends a with a fresh id.
func (d *Driver) act(ctx context.Context, token string, a rules.Action) (rules.View, error) {
	a.ID = ActionID()
	v, err := d.Table.Act(ctx, d.Seats.Code, token, a)
	if err != nil {
		return v, fmt.Errorf("act %+v in %s: %w", a, d.Seats.Code, err)
	}
	d.Actions++
	return v, nil
}

// Until plays rounds, from whatever point the game is at, until done holds
// for the host's view, or for the view of a player who just acted (what done
// looks at should be public: the phase, the day, the players alive, so the
// bots stop before anyone acts in the new situation), or the game is over. It
// returns the host's view then, or an error if the game stops moving or takes
// more than MaxRounds.
func (d *Driver) Until(ctx context.Context, done func(rules.View) bool) (rules.View, error) {
	host, err := d.Table.Read(ctx, d.Seats.Code, d.Seats.Host)
	if err != nil {
		return host, fmt.Errorf("read %s as the host: %w", d.Seats.Code, err)
	}
	for range MaxRounds {
		if done(host) || host.Phase.Name == rules.PhaseGameOver {
			return host, nil
		}
		var acted bool
		if acted, host, err = d.Round(ctx, done); err != nil {
			return host, err
		}
		if !acted && !done(host) && host.Phase.Name != rules.PhaseGameOver {
			return host, fmt.Errorf("game %s is stuck in phase %s: nobody can act", d.Seats.Code, host.Phase.Name)
		}
	}
	return host, fmt.Errorf("game %s did not get there in %d rounds (phase %s, day %d)", d.Seats.Code, MaxRounds, host.Phase.Name, host.Phase.Day)
}

// ToEnd plays a started game until it is over and returns the host's final
// view; a game over without a winner is an error.
func (d *Driver) ToEnd(ctx context.Context) (rules.View, error) {
	end, err := d.Until(ctx, func(rules.View) bool { return false })
	if err == nil && end.Winner == nil {
		err = fmt.Errorf("game %s over without a winner", d.Seats.Code)
	}
	return end, err
}
