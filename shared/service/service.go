package service

import (
	"bytes"
	"cmp"
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"maps"
	mrand "math/rand/v2"
	"strings"
	"sync"
	"time"

	"citysleeps/shared/protocol"
	"citysleeps/shared/rules"
	"citysleeps/shared/store"
	"citysleeps/shared/strictjson"
)

// Defaults of the options.
const (
	// DefaultTTL is how long a game is kept after its last change (DESIGN.md:
	// about 48 hours); every write moves the expiry on.
	DefaultTTL = 48 * time.Hour
	// DefaultMaxRetries is how many times a request tries its read-apply-write
	// loop before giving up with ErrBusy (conflicts) or ErrUnavailable (store
	// errors). Ten phones voting at once need a few rounds; eight with backoff
	// settle them.
	DefaultMaxRetries = 8
	// DefaultBudget is how long one request may spend on the store, every try
	// and pause included (WithBudget). A caller's own deadline (a Lambda
	// function's timeout, carried by its context) ends it sooner: reserve before
	// it. So a throttled or failing store gets a phone its 503 with Retry-After
	// in about three seconds, well within the function's timeout (template.yaml:
	// 10 s) and the app's own (10 s), instead of a timeout from API Gateway.
	DefaultBudget = 3 * time.Second
	// reserve is the time kept back from a caller's deadline to answer in.
	reserve = 500 * time.Millisecond
	// codeTries bounds the search for a free room code.
	codeTries = 8
	// backoffBase and backoffMax bound the jittered exponential wait between
	// tries after a conflict or a store error; throttleBase and throttleMax
	// after the store throttled the request, which passes more slowly.
	backoffBase  = 2 * time.Millisecond
	backoffMax   = 250 * time.Millisecond
	throttleBase = 50 * time.Millisecond
	throttleMax  = time.Second
)

// Languages are the languages a game can be played in.
var Languages = []string{"en", "ru", "uk", "ro"}

// Service runs games on a store. It keeps no game between requests: every call
// loads the game, works on that copy and writes it back under the version it read,
// so any number of Services (Lambda instances) can share one store. It is safe for
// concurrent use.
type Service struct {
	st         store.Store
	now        func() time.Time
	log        *slog.Logger
	ttl        time.Duration
	maxRetries int
	budget     time.Duration

	randMu sync.Mutex // a caller's io.Reader need not be safe for concurrent use
	rand   io.Reader

	// queues, when set (WithLocalLocks), hold by room code the writes of a game
	// that wait for the one in flight; a game has an entry while a writer works
	// on it. queueMu guards the map and the queues in it.
	queueMu sync.Mutex
	queues  map[string][]*request
}

// Option configures a Service.
type Option func(*Service)

// WithClock sets the clock that stamps actions and decides whether a deadline has
// passed (default time.Now). Tests move it by hand.
func WithClock(now func() time.Time) Option { return func(s *Service) { s.now = now } }

// WithRand sets the source of room codes, tokens and deal seeds (default
// crypto/rand.Reader). Anything else is for tests only: tokens must be unguessable.
func WithRand(r io.Reader) Option { return func(s *Service) { s.rand = r } }

// WithLogger sets where retries and store failures are logged (default
// slog.Default()). Errors returned to the caller are not logged here; the caller
// decides.
func WithLogger(l *slog.Logger) Option { return func(s *Service) { s.log = l } }

// WithTTL sets how long a game lives after its last write (default DefaultTTL).
func WithTTL(d time.Duration) Option { return func(s *Service) { s.ttl = d } }

// WithMaxRetries sets how many times a request tries to load, apply and save
// before it gives up (default DefaultMaxRetries; at least 1).
func WithMaxRetries(n int) Option { return func(s *Service) { s.maxRetries = max(1, n) } }

// WithBudget sets how long one request may spend on the store, all its tries
// included, before it gives up with ErrUnavailable (default DefaultBudget). The
// context's deadline, less a moment to answer in, ends it sooner.
func WithBudget(d time.Duration) Option { return func(s *Service) { s.budget = d } }

// WithLocalLocks makes the requests that write one game (actions and joins)
// take turns inside this process instead of racing to the store, and makes the
// ones that queue behind a write in flight share the next write (see write).
// When one process serves every request (the local server), ten votes cast at
// once then cost two writes, the first vote's and one for the nine that queued
// behind it, rather than ten writes in a row (on the embedded store, ten fsyncs
// the last voter waits for) or ten racing writes and dozens of version conflicts
// and retries. The version check still guards against any other process.
func WithLocalLocks() Option {
	return func(s *Service) { s.queues = map[string][]*request{} }
}

// New returns a Service on st.
func New(st store.Store, opts ...Option) *Service {
	s := &Service{st: st, now: time.Now, log: slog.Default(), ttl: DefaultTTL,
		maxRetries: DefaultMaxRetries, budget: DefaultBudget, rand: rand.Reader}
	for _, o := range opts {
		o(s)
	}
	return s
}

// CreateRequest is what a host sends to open a game.
type CreateRequest struct {
	Preset string `json:"preset"`
	// Options override some of the preset's rules: the object is decoded onto the
	// preset's defaults, so it names only what changes. Unknown fields are refused,
	// so a misspelt rule is an error and not silently the default.
	Options   json.RawMessage `json:"options,omitempty"`
	Moderator string          `json:"moderator,omitempty"` // "app" (default) or "host"
	Lang      string          `json:"lang,omitempty"`      // "en" (default), "ru", "uk" or "ro"
}

// Created is a new game: its room code, the host's secret token (shown once,
// stored only as a hash) and the host's view.
type Created struct {
	Code      string     `json:"code"`
	HostToken string     `json:"hostToken"`
	Game      rules.View `json:"game"`
}

// JoinRequest is what a player sends to take a seat.
type JoinRequest struct {
	// Name is the player's name as typed; the service normalizes and checks it
	// (cleanName).
	Name string `json:"name"`
	// JoinID, if set, makes the join safe to send again: the client's own
	// random id for this join (MinClientID to MaxActionID of [A-Za-z0-9_-]).
	// A join with an id that already has a seat returns that seat and the same
	// token. Whoever knows the id can do that, so it is as secret as the token.
	JoinID string `json:"joinId,omitempty"`
	// Device, if set, is the client's own random id for the device it runs on
	// (the same length and letters), kept for good: the host can ban the device
	// of a seat from the lobby. Only a hash of it is kept, and only while the
	// game is in its lobby.
	Device string `json:"device,omitempty"`
	// SeatKey, if set, is the key of a link the host made to move a seat to
	// another device (rules.ActReseat): the join takes that seat as it is,
	// in any phase, and comes without a name (takeSeat).
	SeatKey string `json:"seatKey,omitempty"`
	// SeatCode goes with SeatKey in a game the app moderates: the code on
	// the seat's card (rules.You.SeatCode).
	SeatCode string `json:"seatCode,omitempty"`
}

// Joined is a new seat: the player's id, their secret token and their view,
// with every seat's view of the same revision and its noise (Table), to which
// the answer is padded as every answer carrying a player's view is.
type Joined struct {
	PlayerID string       `json:"playerId"`
	Token    string       `json:"token"`
	Game     rules.View   `json:"game"`
	Seats    []rules.View `json:"-"`
	Noise    uint64       `json:"-"`
}

// Table is the seat's view as a Table: the view, every seat's of the same
// revision and the revision's noise.
func (j Joined) Table() Table { return Table{View: j.Game, Seats: j.Seats, Noise: j.Noise} }

// Create opens a new game in its lobby and returns its code, the host token and
// the host's view.
func (s *Service) Create(ctx context.Context, req CreateRequest) (Created, error) {
	opts, moderator, lang, err := parseCreate(req)
	if err != nil {
		return Created{}, err
	}
	hostToken, err := s.token()
	if err != nil {
		return Created{}, err
	}
	env := &envelope{Host: hashToken(hostToken), Tokens: map[string][]byte{}}
	code, now, err := s.put(ctx, "create", env, func(code string, now time.Time) (rules.State, error) {
		st, err := rules.New(code, opts, moderator, lang, now)
		if err != nil {
			// parseCreate validated everything New checks.
			return rules.State{}, fail(ErrInvalid, "invalid game settings", err)
		}
		return st, nil
	})
	if err != nil {
		return Created{}, err
	}
	return Created{Code: code, HostToken: hostToken, Game: view(env, rules.Viewer{Host: true}, 1, now)}, nil
}

// put stores env as a new game under a free room code, with the state that
// game makes for that code, and returns the code and the time it was made at.
func (s *Service) put(ctx context.Context, op string, env *envelope, game func(code string, now time.Time) (rules.State, error)) (string, time.Time, error) {
	return s.putItem(ctx, op, gameKey, s.ttl, func(code string, now time.Time) ([]byte, error) {
		st, err := game(code, now)
		if err != nil {
			return nil, refused(err)
		}
		env.State = st
		b, err := encode(env)
		if err != nil {
			return nil, fail(ErrInternal, "could not save the game", err)
		}
		return b, nil
	}, func(b []byte) bool {
		stored, err := decode(b)
		return err == nil && bytes.Equal(stored.Host, env.Host)
	})
}

// gameKey is the store's key of the game with a room code: the code itself.
func gameKey(code string) string { return code }

// putItem stores a new item, a game or an evening, under a free room code:
// key is the item's store key for a code, item its stored bytes for that code
// and time, ttl how long it lives, and ours tells the item this request wrote
// from another's. It returns the code and the time the item was made at.
func (s *Service) putItem(ctx context.Context, op string, key func(code string) string, ttl time.Duration,
	item func(code string, now time.Time) ([]byte, error), ours func(stored []byte) bool) (string, time.Time, error) {
	ctx, cancel := s.withBudget(ctx)
	defer cancel()
	var last error
	code := ""
	for try := 0; try < max(codeTries, s.maxRetries); try++ {
		if last != nil && !errors.Is(last, store.ErrExists) && !s.pause(ctx, try, last) {
			break
		}
		if code == "" {
			var err error
			if code, err = s.code(); err != nil {
				return "", time.Time{}, err
			}
		}
		now := s.now()
		b, err := item(code, now)
		if err != nil {
			return "", time.Time{}, err
		}
		err = s.st.Create(ctx, key(code), b, now.Add(ttl))
		switch {
		case err == nil:
			return code, now, nil
		case errors.Is(err, store.ErrExists):
			// Taken: by another item, or by this very request if an earlier try
			// was written although the store reported an error.
			if last != nil && !errors.Is(last, store.ErrExists) && s.ours(ctx, key(code), ours) {
				return code, now, nil
			}
			code = ""
		case !retryable(ctx, err):
			return "", time.Time{}, s.storeFailure(ctx, op, code, err)
		default:
			s.log.DebugContext(ctx, "service: create failed, trying again", "op", op, "code", code, "try", try, "err", err)
		}
		last = err
	}
	if errors.Is(last, store.ErrExists) {
		return "", time.Time{}, fail(ErrBusy, "no free room code was found, try again", last)
	}
	return "", time.Time{}, s.storeFailure(ctx, op, code, last)
}

// Again opens the next game for the table of a finished one, "play again with
// the same players", and returns it: a lobby with the same rules and the same
// players in their seats (rules.Again), where the host token and every
// player's token still hold, so nobody scans a code again. The finished game
// then names the new one (View.Next), and every page of it follows there.
//
// Only the host may ask, and only once the game is over. Asking again returns
// the game already opened. Two requests at the same moment may both open a
// game; the first to link its game wins, and the other game is left unused, to
// expire. Created.HostToken is empty: the host keeps the token it has.
func (s *Service) Again(ctx context.Context, code, token string) (Created, error) {
	code, ok := normalizeCode(code)
	if !ok {
		return Created{}, errNoGame()
	}
	if token == "" {
		return Created{}, fail(ErrUnauthorized, "a token is needed to play again", nil)
	}
	host := func(env *envelope) error {
		v, ok := env.who(token)
		switch {
		case !ok || v == rules.Public:
			return errToken()
		case !v.Host:
			return rules.ErrNotHost
		}
		return nil
	}
	out, err := s.loop(ctx, "again", code, func(env *envelope, now time.Time, try int) (bool, error) {
		return false, host(env)
	})
	if err != nil {
		return Created{}, err
	}
	if out.env.Next != "" {
		return s.opened(ctx, out.env.Next, token)
	}
	old := out.env.State
	env := &envelope{Host: out.env.Host, Tokens: maps.Clone(out.env.Tokens)}
	next, _, err := s.put(ctx, "again", env, func(code string, now time.Time) (rules.State, error) {
		return rules.Again(old, code, now)
	})
	if err != nil {
		return Created{}, err
	}
	linked, err := s.write(ctx, "again", code, func(env *envelope, now time.Time, try int) (bool, error) {
		if err := host(env); err != nil || env.Next != "" {
			return false, err
		}
		env.Next = next
		return true, nil
	})
	if err != nil {
		return Created{}, err
	}
	return s.opened(ctx, linked.env.Next, token)
}

// opened is the host's answer about the next game at code.
func (s *Service) opened(ctx context.Context, code, token string) (Created, error) {
	v, err := s.Read(ctx, code, token)
	if err != nil {
		return Created{}, err
	}
	return Created{Code: code, Game: v}, nil
}

// ours reports whether the item stored at key is the one ours recognises:
// whether a Create that reported an error had in fact been written.
func (s *Service) ours(ctx context.Context, key string, ours func(stored []byte) bool) bool {
	it, err := s.st.Get(ctx, key, true)
	return err == nil && ours(it.State)
}

// parseCreate checks a create request and works out the game's rules.
func parseCreate(req CreateRequest) (rules.Options, string, string, error) {
	req.Preset = strings.TrimSpace(req.Preset)
	if req.Preset == "" {
		return rules.Options{}, "", "", invalid("preset is required: one of " + strings.Join(rules.Presets, ", "))
	}
	opts, err := rules.Preset(req.Preset)
	if err != nil {
		return rules.Options{}, "", "", invalid(fmt.Sprintf("unknown preset %q: use one of %s", req.Preset, strings.Join(rules.Presets, ", ")))
	}
	if raw := bytes.TrimSpace(req.Options); len(raw) > 0 && !bytes.Equal(raw, []byte("null")) {
		var se *strictjson.Error
		if err := strictjson.Decode(raw, &opts); errors.As(err, &se) {
			return rules.Options{}, "", "", invalid("options: " + se.Message)
		}
		if opts.Preset != req.Preset {
			return rules.Options{}, "", "", invalid("options.preset must be the same as preset")
		}
	}
	if err := opts.Validate(); err != nil {
		// The rules of a game not yet made are a field of the request: its
		// refusal keeps the rules' message under the code of any bad field.
		e := As(refused(err))
		e.Code = string(ErrInvalid)
		return rules.Options{}, "", "", e
	}
	moderator := req.Moderator
	switch moderator {
	case "":
		moderator = rules.ModeratorApp
	case rules.ModeratorApp, rules.ModeratorHost:
	default:
		return rules.Options{}, "", "", invalid(`moderator must be "app" or "host"`)
	}
	lang := req.Lang
	if lang == "" {
		lang = "en"
	}
	ok := false
	for _, l := range Languages {
		ok = ok || l == lang
	}
	if !ok {
		return rules.Options{}, "", "", invalid("lang must be one of " + strings.Join(Languages, ", "))
	}
	return opts, moderator, lang, nil
}

// Join seats a new player in the lobby and returns the player's id, their
// secret token and their view. The name is normalized and checked here
// (cleanName), and one that looks like a name at the table is refused; the
// rules refuse a name already taken, a full table, a locked lobby, a banned
// device and a game that has started, each with its own code. A game gives
// joinBurst seats at once and then one every joinEvery (ErrLimited).
//
// With a join id the token is derived from it and the game's key, so a join
// sent again after its answer was lost finds its seat and gets the same token,
// instead of a second seat and "name taken".
//
// A join with a seat key takes the seat of a link the host made (takeSeat),
// in any phase, instead of a new one.
func (s *Service) Join(ctx context.Context, code string, req JoinRequest) (Joined, error) {
	code, ok := normalizeCode(code)
	if !ok {
		return Joined{}, errNoGame()
	}
	if req.SeatKey != "" {
		return s.takeSeat(ctx, code, req)
	}
	name, err := cleanName(req.Name)
	if err != nil {
		return Joined{}, err
	}
	return s.seatDevice(ctx, "join", code, req, func(env *envelope, device string, now time.Time) (rules.State, string, error) {
		if err := lookalikeError(name, env.State.Players); err != nil {
			return rules.State{}, "", err
		}
		st, seat, err := rules.JoinFrom(env.State, name, device, now)
		if err != nil {
			return rules.State{}, "", err
		}
		return st, seat, env.takeJoin(now)
	})
}

// seatDevice is what every join does around the seat it gives: the request's
// device checked, the token drawn once for all tries, the join id's seat found
// again on a retry, and the seat's token stored with the game that seat
// returns (a new seat, or one moved to this device).
func (s *Service) seatDevice(ctx context.Context, op, code string, req JoinRequest,
	seat func(env *envelope, device string, now time.Time) (rules.State, string, error)) (Joined, error) {
	device, err := req.device()
	if err != nil {
		return Joined{}, err
	}
	d, err := s.drawJoin()
	if err != nil {
		return Joined{}, err
	}
	var id, token string
	out, err := s.write(ctx, op, code, func(env *envelope, now time.Time, try int) (bool, error) {
		var key []byte
		if token, key, id = env.tokenFor(req.JoinID, d); id != "" {
			return false, nil
		}
		st, taken, err := seat(env, device, now)
		if err != nil {
			_, write := counted(err) // a wrong seat code counts against its link
			return write, err
		}
		env.State, env.Key = st, key
		env.seat(taken, hashToken(token))
		id = taken
		return true, nil
	})
	if err != nil {
		return Joined{}, err
	}
	t := out.table(rules.Viewer{Player: id})
	return Joined{PlayerID: id, Token: token, Game: t.View, Seats: t.Seats, Noise: t.Noise}, nil
}

// device checks the request's join id and device id, and returns what the game
// keeps of the device (deviceKey), "" for none.
func (req JoinRequest) device() (string, error) {
	for _, f := range []struct{ field, v string }{{"joinId", req.JoinID}, {"device", req.Device}} {
		if err := checkClientID(f.field, f.v); err != nil {
			return "", err
		}
	}
	if req.Device == "" {
		return "", nil
	}
	return deviceKey(req.Device), nil
}

// joinDraw is what a join draws before its tries: a random token, and a key
// for a game that has none yet (envelope.Key).
type joinDraw struct {
	token string
	key   []byte
}

// drawJoin draws a join's randomness once, before its tries, so that every try
// of one request gives the same token (and a try after a write that did land
// finds its own seat).
func (s *Service) drawJoin() (joinDraw, error) {
	random, err := s.token()
	if err != nil {
		return joinDraw{}, err
	}
	key := make([]byte, gameKeyLen)
	if err := s.read(key); err != nil {
		return joinDraw{}, err
	}
	return joinDraw{random, key}, nil
}

// tokenFor is the token a try of a join gives, with the game's key it is
// derived from (the drawn one, for a game that has none yet), and the seat
// that already holds it when the join was sent before: this join id's token,
// or, on a later try, this request's own random one.
func (e *envelope) tokenFor(joinID string, d joinDraw) (token string, key []byte, held string) {
	key = e.Key
	if key == nil {
		key = d.key
	}
	token, held = heldToken(e.Tokens, key, joinID, d.token)
	return token, key, held
}

// heldToken is the token a try of a join gives, and the id in tokens (the
// hashes of a game's seats, or of an evening's players) that already holds
// it, "" for none: the token joinToken derives from the join id under key,
// or without a join id the request's own random one, which a later try of
// the same request finds held when the write of an earlier try did land.
// Both a game's join and an evening's use it, so a join sent again answers
// the seat or the player it took.
func heldToken(tokens map[string][]byte, key []byte, joinID, random string) (token, held string) {
	token = random
	if joinID != "" {
		token = joinToken(key, joinID)
	}
	h := hashToken(token)
	for id, th := range tokens {
		if bytes.Equal(th, h) {
			return token, id
		}
	}
	return token, ""
}

// Read returns the game as the token's holder may see it: "" is the public shared
// screen, the host token the host's view, a player token that player's.
//
// Read never writes. A deadline that has passed moves the game on in the view
// (rules.ViewOf applies it), and the next action stores it: the clock's
// transitions follow from the stored game alone, so every reader computes the
// same ones, and the view's Version and Tick name the state shown. So a poll
// costs one eventually consistent read (half a read unit on DynamoDB), polls never
// contend with each other or with actions for the write, and the read function
// needs no write rights. An eventually consistent read may lag the latest write
// by a moment; its version says which state it shows.
func (s *Service) Read(ctx context.Context, code, token string) (rules.View, error) {
	out, viewer, err := s.readOut(ctx, code, token)
	if err != nil {
		return rules.View{}, err
	}
	return out.view(viewer), nil
}

// ReadTable is Read with every seat's view of the same revision (Table).
func (s *Service) ReadTable(ctx context.Context, code, token string) (Table, error) {
	out, viewer, err := s.readOut(ctx, code, token)
	if err != nil {
		return Table{}, err
	}
	return out.table(viewer), nil
}

// readOut loads the game for Read and finds the token's holder.
func (s *Service) readOut(ctx context.Context, code, token string) (outcome, rules.Viewer, error) {
	code, ok := normalizeCode(code)
	if !ok {
		return outcome{}, rules.Viewer{}, errNoGame()
	}
	var viewer rules.Viewer
	out, err := s.loop(ctx, "read", code, func(env *envelope, now time.Time, try int) (bool, error) {
		v, ok := env.who(token)
		if !ok {
			return false, errToken()
		}
		viewer = v
		return false, nil
	})
	return out, viewer, err
}

// Act applies one action by the token's holder and returns their view after it.
// The action's ID (1 to 64 of [A-Za-z0-9_-]) makes retries safe: an ID this actor
// already had applied returns their current view and changes nothing. A "start"
// gets its deal seed here, from the service's random source, and a "reseat" its
// seat key: the answer to it, and no other, holds the key (View.Reseat), since
// the game keeps only its hash (see move.go).
//
// On a version conflict the game is reloaded and the action applied again to the
// new state; if it is no longer legal there, the rules' refusal is returned. A
// refused action is not written: the stored game and its version stay as they were.
// With local locks the action may be written together with others of the game
// (see write); the view returned is then of the game after all of them.
func (s *Service) Act(ctx context.Context, code, token string, a rules.Action) (rules.View, error) {
	done, err := s.actOut(ctx, code, token, a)
	if err != nil {
		return rules.View{}, err
	}
	v := done.out.view(done.viewer)
	v.Reseat = done.link
	return v, nil
}

// ActTable is Act with every seat's view of the revision it leaves (Table).
func (s *Service) ActTable(ctx context.Context, code, token string, a rules.Action) (Table, error) {
	done, err := s.actOut(ctx, code, token, a)
	if err != nil {
		return Table{}, err
	}
	t := done.out.table(done.viewer)
	t.View.Reseat = done.link
	return t, nil
}

// acted is what an action leaves: the game, the actor, and the link a
// "reseat" made (nil for any other action), which only its answer holds.
type acted struct {
	out    outcome
	viewer rules.Viewer
	link   *rules.SeatLink
}

// actOut applies the action for Act.
func (s *Service) actOut(ctx context.Context, code, token string, a rules.Action) (acted, error) {
	code, ok := normalizeCode(code)
	if !ok {
		return acted{}, errNoGame()
	}
	if token == "" {
		return acted{}, fail(ErrUnauthorized, "a token is needed to act", nil)
	}
	switch {
	case !validActionID(a.ID):
		return acted{}, invalid("an action needs an id of 1 to 64 letters, digits, '-' or '_'")
	case a.Type == "":
		return acted{}, invalid("an action needs a type")
	}
	a.Deal = [32]byte{}
	if a.Type == rules.ActStart {
		if err := s.read(a.Deal[:]); err != nil {
			return acted{}, err
		}
	}
	seatKey := ""
	if a.Type == rules.ActReseat {
		var err error
		if seatKey, err = s.token(); err != nil {
			return acted{}, err
		}
	}
	var viewer rules.Viewer
	var link *rules.SeatLink
	out, err := s.write(ctx, "act", code, func(env *envelope, now time.Time, try int) (bool, error) {
		link = nil
		v, ok := env.who(token)
		if !ok || v == rules.Public {
			return false, errToken()
		}
		viewer = v
		actor := rules.Actor(v)
		if env.seen(actor, a.ID) {
			// Applied before: answer with the current view and change
			// nothing. A reseat's key went with its first answer only.
			return false, nil
		}
		next, err := rules.Apply(env.State, actor, a, now)
		if err != nil {
			return false, err
		}
		env.State = next
		env.remember(actor, a.ID)
		if a.Type == rules.ActReseat {
			link = env.open(a.Target, seatKey, now)
		}
		return true, nil
	})
	if err != nil {
		// The step may yet run in the leader of a batch this request left
		// (its context ended): what it notes is not this request's to read.
		return acted{}, err
	}
	return acted{out, viewer, link}, nil
}

// CodeGameNotOver is the code of a protocol asked for before the game is over
// by anyone but its moderator (Protocol).
const CodeGameNotOver = "game_not_over"

// Protocol returns the game's protocol (package protocol) as it stands now: to
// anyone once the game is over, and before that to its moderator alone, the
// holder of the host token of a game a person moderates, since it holds every
// card and every night act. Anyone else gets the one conflict
// CodeGameNotOver: the phase is the only thing the answer depends on, and
// every view shows it. A token this game does not know is refused as a read
// refuses it.
func (s *Service) Protocol(ctx context.Context, code, token string) (protocol.Protocol, error) {
	code, ok := normalizeCode(code)
	if !ok {
		return protocol.Protocol{}, errNoGame()
	}
	var p protocol.Protocol
	_, err := s.loop(ctx, "read", code, func(env *envelope, now time.Time, try int) (bool, error) {
		v, ok := env.who(token)
		if !ok {
			return false, errToken()
		}
		game := rules.Advance(env.State, now)
		if game.Phase.Name != rules.PhaseGameOver && !(v.Host && game.Moderator == rules.ModeratorHost) {
			return false, &Error{Kind: ErrConflict, Code: CodeGameNotOver, Message: "the protocol is shown once the game is over"}
		}
		p = protocol.Of(game)
		return false, nil
	})
	return p, err
}

// Revision names the state a Read would show now: the stored version and the
// clock's transitions since (rules.View's Version and Tick), with the game's
// timing then and who the token's holder is, which is all a poll hint needs.
type Revision struct {
	Version int64
	Tick    int
	Timing  rules.Timing
	Viewer  rules.Viewer
}

// Revision returns the revision a Read by the token's holder would report now,
// cheaply, so that an HTTP layer can answer If-None-Match without building a
// view: one eventually consistent read. The public screen's poll ("" token)
// decodes nothing unless a deadline has passed (the timing is kept outside the
// compressed state for this); a token is checked like Read checks it, so a
// forged one is refused here too.
func (s *Service) Revision(ctx context.Context, code, token string) (Revision, error) {
	code, ok := normalizeCode(code)
	if !ok {
		return Revision{}, errNoGame()
	}
	ctx, cancel := s.withBudget(ctx)
	defer cancel()
	var last error
	for try := 0; try < s.maxRetries && s.pause(ctx, try, last); try++ {
		it, err := s.st.Get(ctx, code, false)
		if errors.Is(err, store.ErrNotFound) {
			it, err = s.st.Get(ctx, code, true) // perhaps created a moment ago
		}
		if err != nil {
			if errors.Is(err, store.ErrNotFound) {
				return Revision{}, errNoGame()
			}
			if !retryable(ctx, err) {
				return Revision{}, s.storeFailure(ctx, "revision", code, err)
			}
			last = err
			continue
		}
		now := s.now()
		if t, ok := storedTiming(it.State); ok && token == "" && (t.Due.IsZero() || now.Before(t.Due)) {
			return Revision{Version: it.Version, Timing: t}, nil
		}
		env, err := decode(it.State)
		if err != nil {
			s.log.ErrorContext(ctx, "service: stored game unreadable", "op", "revision", "code", code, "version", it.Version, "err", err)
			return Revision{}, fail(ErrInternal, "the game could not be read", err)
		}
		v, ok := env.who(token)
		if !ok {
			return Revision{}, errToken()
		}
		at := rules.Advance(env.State, now)
		return Revision{Version: it.Version, Tick: at.Ticks - env.State.Ticks, Timing: rules.TimingOf(at), Viewer: v}, nil
	}
	return Revision{}, s.giveUp(ctx, "revision", code, last)
}

// step is one try of a request on a loaded game, at time now: it changes env in
// place (each try decodes its own) and reports whether it did, or returns the
// error that ends the request, leaving env as it was (the rules never change the
// state they are given). Every try starts again from a fresh load, so a step
// sets anything it notes for its answer afresh each time.
type step func(env *envelope, now time.Time, try int) (changed bool, err error)

// run runs the step, its refusal by the rules made the service's own (refused).
func (fn step) run(env *envelope, now time.Time, try int) (bool, error) {
	changed, err := fn(env, now, try)
	return changed, refused(err)
}

// outcome is the game as a request leaves it: its envelope, its stored version
// (the new one if the request wrote it) and the time the request ran at. The
// request builds its answer from it. Nothing changes it afterwards, so the
// requests of a batch may all read it at once.
type outcome struct {
	env     *envelope
	version int64
	now     time.Time
}

// view is the viewer's view of the game.
func (o outcome) view(v rules.Viewer) rules.View { return view(o.env, v, o.version, o.now) }

// Table is a viewer's view with, when the viewer holds a seat, the views every
// seat has of the same revision. From those the HTTP layer pads each player's
// answer to one size, so that its length says nothing of its holder's card
// (DESIGN.md, "Secrets"). Seats never leave the server but as their sizes.
type Table struct {
	View rules.View
	// Seats are the views of every player at the table and of the viewer
	// (one who has just left the lobby has none there): View is the last.
	// Nil for a viewer without a seat (the shared screen, the host).
	Seats []rules.View
	// Noise is a number drawn afresh for each revision of the game, the same
	// for every seat, that no client can work out (envelope.noise): the
	// padding adds a share of it, so that how the padded length moves from
	// one revision to the next tells little of how the largest view moved.
	Noise uint64
}

// table is the viewer's Table of the game.
func (o outcome) table(v rules.Viewer) Table {
	t := Table{View: o.view(v)}
	if v.Player == "" {
		return t
	}
	for _, p := range o.env.State.Players {
		if p.ID != v.Player {
			t.Seats = append(t.Seats, o.view(rules.Viewer{Player: p.ID}))
		}
	}
	t.Seats = append(t.Seats, t.View)
	t.Noise = o.env.noise(t.View.Version, t.View.Tick)
	return t
}

// loop is the read-apply-write cycle every request but Create runs: load the game
// (strongly consistent before a write; a plain read may use an eventually
// consistent one first, and is corrected by the write's version check), run fn,
// and if it changed the game write it under the version read. A conflict or a
// store error reloads and runs fn again, after a jittered exponential pause, up
// to maxRetries times. Retrying after a store error is safe even if the failed
// write did land: fn then sees its own action id (or token) in the reloaded game.
func (s *Service) loop(ctx context.Context, op, code string, fn step) (outcome, error) {
	ctx, cancel := s.withBudget(ctx)
	defer cancel()
	var last error
	for try := 0; try < s.maxRetries && s.pause(ctx, try, last); try++ {
		// A plain read may be served eventually consistent (a poll); the write's
		// version check catches a stale one, and later tries read consistently.
		consistent := op != "read" || try > 0
		it, err := s.st.Get(ctx, code, consistent)
		if !consistent && errors.Is(err, store.ErrNotFound) {
			// A game created a moment ago may not have reached the replica an
			// eventually consistent read asked: ask again, consistently.
			it, err = s.st.Get(ctx, code, true)
		}
		if err != nil {
			if errors.Is(err, store.ErrNotFound) {
				return outcome{}, errNoGame()
			}
			if !retryable(ctx, err) {
				return outcome{}, s.storeFailure(ctx, op, code, err)
			}
			last = err
			s.log.DebugContext(ctx, "service: load failed, trying again", "op", op, "code", code, "try", try, "err", err)
			continue
		}
		env, err := decode(it.State)
		if err != nil {
			s.log.ErrorContext(ctx, "service: stored game unreadable", "op", op, "code", code, "version", it.Version, "err", err)
			return outcome{}, fail(ErrInternal, "the game could not be read", err)
		}
		if env.Tokens == nil {
			env.Tokens = map[string][]byte{}
		}
		now := s.now()
		before := settled(ctx, env.State)
		changed, err := fn.run(env, now, try)
		refusal, written := counted(err)
		if err != nil && !(changed && written) {
			return outcome{}, err
		}
		if !changed {
			return outcome{env, it.Version, now}, nil
		}
		env.prune()
		b, err := pack(env)
		if err != nil {
			s.log.ErrorContext(ctx, "service: game unencodable", "op", op, "code", code, "err", err)
			return outcome{}, fail(ErrInternal, "the game could not be saved", err)
		}
		version, err := s.st.Update(ctx, code, it.Version, b, now.Add(s.ttl))
		if err == nil {
			noteWritten(ctx, before, settled(ctx, env.State))
		}
		switch {
		case err == nil && refusal != nil:
			return outcome{}, refusal.err
		case err == nil:
			return outcome{env, version, now}, nil
		case errors.Is(err, store.ErrNotFound):
			return outcome{}, errNoGame() // expired between the read and the write
		case errors.Is(err, store.ErrTooLarge):
			s.log.ErrorContext(ctx, "service: game too large to save", "op", op, "code", code, "bytes", len(b), "err", err)
			return outcome{}, fail(ErrUnavailable, "the game has grown too large to save", err)
		case !retryable(ctx, err):
			return outcome{}, s.storeFailure(ctx, op, code, err)
		}
		last = err
		noteRetry(ctx, err)
		s.log.DebugContext(ctx, "service: save failed, trying again", "op", op, "code", code, "try", try, "err", err)
	}
	return outcome{}, s.giveUp(ctx, op, code, last)
}

// giveUp is the failure of a request whose tries, or whose budget, ran out
// after last: busy if the game kept changing under it, unavailable if the
// store kept failing.
func (s *Service) giveUp(ctx context.Context, op, code string, last error) error {
	if errors.Is(last, store.ErrConflict) {
		s.log.WarnContext(ctx, "service: gave up on a busy game", "op", op, "code", code)
		return fail(ErrBusy, "the game is busy, try again", last)
	}
	return s.storeFailure(ctx, op, code, last)
}

// withBudget bounds ctx by the request's budget: s.budget from now, or reserve
// before ctx's own deadline (a Lambda function's) if that comes first. Every
// store call and pause of the request runs under it, so a store that hangs or
// throttles ends the request in time to answer.
func (s *Service) withBudget(ctx context.Context) (context.Context, context.CancelFunc) {
	end := time.Now().Add(s.budget)
	if d, ok := ctx.Deadline(); ok && d.Add(-reserve).Before(end) {
		end = d.Add(-reserve)
	}
	return context.WithDeadline(ctx, end)
}

// retryable reports whether a store error may pass if the request is tried again:
// a conflict or a transient failure, while the caller still waits.
func retryable(ctx context.Context, err error) bool {
	switch {
	case ctx.Err() != nil, errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return false
	case errors.Is(err, store.ErrNotFound), errors.Is(err, store.ErrExists), errors.Is(err, store.ErrTooLarge):
		return false
	}
	return true
}

// storeFailure logs a failed store call and returns the client's side of it.
func (s *Service) storeFailure(ctx context.Context, op, code string, err error) error {
	if ctx.Err() != nil {
		return fail(ErrUnavailable, "the game store did not answer in time, try again", cmp.Or(err, ctx.Err()))
	}
	s.log.WarnContext(ctx, "service: store failed", "op", op, "code", code, "err", err)
	return fail(ErrUnavailable, "the game store is unavailable, try again later", err)
}

// pause waits before try number try (none before the first), after the
// failure last: a random time up to base·2^(try-1), at most max ("full
// jitter"), so that writers that collided spread out instead of colliding
// again; after a throttle the base and the cap are longer (throttleBase,
// throttleMax). It reports false, at once, when the request has no time left
// for the wait: the budget would run out during it, or ctx is done.
func (s *Service) pause(ctx context.Context, try int, last error) bool {
	if try == 0 {
		return ctx.Err() == nil
	}
	base, most := backoffBase, backoffMax
	if errors.Is(last, store.ErrThrottled) {
		base, most = throttleBase, throttleMax
	}
	wait := mrand.N(min(base<<min(try-1, 16), most)) + 1
	if d, ok := ctx.Deadline(); ok && time.Until(d) < wait {
		return false
	}
	t := time.NewTimer(wait)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-t.C:
		return true
	}
}

// read fills b from the random source.
func (s *Service) read(b []byte) error {
	s.randMu.Lock()
	defer s.randMu.Unlock()
	if _, err := io.ReadFull(s.rand, b); err != nil {
		return fail(ErrInternal, "no randomness available", err)
	}
	return nil
}

func (s *Service) token() (string, error) {
	s.randMu.Lock()
	defer s.randMu.Unlock()
	t, err := newToken(s.rand)
	if err != nil {
		return "", fail(ErrInternal, "no randomness available", err)
	}
	return t, nil
}

func (s *Service) code() (string, error) {
	s.randMu.Lock()
	defer s.randMu.Unlock()
	c, err := newCode(s.rand)
	if err != nil {
		return "", fail(ErrInternal, "no randomness available", err)
	}
	return c, nil
}

// view is the viewer's view of a stored game at its stored version.
func view(env *envelope, v rules.Viewer, version int64, now time.Time) rules.View {
	out := rules.ViewOf(env.State, v, now)
	out.Version = version
	out.Next = env.Next
	if out.You != nil && needsSeatCode(env.State.Moderator, out.Phase.Name, out.Phase.Closing) {
		out.You.SeatCode = seatCode(env.Tokens[v.Player])
	}
	if v.Host {
		out.Moving = env.moving(now)
	}
	return out
}

func errNoGame() error {
	return fail(ErrNotFound, "there is no game with this code", nil)
}

func errToken() error {
	return fail(ErrUnauthorized, "this token does not belong to this game", nil)
}
