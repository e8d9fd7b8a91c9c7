package bot

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"time"

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

// Driver plays one game through a Table turn by turn: a Device in every seat,
// each deciding with Choose, takes its turn in joining order, and the host
// moves the game on, as a moderator would, when nobody can act.
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

// Round gives every player, in joining order, one turn (Device.Turn): each
// reads their view and takes Choose's action if it offers one. done is asked
// after every action, with the view of the player who acted, and ends the
// round when it holds. If nobody acted, the host advances the game (a step
// that waits for its deadline, or a hand-over). It returns whether anything
// was done and the host's view afterwards.
func (d *Driver) Round(ctx context.Context, done func(rules.View) bool) (bool, rules.View, error) {
	acted := false
	for _, tok := range d.Seats.Players {
		v, ok, err := d.seat(tok).Turn(ctx)
		if err != nil {
			return acted, rules.View{}, err
		}
		if v.Phase.Name == rules.PhaseGameOver {
			break
		}
		if !ok {
			continue
		}
		acted = true
		if done(v) {
			break
		}
	}
	host := d.conn(d.Seats.Host)
	v, _, err := host.Poll(ctx)
	if err != nil {
		return acted, v, err
	}
	if acted || done(v) || v.Phase.Name == rules.PhaseGameOver || (v.Phase.Name == rules.PhaseLobby && !v.Phase.Closing) ||
		!slices.ContainsFunc(v.Actions, func(o rules.Option) bool { return o.Type == rules.ActAdvance }) {
		return acted, v, nil
	}
	d.Advances++
	v, _, _, err = host.Act(ctx, rules.Action{Type: rules.ActAdvance, Now: true})
	return err == nil, v, err
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
		v, _, err := d.conn(d.Seats.Players[i]).Poll(ctx)
		if err != nil {
			return Move{}, false, err
		}
		if v.Winner != nil {
			return Move{}, false, nil
		}
		if a, ok := (chooser{d}).Decide(v); ok {
			return Move{Player: i, View: v, Action: a}, true, nil
		}
	}
	return Move{}, false, nil
}

// seat is the Device of token's holder: on a Driver's turns, it decides
// afresh every turn (the turns pace it) and takes any refusal as an error.
func (d *Driver) seat(token string) *Device {
	return &Device{Conn: d.conn(token), Mind: chooser{d}}
}

func (d *Driver) conn(token string) tableConn { return tableConn{d, token} }

// chooser is the Mind of a Driver's seats: Choose on every turn.
type chooser struct{ d *Driver }

func (c chooser) Decide(v rules.View) (rules.Action, bool) { return Choose(v, c.d.Rand) }

func (chooser) Acted(rules.View, rules.Action) {}

// tableConn is a Driver's seat's line to the Table.
type tableConn struct {
	d     *Driver
	token string
}

// Poll is Conn's; a Driver does not wait between turns.
func (c tableConn) Poll(ctx context.Context) (rules.View, time.Duration, error) {
	v, err := c.d.Table.Read(ctx, c.d.Seats.Code, c.token)
	if err != nil {
		return v, 0, fmt.Errorf("read %s: %w", c.d.Seats.Code, err)
	}
	return v, 0, nil
}

// Act is Conn's: the action with a fresh id; a refusal is an error, as a bot
// chooses only what its view offers.
func (c tableConn) Act(ctx context.Context, a rules.Action) (rules.View, time.Duration, bool, error) {
	a.ID = ActionID()
	v, err := c.d.Table.Act(ctx, c.d.Seats.Code, c.token, a)
	if err != nil {
		return v, 0, false, fmt.Errorf("act %+v in %s: %w", a, c.d.Seats.Code, err)
	}
	c.d.Actions++
	return v, 0, true, nil
}

// Until plays rounds, from whatever point the game is at, until done holds
// for the host's view, or for the view of a player who just acted (what done
// looks at should be public: the phase, the day, the players alive, so the
// bots stop before anyone acts in the new situation), or the game is over. It
// returns the host's view then, or an error if the game stops moving or takes
// more than MaxRounds.
func (d *Driver) Until(ctx context.Context, done func(rules.View) bool) (rules.View, error) {
	host, _, err := d.conn(d.Seats.Host).Poll(ctx)
	if err != nil {
		return host, err
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
