// Package servicetest helps tests drive games through a service.Service: make a
// game with seated players, play it with bots (package bot) up to a point or to
// the end, and run it on a store that injects conflicts and failures.
//
//	svc := service.New(store.NewMemory())
//	g := servicetest.NewGame(t, svc, service.CreateRequest{Preset: "sport"}, 10)
//	g.Start(t, svc)
//	end := servicetest.PlayToEnd(t, svc, g)
//	if end.Winner == nil { ... }
package servicetest

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"
	"time"

	"citysleeps/shared/bot"
	"citysleeps/shared/evening"
	"citysleeps/shared/protocol"
	"citysleeps/shared/rules"
	"citysleeps/shared/scoring"
	"citysleeps/shared/service"
)

// Client is what the bots need of a game server: a *service.Service, a Retrier
// around one, or a test's HTTP client with the same methods.
type Client = bot.Table

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

// ActionID returns a fresh random action id, like a client's (bot.ActionID).
var ActionID = bot.ActionID

// hostTurns are host actions that always apply, in turn, and leave the game
// where it was: a pause, the resume, and "next" ending the resume's hand-over
// at once (a benchmark's clock would never end it in time).
var hostTurns = [...]rules.Action{{Type: rules.ActPause}, {Type: rules.ActResume}, {Type: rules.ActAdvance, Now: true}}

// HostTurns is how many host actions bring the game back to where it was
// (HostTurn).
const HostTurns = len(hostTurns)

// HostTurn is the i-th host action of a benchmark's endless round of them,
// with an id of its own: the same game, one action at a time, for ever.
func HostTurn(i int) rules.Action {
	a := hostTurns[i%len(hostTurns)]
	a.ID = ActionID()
	return a
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

// Seats returns the game's secrets for a bot.Driver.
func (g Game) Seats() bot.Seats {
	return bot.Seats{Code: g.Code, Host: g.Host, Players: g.Tokens()}
}

// driver returns a bot.Driver of g through svc, its bots choosing at random.
func driver(svc Client, g Game) *bot.Driver {
	return &bot.Driver{Table: svc, Seats: g.Seats(), Rand: rand.New(rand.NewPCG(rand.Uint64(), rand.Uint64()))}
}

// PlayUntil plays with bots (bot.Driver.Until), from whatever point the game
// is at, until done holds or the game is over, and returns the host's view
// then. It fails tb if the game stops moving or takes too long.
func PlayUntil(tb testing.TB, svc Client, g Game, done func(rules.View) bool) rules.View {
	tb.Helper()
	host, err := driver(svc, g).Until(context.Background(), done)
	if err != nil {
		tb.Fatal(err)
	}
	return host
}

// PlayToEnd plays a started game with bots until it is over and returns the
// host's final view.
func PlayToEnd(tb testing.TB, svc Client, g Game) rules.View {
	tb.Helper()
	end, err := driver(svc, g).ToEnd(context.Background())
	if err != nil {
		tb.Fatal(err)
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

// EndByRemovals starts a game of an evening with its host token (its table's
// referee token, Referee) and ends it at once: the host removes players one
// by one until a team wins. Where a person moderates, the host sees the cards
// and removes the black players, so the town wins; where the app does, the
// host sees none and removes the first it may, so the mafia wins (or the
// town, if the blacks are removed first). It returns an error rather than
// failing a test, so that it can run beside others.
func EndByRemovals(svc Client, code, host string) error {
	ctx := context.Background()
	act := func(a rules.Action) error {
		a.ID = ActionID()
		_, err := svc.Act(ctx, code, host, a)
		return err
	}
	if err := act(rules.Action{Type: rules.ActStart}); err != nil {
		return fmt.Errorf("start %s: %w", code, err)
	}
	for range 40 {
		v, err := svc.Read(ctx, code, host)
		switch {
		case err != nil:
			return err
		case v.Phase.Name == rules.PhaseGameOver:
			return nil
		case v.Phase.Closing:
			if err := act(rules.Action{Type: rules.ActAdvance, Now: true}); err != nil {
				return err
			}
			continue
		}
		i := slices.IndexFunc(v.Actions, func(o rules.Option) bool { return o.Type == rules.ActRemove })
		if i < 0 {
			return fmt.Errorf("game %s in %s: the host cannot remove anyone", code, v.Phase.Name)
		}
		target := ""
		for _, p := range v.Players {
			if p.Alive && p.Role.Team() == rules.MafiaTeam && slices.Contains(v.Actions[i].Targets, p.ID) {
				target = p.ID
			}
		}
		if v.Moderator == rules.ModeratorApp && len(v.Actions[i].Targets) > 0 {
			target = v.Actions[i].Targets[0]
		}
		if target == "" {
			return fmt.Errorf("game %s: no black player to remove", code)
		}
		if err := act(rules.Action{Type: rules.ActRemove, Target: target}); err != nil {
			return err
		}
	}
	return fmt.Errorf("game %s did not end", code)
}

// ProtocolStandings are an evening's standings scored again from its games'
// protocols (protocolOf reads one), each game once, by the evening's scoring
// table with the referee's extras the view shows at each game: the evening
// adds those to the result it recorded, so the two ways must agree. v must
// show every round's points (not hidden).
func ProtocolStandings(v evening.View, protocolOf func(game string) (protocol.Protocol, error)) ([]scoring.Standing, error) {
	var games []scoring.GameResult
	for _, r := range v.Rounds[:v.Round] {
		for _, t := range r.Tables {
			if t.Game == "" {
				continue
			}
			p, err := protocolOf(t.Game)
			if err != nil {
				return nil, fmt.Errorf("protocol of %s: %w", t.Game, err)
			}
			var extras []scoring.Extra
			for _, e := range t.Extras {
				extras = append(extras, scoring.Extra{Seat: slices.Index(t.Players, e.Player) + 1, Points: e.Points, Reason: e.Reason, WorstMove: e.WorstMove})
			}
			res, err := scoring.Game(p, evening.Scoring(), extras)
			if err != nil {
				return nil, fmt.Errorf("score %s: %w", t.Game, err)
			}
			games = append(games, scoring.GameResult{Number: len(games) + 1, Players: t.Players, Result: res})
		}
	}
	return scoring.Standings(evening.Scoring(), games)
}

// Referee is the referee token of table (from 1) in the organiser's view of
// an evening: the host token of that table's games. It is "" in any other
// view, which makes the test that uses it fail on the game's refusal.
func Referee(v evening.View, table int) string {
	for _, r := range v.Referees {
		if r.Table == table {
			return r.Token
		}
	}
	return ""
}
