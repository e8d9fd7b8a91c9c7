package service

import (
	"bytes"
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

	"citysleeps/shared/rules"
	"citysleeps/shared/store"
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
	// codeTries bounds the search for a free room code.
	codeTries = 8
	// backoffBase and backoffMax bound the jittered exponential wait between tries.
	backoffBase = 2 * time.Millisecond
	backoffMax  = 250 * time.Millisecond
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
		maxRetries: DefaultMaxRetries, rand: rand.Reader}
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

// Joined is a new seat: the player's id, their secret token and their view.
type Joined struct {
	PlayerID string     `json:"playerId"`
	Token    string     `json:"token"`
	Game     rules.View `json:"game"`
}

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
	var last error
	code := ""
	for try := 0; try < max(codeTries, s.maxRetries); try++ {
		if last != nil && !errors.Is(last, store.ErrExists) {
			if err := s.pause(ctx, try); err != nil {
				return "", time.Time{}, err
			}
		}
		if code == "" {
			var err error
			if code, err = s.code(); err != nil {
				return "", time.Time{}, err
			}
		}
		now := s.now()
		st, err := game(code, now)
		if err != nil {
			return "", time.Time{}, err
		}
		env.State = st
		b, err := encode(env)
		if err != nil {
			return "", time.Time{}, fail(ErrInternal, "could not save the game", err)
		}
		err = s.st.Create(ctx, code, b, now.Add(s.ttl))
		switch {
		case err == nil:
			return code, now, nil
		case errors.Is(err, store.ErrExists):
			// Taken: by another game, or by this very request if an earlier try
			// was written although the store reported an error.
			if last != nil && !errors.Is(last, store.ErrExists) && s.ours(ctx, code, env.Host) {
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

// ours reports whether the game stored at code has the host hash h: whether a
// Create that reported an error had in fact been written.
func (s *Service) ours(ctx context.Context, code string, h []byte) bool {
	it, err := s.st.Get(ctx, code, true)
	if err != nil {
		return false
	}
	env, err := decode(it.State)
	return err == nil && bytes.Equal(env.Host, h)
}

// parseCreate checks a create request and works out the game's rules.
func parseCreate(req CreateRequest) (rules.Options, string, string, error) {
	if req.Preset == "" {
		return rules.Options{}, "", "", invalid("preset is required: one of " + strings.Join(rules.Presets, ", "))
	}
	opts, err := rules.Preset(req.Preset)
	if err != nil {
		return rules.Options{}, "", "", invalid(fmt.Sprintf("unknown preset %q: use one of %s", req.Preset, strings.Join(rules.Presets, ", ")))
	}
	if raw := bytes.TrimSpace(req.Options); len(raw) > 0 && !bytes.Equal(raw, []byte("null")) {
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&opts); err != nil {
			return rules.Options{}, "", "", invalid("options: " + jsonProblem(err))
		}
		if dec.More() {
			return rules.Options{}, "", "", invalid("options: one JSON object expected")
		}
		if opts.Preset != req.Preset {
			return rules.Options{}, "", "", invalid("options.preset must be the same as preset")
		}
	}
	if err := opts.Validate(); err != nil {
		return rules.Options{}, "", "", invalid(strings.TrimPrefix(err.Error(), "rules: "))
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

// jsonProblem describes a JSON decoding error in words fit for a client (the
// decoder's own text names Go types).
func jsonProblem(err error) string {
	var te *json.UnmarshalTypeError
	var se *json.SyntaxError
	switch {
	case errors.As(err, &te):
		if te.Field == "" {
			return "must be a JSON object"
		}
		return fmt.Sprintf("%s has the wrong type (got a JSON %s)", te.Field, te.Value)
	case errors.As(err, &se):
		return fmt.Sprintf("malformed JSON at byte %d", se.Offset)
	case strings.HasPrefix(err.Error(), "json: unknown field "):
		return "unknown rule " + strings.TrimPrefix(err.Error(), "json: unknown field ")
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return "malformed JSON: unexpected end"
	}
	return "malformed JSON"
}

// Join seats a new player in the lobby under name (trimmed, inner white space
// collapsed, at most rules.MaxName characters) and returns the player's id, their
// secret token and their view. The rules refuse a name already at the table, a
// full table and a game that has started, as *rules.Error.
func (s *Service) Join(ctx context.Context, code, name string) (Joined, error) {
	code, ok := normalizeCode(code)
	if !ok {
		return Joined{}, errNoGame()
	}
	name, err := normalizeName(name)
	if err != nil {
		return Joined{}, err
	}
	token, err := s.token()
	if err != nil {
		return Joined{}, err
	}
	h := hashToken(token)
	var id string
	out, err := s.write(ctx, "join", code, func(env *envelope, now time.Time, try int) (bool, error) {
		if try > 0 {
			// An earlier try may have been written although the store reported
			// an error: then this token already has its seat.
			for seat, th := range env.Tokens {
				if bytes.Equal(th, h) {
					id = seat
					return false, nil
				}
			}
		}
		st, seat, err := rules.Join(env.State, name, now)
		if err != nil {
			return false, err
		}
		env.State = st
		env.Tokens[seat] = h
		id = seat
		return true, nil
	})
	if err != nil {
		return Joined{}, err
	}
	return Joined{PlayerID: id, Token: token, Game: out.view(rules.Viewer{Player: id})}, nil
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
	code, ok := normalizeCode(code)
	if !ok {
		return rules.View{}, errNoGame()
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
	if err != nil {
		return rules.View{}, err
	}
	return out.view(viewer), nil
}

// Act applies one action by the token's holder and returns their view after it.
// The action's ID (1 to 64 of [A-Za-z0-9_-]) makes retries safe: an ID this actor
// already had applied returns their current view and changes nothing. A "start"
// gets its deal seed here, from the service's random source.
//
// On a version conflict the game is reloaded and the action applied again to the
// new state; if it is no longer legal there, the rules' refusal is returned. A
// refused action is not written: the stored game and its version stay as they were.
// With local locks the action may be written together with others of the game
// (see write); the view returned is then of the game after all of them.
func (s *Service) Act(ctx context.Context, code, token string, a rules.Action) (rules.View, error) {
	code, ok := normalizeCode(code)
	if !ok {
		return rules.View{}, errNoGame()
	}
	if token == "" {
		return rules.View{}, fail(ErrUnauthorized, "a token is needed to act", nil)
	}
	if !validActionID(a.ID) {
		return rules.View{}, invalid("an action needs an id of 1 to 64 letters, digits, '-' or '_'")
	}
	a.Deal = [32]byte{}
	if a.Type == rules.ActStart {
		if err := s.read(a.Deal[:]); err != nil {
			return rules.View{}, err
		}
	}
	var viewer rules.Viewer
	out, err := s.write(ctx, "act", code, func(env *envelope, now time.Time, try int) (bool, error) {
		v, ok := env.who(token)
		if !ok || v == rules.Public {
			return false, errToken()
		}
		viewer = v
		actor := rules.Actor(v)
		if env.seen(actor, a.ID) {
			// Applied before: answer with the current view and change nothing.
			return false, nil
		}
		next, err := rules.Apply(env.State, actor, a, now)
		if err != nil {
			return false, err
		}
		env.State = next
		env.remember(actor, a.ID)
		return true, nil
	})
	if err != nil {
		return rules.View{}, err
	}
	return out.view(viewer), nil
}

// Revision names the state a Read would show now: the stored version and the
// clock's transitions since (rules.View's Version and Tick), with the game's
// timing then, who the token's holder is and who moderates, which is all a
// poll hint needs. Moderator is left empty for the public viewer, whose
// revision may come from the stored header alone.
type Revision struct {
	Version   int64
	Tick      int
	Timing    rules.Timing
	Viewer    rules.Viewer
	Moderator string
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
	for try := 0; ; try++ {
		if err := s.pause(ctx, try); err != nil {
			return Revision{}, err
		}
		it, err := s.st.Get(ctx, code, false)
		if errors.Is(err, store.ErrNotFound) {
			it, err = s.st.Get(ctx, code, true) // perhaps created a moment ago
		}
		if err != nil {
			if errors.Is(err, store.ErrNotFound) {
				return Revision{}, errNoGame()
			}
			if !retryable(ctx, err) || try+1 >= s.maxRetries {
				return Revision{}, s.storeFailure(ctx, "revision", code, err)
			}
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
		return Revision{Version: it.Version, Tick: at.Ticks - env.State.Ticks, Timing: rules.TimingOf(at), Viewer: v, Moderator: at.Moderator}, nil
	}
}

// step is one try of a request on a loaded game, at time now: it changes env in
// place (each try decodes its own) and reports whether it did, or returns the
// error that ends the request, leaving env as it was (the rules never change the
// state they are given). Every try starts again from a fresh load, so a step
// sets anything it notes for its answer afresh each time.
type step func(env *envelope, now time.Time, try int) (changed bool, err error)

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

// loop is the read-apply-write cycle every request but Create runs: load the game
// (strongly consistent before a write; a plain read may use an eventually
// consistent one first, and is corrected by the write's version check), run fn,
// and if it changed the game write it under the version read. A conflict or a
// store error reloads and runs fn again, after a jittered exponential pause, up
// to maxRetries times. Retrying after a store error is safe even if the failed
// write did land: fn then sees its own action id (or token) in the reloaded game.
func (s *Service) loop(ctx context.Context, op, code string, fn step) (outcome, error) {
	var last error
	for try := 0; try < s.maxRetries; try++ {
		if err := s.pause(ctx, try); err != nil {
			return outcome{}, err
		}
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
		changed, err := fn(env, now, try)
		if err != nil {
			return outcome{}, err
		}
		if !changed {
			return outcome{env, it.Version, now}, nil
		}
		env.prune()
		b, err := encode(env)
		if err != nil {
			s.log.ErrorContext(ctx, "service: game unencodable", "op", op, "code", code, "err", err)
			return outcome{}, fail(ErrInternal, "the game could not be saved", err)
		}
		version, err := s.st.Update(ctx, code, it.Version, b, now.Add(s.ttl))
		switch {
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
		s.log.DebugContext(ctx, "service: save failed, trying again", "op", op, "code", code, "try", try, "err", err)
	}
	if errors.Is(last, store.ErrConflict) {
		s.log.WarnContext(ctx, "service: gave up on a busy game", "op", op, "code", code, "tries", s.maxRetries)
		return outcome{}, fail(ErrBusy, "the game is busy, try again", last)
	}
	return outcome{}, s.storeFailure(ctx, op, code, last)
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
		return fail(ErrUnavailable, "the request was cancelled or timed out", err)
	}
	s.log.WarnContext(ctx, "service: store failed", "op", op, "code", code, "err", err)
	return fail(ErrUnavailable, "the game store is unavailable, try again later", err)
}

// pause waits before try number try (none before the first): a random time up
// to backoffBase·2^(try-1), at most backoffMax ("full jitter"), so that writers
// that collided spread out instead of colliding again.
func (s *Service) pause(ctx context.Context, try int) error {
	if try == 0 {
		return nil
	}
	limit := min(backoffBase<<min(try-1, 16), backoffMax)
	t := time.NewTimer(mrand.N(limit) + 1)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return fail(ErrUnavailable, "the request was cancelled or timed out", ctx.Err())
	case <-t.C:
		return nil
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
	return out
}

func errNoGame() error {
	return fail(ErrNotFound, "there is no game with this code", nil)
}

func errToken() error {
	return fail(ErrUnauthorized, "this token does not belong to this game", nil)
}
