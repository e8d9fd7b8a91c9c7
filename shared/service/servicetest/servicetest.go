// Package servicetest helps tests drive games through a service.Service: make a
// game with seated players, play it with simple bots up to a point or to the end,
// and run it on a store that injects conflicts and failures.
//
//	svc := service.New(store.NewMemory())
//	g := servicetest.NewGame(t, svc, service.CreateRequest{Preset: "sport"}, 10)
//	g.Start(t, svc)
//	end := servicetest.PlayToEnd(t, svc, g)
//	if end.Winner == nil { ... }
//
// The bots choose only legal actions, from the actions their own view lists, the
// way the frontend does; they never look at state they may not see.
package servicetest

import (
	"cmp"
	"context"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	mrand "math/rand/v2"
	"slices"
	"sync"
	"testing"
	"time"

	"citysleeps/shared/rules"
	"citysleeps/shared/service"
)

// Client is what the bots need of a game server: a *service.Service, a Retrier
// around one, or a test's HTTP client with the same methods.
type Client interface {
	Read(ctx context.Context, code, token string) (rules.View, error)
	Act(ctx context.Context, code, token string, a rules.Action) (rules.View, error)
}

// Server is a Client that can also open games and seat players.
type Server interface {
	Client
	Create(ctx context.Context, req service.CreateRequest) (service.Created, error)
	Join(ctx context.Context, code string, req service.JoinRequest) (service.Joined, error)
}

var _ Server = (*service.Service)(nil)

// Seat is one player of a Game.
type Seat struct {
	ID    string
	Name  string
	Token string
}

// Game is a game made through a Service, with the secrets to play it.
type Game struct {
	Code    string
	Host    string // the host token
	Players []Seat // in joining order
}

// Tokens returns the players' tokens in joining order.
func (g Game) Tokens() []string {
	out := make([]string, len(g.Players))
	for i, p := range g.Players {
		out[i] = p.Token
	}
	return out
}

// Token returns the token of the player with id, or fails tb.
func (g Game) Token(tb testing.TB, id string) string {
	tb.Helper()
	for _, p := range g.Players {
		if p.ID == id {
			return p.Token
		}
	}
	tb.Fatalf("game %s has no player %q", g.Code, id)
	return ""
}

// NewGame creates a game with req and seats n players named "Player 1" to
// "Player n". It fails tb on any error.
func NewGame(tb testing.TB, svc Server, req service.CreateRequest, n int) Game {
	tb.Helper()
	ctx := context.Background()
	c, err := svc.Create(ctx, req)
	if err != nil {
		tb.Fatalf("create %+v: %v", req, err)
	}
	g := Game{Code: c.Code, Host: c.HostToken}
	for i := 1; i <= n; i++ {
		name := fmt.Sprintf("Player %d", i)
		j, err := svc.Join(ctx, c.Code, service.JoinRequest{Name: name})
		if err != nil {
			tb.Fatalf("join %s as %q: %v", c.Code, name, err)
		}
		g.Players = append(g.Players, Seat{ID: j.PlayerID, Name: name, Token: j.Token})
	}
	return g
}

// Start deals the cards, cuts the hand-over before the first night short, and
// returns the host's view.
func (g Game) Start(tb testing.TB, svc Client) rules.View {
	tb.Helper()
	MustAct(tb, svc, g.Code, g.Host, rules.Action{ID: ActionID(), Type: rules.ActStart})
	return EndHandOver(tb, svc, g)
}

// ActionID returns a fresh random action id, 22 characters like a client's
// 128-bit one, so that stored sizes measured with bots are realistic.
func ActionID() string {
	b := make([]byte, 16)
	rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}

// MustAct sends an action and fails tb if it is refused.
func MustAct(tb testing.TB, svc Client, code, token string, a rules.Action) rules.View {
	tb.Helper()
	v, err := svc.Act(context.Background(), code, token, a)
	if err != nil {
		tb.Fatalf("act %+v in %s: %v", a, code, err)
	}
	return v
}

// MustRead reads a view and fails tb on an error.
func MustRead(tb testing.TB, svc Client, code, token string) rules.View {
	tb.Helper()
	v, err := svc.Read(context.Background(), code, token)
	if err != nil {
		tb.Fatalf("read %s: %v", code, err)
	}
	return v
}

// botOrder is the order of preference of a bot among its legal actions. Leaving,
// withdrawing, testaments and reveals are never chosen; a speaker nominates
// before ending the speech; a night role acts before it sleeps.
var botOrder = []rules.ActionType{
	rules.ActVote, rules.ActVoteAll,
	rules.ActKill, rules.ActCheck, rules.ActShoot, rules.ActHeal, rules.ActProtect, rules.ActDefend,
	rules.ActNominate, rules.ActEndSpeech, rules.ActSleep,
}

// Bot returns what a simple bot does with the view v of a player: the first of
// its legal actions in botOrder. Nominations and votes go to the first valid
// target and "shall they leave?" is answered yes, so most days send someone away
// and games end; a black player shoots the first target not known to be black, so
// the mafia's shots agree; other night acts pick a target at random, so that a
// protector does not shield the same player night after night. ok is false when
// the player has nothing to do.
func Bot(v rules.View) (a rules.Action, ok bool) {
	for _, typ := range botOrder {
		i := slices.IndexFunc(v.Actions, func(o rules.Option) bool { return o.Type == typ })
		if i < 0 {
			continue
		}
		o := v.Actions[i]
		a = rules.Action{ID: ActionID(), Type: typ}
		if len(o.Targets) > 0 {
			a.Target = o.Targets[0]
		}
		switch typ {
		case rules.ActCheck, rules.ActShoot, rules.ActHeal, rules.ActProtect, rules.ActDefend:
			a.Target = o.Targets[mrand.N(len(o.Targets))]
		case rules.ActVoteAll:
			yes := true
			a.Yes = &yes
		case rules.ActKill:
			if v.You != nil && v.You.Team == rules.MafiaTeam {
				for _, t := range o.Targets {
					if !blackKnown(v, t) {
						a.Target = t
						break
					}
				}
			}
		}
		return a, true
	}
	return rules.Action{}, false
}

func blackKnown(v rules.View, id string) bool {
	for _, p := range v.Players {
		if p.ID == id {
			return p.Team == rules.MafiaTeam
		}
	}
	return false
}

// Step gives every player, in joining order, one turn: each reads their view and
// takes Bot's action if they have one. If nobody could act, the host advances the
// game, as a moderator would. It returns whether anything was done and the host's
// view afterwards.
func Step(tb testing.TB, svc Client, g Game) (bool, rules.View) {
	tb.Helper()
	return step(tb, svc, g, func(rules.View) bool { return false })
}

// step is Step that stops as soon as done holds for a view after an action.
func step(tb testing.TB, svc Client, g Game, done func(rules.View) bool) (bool, rules.View) {
	tb.Helper()
	acted := false
	for _, p := range g.Players {
		v := MustRead(tb, svc, g.Code, p.Token)
		if v.Phase.Name == rules.PhaseGameOver {
			break
		}
		if a, ok := Bot(v); ok {
			acted = true
			if done(MustAct(tb, svc, g.Code, p.Token, a)) {
				break
			}
		}
	}
	host := MustRead(tb, svc, g.Code, g.Host)
	if !acted && !done(host) && host.Phase.Name != rules.PhaseGameOver && (host.Phase.Name != rules.PhaseLobby || host.Phase.Closing) {
		if slices.ContainsFunc(host.Actions, func(o rules.Option) bool { return o.Type == rules.ActAdvance }) {
			host = MustAct(tb, svc, g.Code, g.Host, rules.Action{ID: ActionID(), Type: rules.ActAdvance, Now: true})
			acted = true
		}
	}
	return acted, host
}

// EndHandOver cuts the game's hand-over short (rules.Options.HandOver), as the
// host may with "advance", so that a test goes on without waiting for the
// clock; with no hand-over running it changes nothing. It returns the host's
// view.
func EndHandOver(tb testing.TB, svc Client, g Game) rules.View {
	tb.Helper()
	host := MustRead(tb, svc, g.Code, g.Host)
	if host.Phase.Closing {
		host = MustAct(tb, svc, g.Code, g.Host, rules.Action{ID: ActionID(), Type: rules.ActAdvance, Now: true})
	}
	return host
}

// maxSteps bounds a bot game; a 10-player game takes a few dozen steps.
const maxSteps = 500

// PlayUntil plays with bots, from whatever point the game is at, until done
// holds or the game is over, and returns the host's view then. done is asked
// after every action, with the view of the player who acted (what done looks at
// should be public: the phase, the day, the players alive), so the bots stop
// before anyone acts in the new situation. It fails tb if the game stops moving
// or takes too long.
func PlayUntil(tb testing.TB, svc Client, g Game, done func(rules.View) bool) rules.View {
	tb.Helper()
	host := MustRead(tb, svc, g.Code, g.Host)
	for i := 0; i < maxSteps; i++ {
		if done(host) || host.Phase.Name == rules.PhaseGameOver {
			return host
		}
		var acted bool
		acted, host = step(tb, svc, g, done)
		if !acted && !done(host) && host.Phase.Name != rules.PhaseGameOver {
			tb.Fatalf("game %s is stuck in phase %s: nobody can act", g.Code, host.Phase.Name)
		}
	}
	tb.Fatalf("game %s did not get there in %d steps (phase %s, day %d)", g.Code, maxSteps, host.Phase.Name, host.Phase.Day)
	return host
}

// PlayToEnd plays a started game with bots until it is over and returns the
// host's final view.
func PlayToEnd(tb testing.TB, svc Client, g Game) rules.View {
	tb.Helper()
	end := PlayUntil(tb, svc, g, func(rules.View) bool { return false })
	if end.Winner == nil {
		tb.Fatalf("game %s over without a winner", g.Code)
	}
	return end
}

// InPhase returns a PlayUntil condition: the game is in the named phase.
func InPhase(name rules.PhaseName) func(rules.View) bool {
	return func(v rules.View) bool { return v.Phase.Name == name }
}

// IsRetryable reports whether a client would send the same request again after
// err: the service was busy or the store failed for a moment.
func IsRetryable(err error) bool {
	return errors.Is(err, service.ErrBusy) || errors.Is(err, service.ErrUnavailable)
}

// Retrier is a patient client: a request that fails with ErrBusy or
// ErrUnavailable is sent again, unchanged, as the frontend does. An action keeps
// its id, so however often it is resent it is applied once.
type Retrier struct {
	Server
	// Tries bounds the attempts per request (default 50).
	Tries int

	mu      sync.Mutex
	retries int
}

// Retry wraps svc in a Retrier.
func Retry(svc Server) *Retrier { return &Retrier{Server: svc} }

// Retries returns how many requests were resent so far.
func (r *Retrier) Retries() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.retries
}

func (r *Retrier) again(try int, err error) bool {
	if !IsRetryable(err) || try+1 >= cmp.Or(r.Tries, 50) {
		return false
	}
	r.mu.Lock()
	r.retries++
	r.mu.Unlock()
	time.Sleep(time.Duration(try+1) * time.Millisecond)
	return true
}

// Create sends the request until it is not refused for a passing reason.
func (r *Retrier) Create(ctx context.Context, req service.CreateRequest) (service.Created, error) {
	for try := 0; ; try++ {
		c, err := r.Server.Create(ctx, req)
		if !r.again(try, err) {
			return c, err
		}
	}
}

// Join sends the request until it is not refused for a passing reason.
func (r *Retrier) Join(ctx context.Context, code string, req service.JoinRequest) (service.Joined, error) {
	for try := 0; ; try++ {
		j, err := r.Server.Join(ctx, code, req)
		if !r.again(try, err) {
			return j, err
		}
	}
}

// Read sends the request until it is not refused for a passing reason.
func (r *Retrier) Read(ctx context.Context, code, token string) (rules.View, error) {
	for try := 0; ; try++ {
		v, err := r.Server.Read(ctx, code, token)
		if !r.again(try, err) {
			return v, err
		}
	}
}

// Act sends the action, with the same id, until it is not refused for a
// passing reason.
func (r *Retrier) Act(ctx context.Context, code, token string, a rules.Action) (rules.View, error) {
	for try := 0; ; try++ {
		v, err := r.Server.Act(ctx, code, token, a)
		if !r.again(try, err) {
			return v, err
		}
	}
}
