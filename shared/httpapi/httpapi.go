package httpapi

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"os"
	"path"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"time"

	"citysleeps/shared/evening"
	"citysleeps/shared/protocol"
	"citysleeps/shared/ratings"
	"citysleeps/shared/rules"
	"citysleeps/shared/service"
)

// Games creates, joins, reads and changes games: *service.Service. A read or
// an action answers with the views of every seat too (service.Table), to which
// a player's answer is padded.
type Games interface {
	Create(ctx context.Context, req service.CreateRequest) (service.Created, error)
	Join(ctx context.Context, code string, req service.JoinRequest) (service.Joined, error)
	ReadTable(ctx context.Context, code, token string) (service.Table, error)
	ActTable(ctx context.Context, code, token string, a rules.Action) (service.Table, error)
	Again(ctx context.Context, code, token string) (service.Created, error)
	Protocol(ctx context.Context, code, token string) (protocol.Protocol, error)
	MafiaRatings(ctx context.Context, code, token string) (ratings.Game, error)
	Evenings
}

// Evenings makes, joins, reads and changes a club's evenings of many games:
// *service.Service, which runs their games too.
type Evenings interface {
	CreateEvening(ctx context.Context, req service.EveningRequest) (service.EveningCreated, error)
	JoinEvening(ctx context.Context, code string, req service.EveningJoinRequest) (service.EveningJoined, error)
	PollEvening(ctx context.Context, code, token string) (service.EveningRead, error)
	ActEvening(ctx context.Context, code, token string, a service.EveningAction) (evening.View, error)
	EveningMafiaRatings(ctx context.Context, code, token string) (service.EveningExport, error)
	EveningRecord(ctx context.Context, code, token string) (evening.RecordSheet, error)
}

var _ Games = (*service.Service)(nil)

// EnvPublicURL names the environment variable that, when set, is the base of
// the join links (Config.PublicURL: a custom domain) in AWS. Otherwise the
// links use the host CloudFront forwards in X-Forwarded-Host.
const EnvPublicURL = "PUBLIC_URL"

// Config configures the handler. Only Games is required.
type Config struct {
	Games Games
	// PublicURL is the base of the join link, such as "http://192.168.1.5:8080"
	// or "https://mafia.example.org". Empty: taken from each request (its Host
	// and X-Forwarded-Proto).
	PublicURL string
	// TrustForwardedHost takes the join link's host from X-Forwarded-Host when
	// the request has one: in AWS, CloudFront puts the site's own host there
	// (template.yaml), as the Lambda sees only API Gateway's.
	TrustForwardedHost bool
	// Function, if set, serves only that Lambda function's routes (FuncCreate, …);
	// the others answer 404. Empty serves every route.
	Function string
	// Metrics, if set, is the CloudWatch namespace in which the request
	// lines' metrics are published (EnvMetricsNamespace): each line then
	// carries its embedded metric format directive.
	Metrics string
	// Logger receives internal errors and one line per request; default JSON on stderr.
	Logger *slog.Logger
	// Now replaces the clock in tests.
	Now func() time.Time
}

// New returns the API handler. It serves the paths under /api/ and answers any
// other /api/ path with a JSON 404 (or 405 for a known path and another method).
func New(cfg Config) http.Handler {
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.NewJSONHandler(os.Stderr, nil))
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	cfg.PublicURL = strings.TrimRight(cfg.PublicURL, "/")
	h := &handler{cfg: cfg, log: cfg.Logger}
	handlers := map[string]http.HandlerFunc{
		PathGames:    h.create,
		PathPlayers:  h.join,
		PathGame:     h.read,
		PathQR:       h.qr,
		PathProtocol: h.protocol,
		PathExport:   h.export,
		PathHealth:   h.health,
		PathRules:    h.rules,
		PathActions:  h.act,
		PathNext:     h.again,

		PathEvenings:       h.createEvening,
		PathEveningPlayers: h.joinEvening,
		PathEvening:        h.readEvening,
		PathEveningActions: h.actEvening,
		PathEveningExport:  h.exportEvening,
		PathEveningRecord:  h.recordEvening,
		PathEveningQR:      h.eveningQR,
	}
	mux := http.NewServeMux()
	allowed := map[string][]string{}
	for _, rt := range Routes {
		if cfg.Function != "" && rt.Function != cfg.Function {
			continue
		}
		mux.Handle(rt.Pattern(), handlers[rt.Path])
		allowed[rt.Path] = append(allowed[rt.Path], rt.Method)
	}
	for p, methods := range allowed {
		if slices.Contains(methods, http.MethodGet) {
			methods = append(methods, http.MethodHead)
		}
		allow := strings.Join(methods, ", ")
		mux.HandleFunc(p, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Allow", allow)
			h.fail(w, r, service.Refuse(service.ErrMethodNotAllowed, "this route takes "+allow))
		})
	}
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) { h.fail(w, r, errNoRoute) })
	return h.middleware(mux)
}

// errNoRoute answers a path that is none of the API's.
var errNoRoute = service.Refuse(service.ErrNotFound, "no such route")

type handler struct {
	cfg Config
	log *slog.Logger
}

// statusWriter remembers the status for the access log.
// maxLoggedCode bounds the game code a request line names: longer is no
// game's, and a path's text is the client's.
const maxLoggedCode = 12

type statusWriter struct {
	http.ResponseWriter
	status int
	code   string // the error code, when the response is an error
	action string // the action's type, on the actions route
}

func (w *statusWriter) WriteHeader(status int) {
	if w.status == 0 {
		w.status = status
	}
	w.ResponseWriter.WriteHeader(status)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	return w.ResponseWriter.Write(b)
}

// middleware adds the security headers, refuses a path written with escapes
// or in any but its one clean form (no route has a character that needs
// escaping, a limit that counts a route by its path must not be got around by
// spelling it otherwise, and "//api/…" or "/api/./…" would otherwise get a
// redirect without these headers), turns a panic
// into a logged 500 and logs one line per request (never the token or the
// body): its route, status and time, the game and the action it was about,
// and what it did to the game (service.Note), with the metrics of both.
func (h *handler) middleware(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		sw := &statusWriter{ResponseWriter: w}
		note := new(service.Note)
		r = r.WithContext(service.WithNote(r.Context(), note))
		apiHeaders(w.Header())
		if r.URL.RawPath != "" || path.Clean(r.URL.Path) != r.URL.Path {
			h.fail(sw, r, errNoRoute)
			return
		}
		defer func() {
			if p := recover(); p != nil {
				if p == http.ErrAbortHandler {
					panic(p)
				}
				h.log.ErrorContext(r.Context(), "panic", "method", r.Method, "path", r.URL.Path,
					"panic", fmt.Sprint(p), "stack", string(debug.Stack()))
				if sw.status == 0 {
					writeError(sw, http.StatusInternalServerError, service.Refuse(service.ErrInternal, "internal error"))
				}
				sw.code = CodeInternal
			}
			// The route names the method; a request no route took
			// names its own. (Every byte here is paid at ingestion,
			// for every poll.)
			attrs := []any{"route", r.Pattern, "status", sw.status}
			if r.Pattern == "" {
				attrs = append(attrs, "method", r.Method)
			}
			// The game's code, as the shared screen shows it, and the
			// action's type: what a refusal or a slow answer is about,
			// and never a token, a key or a body.
			if code := r.PathValue("code"); code != "" && len(code) <= maxLoggedCode {
				attrs = append(attrs, "game", code)
			}
			if sw.action != "" {
				attrs = append(attrs, "action", sw.action)
			}
			if sw.code != "" {
				attrs = append(attrs, "error", sw.code)
			}
			// Its time and what it did to its game (a deal, an end,
			// conflicts tried again), as metrics in AWS (metrics.go).
			attrs = append(attrs, requestMetrics(h.cfg.Metrics, h.cfg.Now(), sw.status, sw.code, time.Since(start), note)...)
			h.log.InfoContext(r.Context(), "request", attrs...)
		}()
		next.ServeHTTP(sw, r)
	})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	data, err := json.Marshal(v)
	if err != nil {
		// Only a bug can get here: every body is plain data.
		status = http.StatusInternalServerError
		data = []byte(`{"error":{"code":"internal","message":"internal error"}}`)
	}
	writeRaw(w, status, "application/json", data)
}

func writeRaw(w http.ResponseWriter, status int, contentType string, data []byte) {
	w.Header().Set("Content-Type", contentType)
	w.Header().Set("Content-Length", strconv.Itoa(len(data)))
	w.WriteHeader(status)
	w.Write(data)
}

// POST /api/games
func (h *handler) create(w http.ResponseWriter, r *http.Request) {
	var req service.CreateRequest
	if err := readBody(w, r, &req); err != nil {
		h.fail(w, r, err)
		return
	}
	c, err := h.cfg.Games.Create(r.Context(), req)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	h.created(w, r, c)
}

// created answers a new game: 201 with its code, the host token (none for
// the next game of a table, whose host keeps the token it has), the join
// link and the host's view.
func (h *handler) created(w http.ResponseWriter, r *http.Request, c service.Created) {
	game := h.embedded(r, c.Game)
	w.Header().Set("Location", "/api/games/"+c.Code)
	writeJSON(w, http.StatusCreated, struct {
		Code      string          `json:"code"`
		HostToken string          `json:"hostToken,omitempty"`
		JoinURL   string          `json:"joinUrl"`
		Game      json.RawMessage `json:"game"`
	}{c.Code, c.HostToken, h.joinURL(r, c.Code), game})
}

// POST /api/games/{code}/players
func (h *handler) join(w http.ResponseWriter, r *http.Request) {
	code := r.PathValue("code")
	var req service.JoinRequest
	if err := readBody(w, r, &req); err != nil {
		h.fail(w, r, err)
		return
	}
	j, err := h.cfg.Games.Join(r.Context(), code, req)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	// The answer holds the seat's view, so it goes out as long as every
	// seat's would (writeViews): each seat's answer is its id, a token as long
	// as the new one, and its view.
	stand := strings.Repeat("-", len(j.Token))
	h.writeViews(w, r, http.StatusCreated, j.Table(), len(j.Token), func(v rules.View, view []byte, own bool) []byte {
		token := stand
		if own {
			token = j.Token
		}
		id := v.Viewer.Player
		data, err := json.Marshal(struct {
			PlayerID string          `json:"playerId"`
			Token    string          `json:"token"`
			Game     json.RawMessage `json:"game"`
		}{id, token, view})
		if err != nil {
			panic(fmt.Sprintf("httpapi: cannot encode a join's answer: %v", err)) // plain data
		}
		return data
	})
}

// GET /api/games/{code}
func (h *handler) read(w http.ResponseWriter, r *http.Request) {
	code := r.PathValue("code")
	token, err := bearer(r)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	if h.notModified(w, r, code, token) {
		return
	}
	t, err := h.cfg.Games.ReadTable(r.Context(), code, token)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	h.writeView(w, r, t, token, true)
}

// POST /api/games/{code}/actions
func (h *handler) act(w http.ResponseWriter, r *http.Request) {
	code := r.PathValue("code")
	token, err := bearer(r)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	var a rules.Action
	if err := readBody(w, r, &a); err != nil {
		h.fail(w, r, err)
		return
	}
	if sw, ok := w.(*statusWriter); ok {
		sw.action = "unknown"
		if a.Type.Known() {
			sw.action = string(a.Type)
		}
	}
	t, err := h.cfg.Games.ActTable(r.Context(), code, token, a)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	h.completeSeatLink(r, t.View)
	h.writeView(w, r, t, token, false)
}

// seatKeyFragment starts the fragment of a seat link's address, before the
// key: {base}/join/{CODE}#seat={key}, or an evening's {base}/evening/{CODE}#seat={key}.
const seatKeyFragment = "#seat="

// completeSeatLink gives the link of a host's reseat (View.Reseat) its
// address, the join page with the key in the fragment (completeLink).
func (h *handler) completeSeatLink(r *http.Request, v rules.View) {
	h.completeLink(r, v.Reseat, h.joinURL(r, v.Code))
}

// completeLink gives a one-time link that moves a seat (a game's) or a place
// (an evening's) to another phone its address, the page that takes it with
// the key in the fragment, which no browser sends to a server, and that
// address as a QR code the page shows as it is. So the key is in no address
// a page asks for: a query string would be written in the logs of every
// proxy and CDN on the way. A nil link (any answer but a reseat's) is left.
func (h *handler) completeLink(r *http.Request, l *rules.SeatLink, page string) {
	if l == nil {
		return
	}
	l.URL = page + seatKeyFragment + l.Key
	qr, err := qrDataURL(l.URL)
	if err != nil {
		// The link works without its picture: a page shows or sends on
		// the address instead.
		h.log.ErrorContext(r.Context(), "seat link: no QR code", "err", err)
		return
	}
	l.QR = qr
}

// POST /api/games/{code}/next: the host opens the next game for the same table.
func (h *handler) again(w http.ResponseWriter, r *http.Request) {
	code := r.PathValue("code")
	token, err := bearer(r)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	c, err := h.cfg.Games.Again(r.Context(), code, token)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	h.created(w, r, c)
}

// GET /api/games/{code}/qr.svg: one of the game's links as a QR code, the
// one ?link= names: the join link (join, the default), the public shared
// screen (screen), or the host's control link (host, for the host's token
// only), each at the reachable base the join link has, so that a phone that
// scans it from another device gets there.
func (h *handler) qr(w http.ResponseWriter, r *http.Request) {
	code := r.PathValue("code")
	link := r.URL.Query().Get("link")
	token := ""
	if link == linkHost {
		t, err := bearer(r)
		if err == nil && t == "" {
			err = service.Refuse(service.ErrUnauthorized, "the host's link is drawn for the host's token only")
		}
		if err != nil {
			h.fail(w, r, err)
			return
		}
		token = t
	}
	t, err := h.cfg.Games.ReadTable(r.Context(), code, token)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	text, err := h.linkOf(r, t.View, link, token)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	svg, err := qrSVG(text)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	if link == linkHost {
		// The picture holds the host's token: no cache may keep it.
		w.Header().Set("Cache-Control", "no-store")
	} else {
		// The picture depends only on the code and the site's address.
		w.Header().Set("Cache-Control", "private, max-age=3600")
	}
	writeRaw(w, http.StatusOK, "image/svg+xml", svg)
}

// GET /api/games/{code}/protocol: the game's record (docs/PROTOCOL.md), for
// everyone once it is over, for its moderator at any time. It holds secrets
// until the end, so nothing may keep it (apiHeaders: no-store).
func (h *handler) protocol(w http.ResponseWriter, r *http.Request) {
	token, err := bearer(r)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	p, err := h.cfg.Games.Protocol(r.Context(), r.PathValue("code"), token)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	data, err := json.Marshal(p)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	writeJSONBody(w, r, http.StatusOK, data)
}

// FormatMafiaRatings is the export route's one format so far: mafiaratings'
// game JSON (docs/EXPORT.md).
const FormatMafiaRatings = "mafiaratings"

// GET /api/games/{code}/export?format=mafiaratings: the finished game in a
// rating site's format, for anyone, as its protocol is once the game is over;
// 409 game_not_over before, 422 not_exportable for a game the format cannot
// tell. The token is optional, as for the protocol, and checked if given.
func (h *handler) export(w http.ResponseWriter, r *http.Request) {
	token, err := exportRequest(r)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	g, err := h.cfg.Games.MafiaRatings(r.Context(), r.PathValue("code"), token)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	data, err := json.Marshal(g)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	writeJSONBody(w, r, http.StatusOK, data)
}

// exportRequest checks an export's format (a game's or an evening's, which
// take the same ones) and returns its optional token.
func exportRequest(r *http.Request) (string, error) {
	if f := r.URL.Query().Get("format"); f != FormatMafiaRatings {
		return "", service.Refuse(service.ErrInvalid, "format must be "+FormatMafiaRatings)
	}
	return bearer(r)
}

// The links a QR code can hold (the qr route's ?link=).
const (
	linkJoin   = "join"
	linkScreen = "screen"
	linkHost   = "host"
)

// linkOf is the address of one of the game's links, as the app's pages name
// them (frontend/js/app.js): the join page, the public shared screen, and
// the host's page with the token in its fragment, which browsers never send.
func (h *handler) linkOf(r *http.Request, v rules.View, link, token string) (string, error) {
	switch link {
	case "", linkJoin:
		return h.joinURL(r, v.Code), nil
	case linkScreen:
		return h.baseURL(r) + "/#screen=" + v.Code, nil
	case linkHost:
		if !v.Viewer.Host {
			return "", &service.Error{Kind: service.ErrForbidden, Code: "not_host", Message: "the host's link is drawn for the host's token only"}
		}
		return h.baseURL(r) + "/#host=" + v.Code + "&t=" + url.QueryEscape(token), nil
	}
	return "", service.Refuse(service.ErrInvalid, "link must be join, screen or host")
}

// healthCode is a well-formed room code that the health check reads to prove
// that the store answers. Whether a game has it does not matter: only the
// public view would be read, and thrown away.
const healthCode = "ZZZZZZ"

// GET /api/health
func (h *handler) health(w http.ResponseWriter, r *http.Request) {
	_, err := h.cfg.Games.ReadTable(r.Context(), healthCode, "")
	if err != nil {
		if statusOfError(service.As(err)) < 500 {
			err = nil // the store answered: most likely, no such game
		}
	}
	if err != nil {
		h.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]string{"status": "ok"})
}

// rules serves the rules' schema (rules.OptionSchema): the presets and every
// option's range or choices, from which the home page builds its form. It
// changes only with a new release, so browsers may keep it a few minutes.
func (h *handler) rules(w http.ResponseWriter, r *http.Request) {
	data, err := json.Marshal(rules.OptionSchema())
	if err != nil {
		h.fail(w, r, err)
		return
	}
	w.Header().Set("Cache-Control", "public, max-age=300")
	writeJSONBody(w, r, http.StatusOK, data)
}

// embedded encodes a view sent inside another answer (a new game, a new seat)
// with its poll hint.
func (h *handler) embedded(r *http.Request, v rules.View) json.RawMessage {
	return viewJSON(v, pollAfter(v.Timing, isScreen(v.Viewer), h.cfg.Now()), h.joinLink(r, v))
}

// joinLink is the join link a view carries: in the lobby of a view with no
// seat (the shared screen and the host's), the link the QR code holds, so that
// the screen prints that one for typing and not its own page's address; ""
// elsewhere.
func (h *handler) joinLink(r *http.Request, v rules.View) string {
	if v.Phase.Name != rules.PhaseLobby || v.You != nil {
		return ""
	}
	return h.joinURL(r, v.Code)
}

// viewJSON encodes a view with its pollAfterMs added, and joinUrl when link is
// not empty.
func viewJSON(v rules.View, poll time.Duration, link string) []byte {
	data, err := withPoll(v, poll, link)
	if err != nil {
		// A View is plain data; only a bug gets here.
		panic(fmt.Sprintf("httpapi: cannot encode view: %v", err))
	}
	return data
}

// withPoll encodes a view, a game's or an evening's, with its pollAfterMs
// added, and joinUrl when link is not empty.
func withPoll(v any, poll time.Duration, link string) ([]byte, error) {
	data, err := json.Marshal(v)
	if err == nil && (len(data) < 2 || data[len(data)-1] != '}') {
		err = fmt.Errorf("a view of %T is no JSON object", v)
	}
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	b.Grow(len(data) + 80)
	b.Write(data[:len(data)-1])
	b.WriteString(`,"pollAfterMs":` + strconv.FormatInt(poll.Milliseconds(), 10))
	if link != "" {
		js, _ := json.Marshal(link)
		b.WriteString(`,"joinUrl":`)
		b.Write(js)
	}
	b.WriteString("}")
	return b.Bytes(), nil
}

// etagOf is the ETag of the view of a game at a revision for the holder of token.
// The stored version and the clock's transitions since (service.Revision) name
// the state, so they and the viewer decide the view. The viewer is named by a
// short hash of the token ("public" without one), so it can be checked before the
// view is built, and says nothing about the token.
func etagOf(rev service.Revision, token string) string {
	return viewerTag(rev.Version, strconv.Itoa(rev.Tick), token)
}

// eveningTag is the ETag of the view of an evening at a revision for the
// holder of token: as a game's, with the games the read found over in the
// place of the clock's transitions, since those are what a read shows on top
// of the stored version ("0" for none, else a short hash of their codes).
// The evening's view depends on nothing else: no deadline of its own moves
// it, and a game once over never changes again.
func eveningTag(rev service.EveningRevision, token string) string {
	found := "0"
	if len(rev.Found) > 0 {
		sum := sha256.Sum256([]byte(strings.Join(rev.Found, ",")))
		found = hex.EncodeToString(sum[:4])
	}
	return viewerTag(rev.Version, found, token)
}

// viewerTag is the weak ETag W/"<version>.<shown>-<viewer>": the stored
// version, what a read shows on top of it, and the viewer, named by a short
// hash of the token ("public" without one), so it can be checked before the
// view is built, and says nothing about the token.
func viewerTag(version int64, shown, token string) string {
	viewer := "public"
	if token != "" {
		sum := sha256.Sum256([]byte(token))
		viewer = hex.EncodeToString(sum[:6])
	}
	return `W/"` + strconv.FormatInt(version, 10) + "." + shown + "-" + viewer + `"`
}

// revisioner is implemented by *service.Service: the revision a Read would
// report, from one store read without building a view.
type revisioner interface {
	Revision(ctx context.Context, code, token string) (service.Revision, error)
}

// notModified answers 304 if the client's If-None-Match names the game's
// current version for this token, found without building the view. Anything
// else, errors included, falls through to a full read.
func (h *handler) notModified(w http.ResponseWriter, r *http.Request, code, token string) bool {
	inm := r.Header.Values("If-None-Match")
	vr, ok := h.cfg.Games.(revisioner)
	if len(inm) == 0 || !ok {
		return false
	}
	rev, err := vr.Revision(r.Context(), code, token)
	if err != nil {
		return false
	}
	etag := etagOf(rev, token)
	if !etagMatch(inm, etag) {
		return false
	}
	w.Header().Set("ETag", etag)
	h.setPoll(w, pollAfter(rev.Timing, isScreen(rev.Viewer), h.cfg.Now()))
	w.WriteHeader(http.StatusNotModified)
	return true
}

// writeView sends the view of t with its ETag and poll hint, or 304 when the
// client already has it (If-None-Match, on reads only).
func (h *handler) writeView(w http.ResponseWriter, r *http.Request, t service.Table, token string, conditional bool) {
	v := t.View
	etag := etagOf(service.Revision{Version: v.Version, Tick: v.Tick}, token)
	w.Header().Set("ETag", etag)
	if conditional && etagMatch(r.Header.Values("If-None-Match"), etag) {
		h.setPoll(w, pollAfter(v.Timing, isScreen(v.Viewer), h.cfg.Now()))
		w.WriteHeader(http.StatusNotModified)
		return
	}
	h.writeViews(w, r, http.StatusOK, t, 0, nil)
}

// writeViews is the one way out of the API for an answer that carries a
// view, whatever its route: a read, an action's answer, a join, a seat key's.
// It sends the poll hint, and a player's answer padded to the length of
// every seat's answer of the same revision (writeSeatView), so that its
// length says nothing of the card. wrap, when not nil, makes the answer of a
// seat from that seat's view and its JSON (a join's puts the seat's id and
// token around it): own says whether it is the answer sent, which alone may
// hold its seat's secret (secret bytes long; every other answer, and this
// one as the padding reckons it, a stand-in as long). Without wrap the
// answer is the view.
func (h *handler) writeViews(w http.ResponseWriter, r *http.Request, status int, t service.Table, secret int, wrap func(v rules.View, view []byte, own bool) []byte) {
	poll := pollAfter(t.View.Timing, isScreen(t.View.Viewer), h.cfg.Now())
	h.setPoll(w, poll)
	answer := func(v rules.View, own bool) []byte {
		js := viewJSON(v, poll, h.joinLink(r, v))
		if wrap != nil {
			return wrap(v, js, own)
		}
		return js
	}
	if t.Seats == nil {
		writeJSONBody(w, r, status, answer(t.View, true))
		return
	}
	seats := make([][]byte, len(t.Seats))
	for i, s := range t.Seats {
		seats[i] = answer(s, false)
	}
	writeSeatView(w, r, status, seats, answer(t.View, true), secret, t.Noise)
}

// setPoll sends the poll hint as a header, so that a 304 carries it too.
func (h *handler) setPoll(w http.ResponseWriter, poll time.Duration) {
	w.Header().Set(pollHeader, strconv.FormatInt(poll.Milliseconds(), 10))
}

// etagMatch is the weak comparison of RFC 9110 13.1.2 against every entity tag
// listed in If-None-Match headers.
func etagMatch(headers []string, etag string) bool {
	want := strings.TrimPrefix(etag, "W/")
	for _, h := range headers {
		for _, t := range strings.Split(h, ",") {
			t = strings.TrimSpace(t)
			if t == "*" || strings.TrimPrefix(t, "W/") == want {
				return true
			}
		}
	}
	return false
}

// joinURL is the link a player opens to join: {base}/join/{CODE}.
func (h *handler) joinURL(r *http.Request, code string) string {
	return h.baseURL(r) + JoinPath(code)
}

// baseURL is PublicURL, or the scheme and host the request came to.
func (h *handler) baseURL(r *http.Request) string {
	if h.cfg.PublicURL != "" {
		return h.cfg.PublicURL
	}
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	if p := firstValue(r.Header.Get("X-Forwarded-Proto")); p == "http" || p == "https" {
		scheme = p
	}
	host := r.Host
	if h.cfg.TrustForwardedHost {
		if fh := firstValue(r.Header.Get("X-Forwarded-Host")); fh != "" {
			host = fh
		}
	}
	if !validHost(host) {
		host = "localhost"
	}
	return scheme + "://" + host
}

func firstValue(h string) string {
	v, _, _ := strings.Cut(h, ",")
	return strings.ToLower(strings.TrimSpace(v))
}

// validHost accepts a host name or address with an optional port, and nothing
// that could change the link's meaning.
func validHost(host string) bool {
	if host == "" || len(host) > 255 {
		return false
	}
	for _, c := range host {
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.ContainsRune(".-:[]", c)) {
			return false
		}
	}
	return true
}
