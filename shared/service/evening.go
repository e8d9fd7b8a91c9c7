package service

import (
	"bytes"
	"compress/flate"
	"context"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"

	"citysleeps/shared/evening"
	"citysleeps/shared/protocol"
	"citysleeps/shared/rules"
	"citysleeps/shared/scoring"
	"citysleeps/shared/store"
)

// EveningTTL is how long an evening is kept after its last change: 30 days,
// well past its games' 48 hours, because an evening holds what outlives them
// (every game's points, so its standings) and a club publishes an evening's
// results and sends them to the ratings sites in the days and weeks after it.
const EveningTTL = 30 * 24 * time.Hour

// eveningPrefix opens the store key of an evening. A game's key is its room
// code, capital letters and digits only (CodeAlphabet), so no key with this
// prefix can ever be a game's, whatever the evening's own code is.
const eveningPrefix = "evening/"

// eveningKey is the store key of the evening with a code.
func eveningKey(code string) string { return eveningPrefix + code }

// The evening's actions (POST /api/evenings/{code}/actions), the organiser's.
const (
	// ActStartRound starts the next round: the seating drawn at the first,
	// one game a table, every player seated.
	ActStartRound = "start_round"
	// ActRecord counts the games found over into the evening now. Every write
	// of an evening does it first; this is the write to send when nothing else
	// is left to do, as after the last round.
	ActRecord = "record"
	// ActSwap, ActAbsent and ActLate change the roster before a round
	// begins, from the next round not yet started on (evening.Swap, Absent
	// and Late).
	ActSwap   = "swap"
	ActAbsent = "absent"
	ActLate   = "late"
	// ActExtra sets the referee's extra points for a player in a game of the
	// evening (evening.SetExtra).
	ActExtra = "extra"
	// ActHideStandings hides the standings from all but the organiser for a
	// final round, and ActShowStandings shows them again
	// (evening.HideStandings, ShowStandings).
	ActHideStandings = "hide_standings"
	ActShowStandings = "show_standings"
	// ActReseat opens a one-time link that moves a player's place to another
	// phone (a phone that died, a substitute), as a game's rules.ActReseat
	// moves a seat: the answer to it, and no other, holds the link
	// (evening.View.Reseat), and a join with its key (EveningJoinRequest.
	// SeatKey) takes the place.
	ActReseat = "reseat"
	// ActSetModerator makes the app or a referee moderate a table from the
	// next round on (evening.SetModerator).
	ActSetModerator = "set_moderator"
	// ActCloseRoster closes the roster to the phones' new names, and
	// ActOpenRoster opens it again (evening.CloseRoster, OpenRoster); the
	// first round's draw closes it.
	ActCloseRoster = "close_roster"
	ActOpenRoster  = "open_roster"
	// ActNewReferee withdraws a table's referee token: the table gets a new
	// one, which the game in play and the games to come take as their host
	// token, and the old one opens nothing (a referee who left, a phone
	// lost). A change of the table's moderator does it too.
	ActNewReferee = "new_referee"
)

// eveningActions are the types an evening's action may have.
var eveningActions = []string{ActStartRound, ActRecord, ActSwap, ActAbsent, ActLate,
	ActExtra, ActHideStandings, ActShowStandings, ActReseat, ActSetModerator, ActCloseRoster, ActOpenRoster, ActNewReferee}

// EveningActionType reports whether typ is one of an evening's actions, so that
// the HTTP layer names it in its metrics (and any other type "unknown").
func EveningActionType(typ string) bool { return slices.Contains(eveningActions, typ) }

// eveningItem is everything stored for an evening: its state, and, as for a
// game (envelope), the hashes of the tokens and the applied actions.
type eveningItem struct {
	State evening.State `json:"e"`
	// Organizer is the hash of the organiser's token. It is the evening's
	// alone: each table's games have the table's referee token as their host
	// token (refereeToken), which the organiser's view holds.
	Organizer []byte `json:"o"`
	// Tokens maps the id of each roster player a phone took to the hash of
	// that phone's token.
	Tokens map[string][]byte `json:"t,omitempty"`
	// Key is the secret the players' game tokens and the tables' referee
	// tokens are derived from (gameToken, refereeToken); it never leaves the
	// store.
	Key []byte `json:"k"`
	// Acted remembers the organiser's applied actions (rememberIn).
	Acted []byte `json:"a,omitempty"`
	// Moving holds the open links that move a player's place to another
	// phone (ActReseat), by player id: each player's latest, as a game keeps
	// its seats' (envelope.Moving). A roster is short (evening.MaxRoster), so
	// there is no cap beyond one a player.
	Moving seatLinks `json:"m,omitempty"`
	// Referees counts, by table (from 0), the times the table's referee
	// token was withdrawn (refereeToken): a table whose entry is missing
	// has its first.
	Referees []int `json:"r,omitempty"`
	// Starting is the claim of the request that is starting a round
	// (makeRound), while it makes the round's games; nil otherwise.
	Starting *roundClaim `json:"s,omitempty"`
	// Moved counts, by player id, the times the player's place moved to
	// another phone with their seat in a game in play (moveGameSeat): their
	// game tokens are derived with it (gameToken), so that the phone a place
	// left holds no seat from then on.
	Moved map[string]int `json:"v,omitempty"`
}

// eveningFormat opens a stored evening: deflated JSON. A later layout gets
// another byte.
const eveningFormat = 1

func encodeEvening(it *eveningItem) ([]byte, error) { return deflateJSON(eveningFormat, it) }

func decodeEvening(b []byte) (*eveningItem, error) {
	it := &eveningItem{}
	if err := inflateJSON(b, eveningFormat, "evening", it); err != nil {
		return nil, err
	}
	if it.Tokens == nil {
		it.Tokens = map[string][]byte{}
	}
	return it, nil
}

// deflateJSON is v as the evening's items are stored: a byte naming the
// layout, then v's JSON deflated.
func deflateJSON(format byte, v any) ([]byte, error) {
	js, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	b.WriteByte(format)
	w, err := flate.NewWriter(&b, flate.BestCompression)
	if err != nil {
		return nil, err
	}
	if _, err := w.Write(js); err != nil {
		return nil, err
	}
	if err := w.Close(); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// inflateJSON reads into v what deflateJSON stored with format; what names
// the item in the error of another layout.
func inflateJSON(b []byte, format byte, what string, v any) error {
	if len(b) == 0 || b[0] != format {
		return fmt.Errorf("service: stored %s of an unknown format", what)
	}
	js, err := io.ReadAll(flate.NewReader(bytes.NewReader(b[1:])))
	if err != nil {
		return err
	}
	return json.Unmarshal(js, v)
}

// who is the viewer the token belongs to: "" the public, the organiser's
// token the organiser, a player's the player, a table's referee token that
// table's referee.
func (it *eveningItem) who(token string) (evening.Viewer, bool) {
	v, ok := whoOf(token, it.Organizer, it.Tokens)
	if ok {
		return evening.Viewer{Organizer: v.Host, Player: v.Player}, true
	}
	if wellFormedToken(token) {
		for t := range it.State.Tables {
			if subtle.ConstantTimeCompare([]byte(token), []byte(it.refereeToken(t+1))) == 1 {
				return evening.Viewer{Referee: t + 1}, true
			}
		}
	}
	return evening.Viewer{}, false
}

// gameToken is the token of the player's seat in a game of the evening: an
// HMAC under the evening's key, so the evening needs to store nothing of it
// and can show each player theirs in every view; the game stores its hash as
// it stores any seat's. moved is the times the player's place moved with a
// seat in play (eveningItem.Moved): each move gives the seat a new token.
func gameToken(key []byte, game, player string, moved int) string {
	if moved == 0 {
		return joinToken(key, game+"/"+player)
	}
	return joinToken(key, game+"/"+player+"/"+strconv.Itoa(moved))
}

// EveningRequest is what an organiser sends to make an evening: a game's
// settings, and the tables, rounds and names typed in.
type EveningRequest struct {
	Preset    string          `json:"preset"`
	Options   json.RawMessage `json:"options,omitempty"`
	Moderator string          `json:"moderator,omitempty"`
	// Moderators, if set, are each table's moderator, "app" or "host",
	// one a table; Moderator is then only the evening's default.
	Moderators []string `json:"moderators,omitempty"`
	Lang       string   `json:"lang,omitempty"`
	Tables     int      `json:"tables"`
	Rounds     int      `json:"rounds"`
	Players    []string `json:"players,omitempty"`
}

// EveningCreated is a new evening: its code, the organiser's secret token
// (shown once, stored as a hash) and the organiser's view.
type EveningCreated struct {
	Code           string       `json:"code"`
	OrganizerToken string       `json:"organizerToken"`
	Evening        evening.View `json:"evening"`
}

// EveningJoinRequest is what a phone sends to join an evening.
type EveningJoinRequest struct {
	Name string `json:"name"`
	// JoinID, if set, makes the join safe to send again, as a game's
	// (JoinRequest.JoinID): the client's own random id for this join. A join
	// with an id that already took a player answers that player and the same
	// token, instead of a second name_taken. Whoever knows the id can do
	// that, so it is as secret as the token.
	JoinID string `json:"joinId,omitempty"`
	// SeatKey, if set, is the key of a link the organiser made to move a
	// player's place to this phone (ActReseat): the join takes that place,
	// with a new token, and comes without a name (takePlace).
	SeatKey string `json:"seatKey,omitempty"`
	// SeatCode is the code of the player's seat in the game in play, from
	// its card on their own phone: a seat key moves a place whose game the
	// app moderates and has dealt only with it (moveGameSeat).
	SeatCode string `json:"seatCode,omitempty"`
}

// EveningJoined is a phone on the roster: the player's id, their secret token
// for the evening and their view.
type EveningJoined struct {
	PlayerID string       `json:"playerId"`
	Token    string       `json:"token"`
	Evening  evening.View `json:"evening"`
}

// EveningAction is one action of the organiser: a type and the client's id,
// with which a retry is applied once (as a game's action).
type EveningAction struct {
	ID   string `json:"id"`
	Type string `json:"type"`
	// Players are the two ids a swap exchanges.
	Players []string `json:"players,omitempty"`
	// Player is the id an absent marks gone, an extra is for, or a reseat
	// moves to another phone.
	Player string `json:"player,omitempty"`
	// Name is a late player's, checked as a joining phone's is.
	Name string `json:"name,omitempty"`
	// Game, Points, WorstMove and Reason are an extra's: the room code of
	// the game, the points, whether the referee names the player's worst
	// move (which takes the auto-bonus away; points 0 and no worst move take
	// the player's extra in that game away) and why.
	Game      string         `json:"game,omitempty"`
	Points    scoring.Points `json:"points,omitempty"`
	WorstMove bool           `json:"worstMove,omitempty"`
	Reason    string         `json:"reason,omitempty"`
	// Table (from 1) and Moderator are a set_moderator's; Table a
	// new_referee's.
	Table     int    `json:"table,omitempty"`
	Moderator string `json:"moderator,omitempty"`
}

// CreateEvening makes an evening before its first round and returns its code,
// the organiser's token and view. The game settings are checked as a game's
// are (parseCreate); the names as a player's (cleanName), each once, and
// each against those before it as a join checks one against the roster
// (eveningLookalike), so that no two names on the roster read alike.
func (s *Service) CreateEvening(ctx context.Context, req EveningRequest) (EveningCreated, error) {
	opts, moderator, lang, err := parseCreate(CreateRequest{Preset: req.Preset, Options: req.Options, Moderator: req.Moderator, Lang: req.Lang})
	if err != nil {
		return EveningCreated{}, err
	}
	names := make([]string, len(req.Players))
	typed := make([]evening.Player, 0, len(req.Players))
	for i, n := range req.Players {
		if names[i], err = cleanName(n); err != nil {
			return EveningCreated{}, err
		}
		if err := eveningLookalike(names[i], typed); err != nil {
			return EveningCreated{}, err
		}
		typed = append(typed, evening.Player{Name: names[i]})
	}
	token, err := s.token()
	if err != nil {
		return EveningCreated{}, err
	}
	secret := make([]byte, gameKeyLen+8)
	if err := s.read(secret); err != nil {
		return EveningCreated{}, err
	}
	var seed uint64
	for _, b := range secret[gameKeyLen:] {
		seed = seed<<8 | uint64(b)
	}
	it := &eveningItem{Organizer: hashToken(token), Tokens: map[string][]byte{}, Key: secret[:gameKeyLen]}
	code, _, err := s.putItem(ctx, "create_evening", eveningKey, EveningTTL, func(code string, now time.Time) ([]byte, error) {
		st, err := evening.New(code, evening.Settings{Rules: opts, Moderator: moderator, Moderators: req.Moderators, Lang: lang,
			Tables: req.Tables, Rounds: req.Rounds, Names: names, Seed: seed})
		if err != nil {
			return nil, refused(err)
		}
		it.State = st
		return s.packEvening(it)
	}, func(stored []byte) bool {
		got, err := decodeEvening(stored)
		return err == nil && bytes.Equal(got.Organizer, it.Organizer)
	})
	if err != nil {
		return EveningCreated{}, err
	}
	v, err := eveningView(it, evening.Viewer{Organizer: true}, s.now())
	if err != nil {
		return EveningCreated{}, err
	}
	v.Version = 1
	return EveningCreated{Code: code, OrganizerToken: token, Evening: v}, nil
}

// packEvening encodes an evening for the store.
func (s *Service) packEvening(it *eveningItem) ([]byte, error) {
	b, err := encodeEvening(it)
	if err != nil {
		return nil, fail(ErrInternal, "could not save the evening", err)
	}
	return b, nil
}

// ReadEvening returns the evening as the token's holder sees it: "" the
// public, the organiser's token the organiser's view, a player's their own,
// with their place and game token in the round in play.
//
// Like a game's Read it never writes (the read function may not): it shows
// the games of the round found over as recorded, and the next write of the
// evening records them (see reconcile).
func (s *Service) ReadEvening(ctx context.Context, code, token string) (evening.View, error) {
	rd, err := s.PollEvening(ctx, code, token)
	return rd.View, err
}

// EveningRevision names what a read of an evening shows, as Revision names a
// game's: the stored version, and the games the read found over and counted
// in memory only. A read never writes, so a game of the round that ends
// changes the view before any write changes the version: a poll's ETag must
// name both (httpapi), or a client holding the view from before would be
// told nothing changed until the next write.
type EveningRevision struct {
	Version int64
	// Found are the room codes, sorted, of the games the read found over
	// that the stored evening has not recorded yet.
	Found []string
	// Over: every round has started and every game of it is counted, so only
	// the organiser's extra points can still change the evening (the poll
	// hint slows down).
	Over bool
}

// EveningRead is a read of an evening: the view of the token's holder and the
// revision it shows.
type EveningRead struct {
	View     evening.View
	Revision EveningRevision
}

// PollEvening is ReadEvening with the revision the view shows, which is what
// a poll's ETag and hint are made of. It costs what the read costs: knowing
// whether a game ended takes reading the games of the round in play, which
// is most of the read, so there is no cheaper check as a game's Revision is.
func (s *Service) PollEvening(ctx context.Context, code, token string) (EveningRead, error) {
	var v evening.View
	rev, err := s.readEvening(ctx, code, token, func(it *eveningItem, viewer evening.Viewer, now time.Time) (err error) {
		v, err = eveningView(it, viewer, now)
		return err
	})
	if err != nil {
		return EveningRead{}, err
	}
	v.Version = rev.Version
	return EveningRead{View: v, Revision: rev}, nil
}

// readEvening is a read of the evening with a code by the token's holder
// (PollEvening, EveningRecord): it loads the evening, refuses a token of no
// one there, counts the games found over in memory only (reconcile, keeping
// nothing, since a read never writes), and gives fn the evening and the
// viewer. It returns the revision read.
func (s *Service) readEvening(ctx context.Context, code, token string, fn func(it *eveningItem, viewer evening.Viewer, now time.Time) error) (EveningRevision, error) {
	var rev EveningRevision
	version, err := s.eveningLoop(ctx, opReadEvening, code, func(ctx context.Context, it *eveningItem, now time.Time) (bool, error) {
		viewer, ok := it.who(token)
		if !ok {
			return false, errEveningToken()
		}
		pending := evening.Pending(it.State)
		if _, err := s.reconcile(ctx, it, now, false); err != nil {
			return false, err
		}
		rev = EveningRevision{}
		for _, g := range pending {
			if it.State.Recorded(g.Code) {
				rev.Found = append(rev.Found, g.Code)
			}
		}
		slices.Sort(rev.Found)
		rev.Over = len(it.State.Played) == it.State.Rounds && len(evening.Pending(it.State)) == 0
		return false, fn(it, viewer, now)
	})
	if err != nil {
		return EveningRevision{}, err
	}
	rev.Version = version
	return rev, nil
}

// JoinEvening gives a phone a name of the evening's roster, or a late
// player's place (evening.Join), or with a seat key the place the organiser's
// link moves to it (takePlace), and returns the player's token, which only
// its hash is kept of. With a join id it is safe to send again: a join that
// took its player answers it again, instead of a second name_taken
// (eveningPlace).
func (s *Service) JoinEvening(ctx context.Context, code string, req EveningJoinRequest) (EveningJoined, error) {
	if req.SeatKey != "" {
		return s.takePlace(ctx, code, req)
	}
	name, err := cleanName(req.Name)
	if err != nil {
		return EveningJoined{}, err
	}
	return s.eveningPlace(ctx, "join_evening", code, req.JoinID, func(it *eveningItem, now time.Time) (evening.State, string, error) {
		if err := eveningLookalike(name, it.State.Players); err != nil {
			return it.State, "", err
		}
		return evening.Join(it.State, name)
	})
}

// eveningPlace gives a phone a place on the evening's roster, the one take
// finds on the loaded evening (a name joined, a place moved), and returns the
// player's new token, of which only its hash is kept: it replaces the
// player's earlier one, if any. The games found over are recorded first, as
// every write records them.
//
// With a join id the token is derived from it and the evening's key, as a
// game's join derives it (heldToken), so a join sent again after its answer
// was lost finds its player and gets the same token, instead of a second
// refusal. The evening's key derives its players' game tokens too
// (gameToken), from a room code and a player id joined by "/", which a join
// id never holds: no join id can give a game's token.
func (s *Service) eveningPlace(ctx context.Context, op, code, joinID string,
	take func(it *eveningItem, now time.Time) (evening.State, string, error)) (EveningJoined, error) {
	if err := checkClientID("joinId", joinID); err != nil {
		return EveningJoined{}, err
	}
	random, err := s.token()
	if err != nil {
		return EveningJoined{}, err
	}
	var out EveningJoined
	version, err := s.eveningLoop(ctx, op, code, func(ctx context.Context, it *eveningItem, now time.Time) (bool, error) {
		recorded, err := s.reconcile(ctx, it, now, true)
		if err != nil {
			return false, err
		}
		token, held := heldToken(it.Tokens, it.Key, joinID, random)
		if held != "" {
			// Sent before: the player it took, and whatever games the
			// try found over recorded as any write records them.
			out = EveningJoined{PlayerID: held, Token: token}
			out.Evening, err = eveningView(it, evening.Viewer{Player: held}, now)
			return recorded, err
		}
		st, id, err := take(it, now)
		if err != nil {
			_, write := counted(err) // a wrong seat code counts against its link
			return write, err
		}
		it.State = st
		it.Tokens[id] = hashToken(token)
		out = EveningJoined{PlayerID: id, Token: token}
		out.Evening, err = eveningView(it, evening.Viewer{Player: id}, now)
		return true, err
	})
	if err != nil {
		return EveningJoined{}, err
	}
	out.Evening.Version = version
	return out, nil
}

// eveningLookalike refuses a new name that would be taken for one on the
// roster, as a game's join refuses one at the table (lookalikeError). A name
// on the roster exactly is not new: what it means is the evening's to say
// (a phone takes it; a late player by that name is one too many).
func eveningLookalike(name string, roster []evening.Player) error {
	if slices.ContainsFunc(roster, func(p evening.Player) bool { return p.Name == name }) {
		return nil
	}
	table := make([]rules.Player, len(roster))
	for i, p := range roster {
		table[i] = rules.Player{Name: p.Name}
	}
	return lookalikeError(name, table)
}

// ActEvening applies one action of the organiser (ActStartRound, ActRecord,
// the roster's changes ActSwap, ActAbsent, ActLate, the word on the
// standings ActExtra, ActHideStandings, ActShowStandings, ActReseat,
// ActSetModerator, the roster's door ActCloseRoster and ActOpenRoster, and
// ActNewReferee), or a table's referee's extra points at a game of their
// table (ActExtra, from the console: evening.ErrNotYourTable at another's),
// and returns the actor's view after it. An action id already applied
// changes nothing and answers with the view, so a retry is safe. A reseat
// gets its seat key here, from the service's random source: the answer to it,
// and no other, holds the key (evening.View.Reseat), since the evening keeps
// only its hash; a retry of it answers without one (send a new reseat).
//
// Starting a round draws the seating at the first, then makes the round's
// games, one a table, with the evening's rules and language and the table's
// moderator, each seat taken in the seating's order by its player, whose game
// token is derived from the evening's key (gameToken), and the table's
// referee token as its host token (refereeToken). The games are made before
// the evening is written, and the evening names them only if it is still
// where it was: a request that lost the race (another start, a late player
// reseating the round, a swap or an absent) leaves its games unnamed, to
// expire, as a "play again" that lost its race does.
func (s *Service) ActEvening(ctx context.Context, code, token string, a EveningAction) (evening.View, error) {
	switch {
	case token == "":
		return evening.View{}, fail(ErrUnauthorized, "a token is needed to act", nil)
	case !validActionID(a.ID):
		return evening.View{}, invalid("an action needs an id of 1 to 64 letters, digits, '-' or '_'")
	case !EveningActionType(a.Type):
		return evening.View{}, &Error{Kind: ErrInvalid, Code: rules.ErrUnknownAction.Code,
			Message: fmt.Sprintf("an evening's actions are %s", strings.Join(eveningActions, ", "))}
	}
	if a.Type == ActExtra {
		if up, ok := normalizeCode(a.Game); ok {
			a.Game = up // a room code is read in any case, as the games API reads it
		}
	}
	// actor is who may send a: the organiser anything, a table's referee
	// the extra points at their own table's games.
	actor := func(it *eveningItem) (evening.Viewer, error) {
		v, ok := it.who(token)
		switch {
		case !ok || v == evening.Public:
			return v, errEveningToken()
		case v.Organizer:
			return v, nil
		case v.Referee > 0 && a.Type == ActExtra:
			if !it.State.AtTable(a.Game, v.Referee) {
				return v, evening.ErrNotYourTable
			}
			return v, nil
		}
		return v, evening.ErrNotOrganizer
	}
	organizer := func(it *eveningItem) error {
		_, err := actor(it)
		return err
	}
	apply, err := change(a)
	if err != nil {
		return evening.View{}, err
	}
	if a.Type == ActNewReferee {
		apply = s.newReferee(ctx, a.Table)
	}
	seatKey := ""
	if a.Type == ActReseat {
		if seatKey, err = s.token(); err != nil {
			return evening.View{}, err
		}
	}
	if a.Type == ActStartRound {
		games, err := s.makeRound(ctx, code, a, organizer)
		if err != nil {
			return evening.View{}, err
		}
		if games != nil {
			apply = games.start
		}
	}
	var v evening.View
	var link *rules.SeatLink
	version, err := s.eveningLoop(ctx, "act_evening", code, func(ctx context.Context, it *eveningItem, now time.Time) (bool, error) {
		link = nil
		viewer, err := actor(it)
		if err != nil {
			return false, err
		}
		// Each actor's action ids are their own, as a game's players' are.
		by := rules.Actor{Host: true}
		if viewer.Referee > 0 {
			by = rules.Actor{Player: refereeActor + strconv.Itoa(viewer.Referee)}
		}
		changed, err := s.reconcile(ctx, it, now, true)
		if err != nil {
			return false, err
		}
		// Applied before, the action changes nothing; a reseat's key went
		// with its first answer only, as a game's does.
		if apply != nil && !seenIn(it.Acted, by, a.ID) {
			if err := apply(it); err != nil {
				return false, err
			}
			it.Acted = rememberIn(it.Acted, by, a.ID)
			if a.Type == ActReseat {
				link = it.Moving.open(a.Player, seatKey, now, 0)
			}
			changed = true
		}
		v, err = eveningView(it, viewer, now)
		return changed, err
	})
	if err != nil {
		return evening.View{}, err
	}
	v.Version = version
	v.Reseat = link
	return v, nil
}

// change is what an action other than a start of a round or a record does to
// a stored evening: a swap, an absent or a late, an extra, a hiding or a
// showing of the standings, a reseat's check of its player; its fields checked first (a late name as a
// joining phone's, by cleanName here and for look-alikes against the roster
// it meets); nil for the other actions. What the evening refuses
// (evening.Swap, Absent, Late, SetExtra, HideStandings, ShowStandings)
// changes nothing, as every refused action.
func change(a EveningAction) (func(it *eveningItem) error, error) {
	state := func(f func(evening.State) (evening.State, error)) func(it *eveningItem) error {
		return func(it *eveningItem) error {
			st, err := f(it.State)
			if err != nil {
				return err
			}
			it.State = st
			return nil
		}
	}
	switch a.Type {
	case ActExtra:
		if a.Game == "" || a.Player == "" {
			return nil, refused(refuseField("extra: game must be the room code of a game of the evening, and player the id of one who played it"))
		}
		e := evening.Extra{Game: a.Game, Player: a.Player, Points: a.Points, Reason: a.Reason, WorstMove: a.WorstMove}
		return state(func(st evening.State) (evening.State, error) { return evening.SetExtra(st, e) }), nil
	case ActSetModerator:
		// The table changes hands from the next round: its referee token
		// is withdrawn, and the next round's game takes the new one.
		return func(it *eveningItem) error {
			st, err := evening.SetModerator(it.State, a.Table, a.Moderator)
			if err != nil {
				return err
			}
			it.State = st
			it.withdrawReferee(a.Table)
			return nil
		}, nil
	case ActHideStandings:
		return state(evening.HideStandings), nil
	case ActShowStandings:
		return state(evening.ShowStandings), nil
	case ActCloseRoster:
		return state(evening.CloseRoster), nil
	case ActOpenRoster:
		return state(evening.OpenRoster), nil
	case ActSwap:
		if len(a.Players) != 2 {
			return nil, refused(refuseField("swap: players must be the ids of the two players to exchange"))
		}
		return state(func(st evening.State) (evening.State, error) { return evening.Swap(st, a.Players[0], a.Players[1]) }), nil
	case ActAbsent:
		if a.Player == "" {
			return nil, refused(refuseField("absent: player must be the id of the player who leaves"))
		}
		return state(func(st evening.State) (evening.State, error) { return evening.Absent(st, a.Player) }), nil
	case ActReseat:
		if a.Player == "" {
			return nil, refused(refuseField("reseat: player must be the id of the player whose place moves to another phone"))
		}
		// The link itself is opened by ActEvening, which holds the key
		// and the time; the evening only checks that the player is here.
		return func(it *eveningItem) error { return it.State.Here(a.Player) }, nil
	case ActLate:
		name, err := cleanName(a.Name)
		if err != nil {
			return nil, err
		}
		return func(it *eveningItem) error {
			if err := eveningLookalike(name, it.State.Players); err != nil {
				return err
			}
			st, _, err := evening.Late(it.State, name)
			if err != nil {
				return err
			}
			it.State = st
			return nil
		}, nil
	}
	return nil, nil
}

// refuseField is the rules' bad_field refusal with its own message: an
// evening's action without the field its type needs.
func refuseField(msg string) *rules.Error {
	return &rules.Error{Kind: rules.ErrBadField.Kind, Code: rules.ErrBadField.Code, Message: msg}
}

// seatGame makes table t's (from 0) game of the evening with its players
// seated in order, each with the token gameToken derives, the table's
// moderator, and the table's referee token as its host token.
func (s *Service) seatGame(ctx context.Context, it *eveningItem, st evening.State, t int, players []string) (string, error) {
	env := &envelope{Host: hashToken(it.refereeToken(t + 1)), Tokens: map[string][]byte{}}
	code, _, err := s.put(ctx, "start_round", env, func(code string, now time.Time) (rules.State, error) {
		game, err := rules.New(code, st.Rules, st.ModeratorOf(t), st.Lang, now)
		if err != nil {
			return rules.State{}, err
		}
		clear(env.Tokens)
		for _, p := range players {
			var seat string
			if game, seat, err = rules.Join(game, st.Name(p), now); err != nil {
				return rules.State{}, err
			}
			env.Tokens[seat] = hashToken(gameToken(it.Key, code, p, it.Moved[p]))
		}
		game.Table = t + 1
		return game, nil
	})
	return code, err
}

// reconcile counts into the evening every game of it found over and not yet
// recorded (evening.Pending: only the round in play can have any, since a
// round starts when the last is recorded), scored by the evening's table, and
// reports whether it recorded one. Every request on an evening runs it first:
// a read to show the standings as they are, a write to store them, under the
// evening's version check, so two requests that find the same game over at
// once record it once (evening.Record keys it by room code, and the loser of
// the race reloads and finds it recorded). There is no trigger at a game's
// end to miss or to run twice: a game whose last step came by a deadline, on
// a poll that writes nothing, is counted just the same.
//
// keep is set by the requests that write the evening after it: they keep
// each game's protocol (keepGame) before counting it, so that no game is ever
// recorded without what its export needs once the game has expired. A read
// (keep false) never writes, and what it counts in memory only is counted
// again, and kept, by the next write.
func (s *Service) reconcile(ctx context.Context, it *eveningItem, now time.Time, keep bool) (bool, error) {
	changed := false
	for _, g := range evening.Pending(it.State) {
		p, r, over, err := s.score(ctx, g.Code, now)
		if err != nil || !over {
			if err != nil {
				return false, err
			}
			continue
		}
		if keep {
			if err := s.keepGame(ctx, it.State.Code, g, p, now); err != nil {
				return false, err
			}
		}
		st, recorded, err := evening.Record(it.State, r)
		if err != nil {
			return false, fail(ErrInternal, "a game could not be counted into the evening", err)
		}
		it.State, changed = st, changed || recorded
	}
	return changed, nil
}

// score reads the game with a code and, if it is over at now, returns its
// protocol (what its export needs, keepGame) and its score by the evening's
// table.
func (s *Service) score(ctx context.Context, code string, now time.Time) (protocol.Protocol, scoring.Result, bool, error) {
	p, over, err := s.finished(ctx, code, now)
	if err != nil || !over {
		return protocol.Protocol{}, scoring.Result{}, false, err
	}
	r, err := scoring.Game(p, evening.Scoring(), nil)
	if err != nil {
		return protocol.Protocol{}, scoring.Result{}, false, fail(ErrInternal, "a game of the evening could not be scored", err)
	}
	return p, r, true, nil
}

// finished reads the game with a code and, if it is over at now, returns its
// protocol. A game that has expired is not over: it can no longer be counted.
func (s *Service) finished(ctx context.Context, code string, now time.Time) (protocol.Protocol, bool, error) {
	got, err := s.st.Get(ctx, gameKey(code), false)
	switch {
	case errors.Is(err, store.ErrNotFound):
		return protocol.Protocol{}, false, nil
	case err != nil:
		return protocol.Protocol{}, false, s.storeFailure(ctx, "score", code, err)
	}
	env, err := decode(got.State)
	if err != nil {
		return protocol.Protocol{}, false, fail(ErrInternal, "a game of the evening could not be read", err)
	}
	game := rules.Advance(env.State, now)
	if game.Phase.Name != rules.PhaseGameOver {
		return protocol.Protocol{}, false, nil
	}
	return protocol.Of(game), true, nil
}

// eveningStep is one try of a request on a loaded evening at time now, as a
// game's step: it changes it in place and reports whether it did, or returns
// the error that ends the request. It may read games (reconcile).
type eveningStep func(ctx context.Context, it *eveningItem, now time.Time) (changed bool, err error)

// eveningLoop is an evening's read-apply-write cycle, as loop is a game's:
// load the evening (a plain read may be eventually consistent), run fn, and if
// it changed the evening write it under the version read; a conflict or a
// store error loads and runs fn again after a jittered pause. It returns the
// evening's version as the request leaves it.
func (s *Service) eveningLoop(ctx context.Context, op, code string, fn eveningStep) (int64, error) {
	code, ok := normalizeCode(code)
	if !ok {
		return 0, errNoEvening()
	}
	ctx, cancel := s.withBudget(ctx)
	defer cancel()
	key := eveningKey(code)
	var last error
	for try := 0; try < s.maxRetries && s.pause(ctx, try, last); try++ {
		consistent := op != opReadEvening || try > 0
		got, err := s.st.Get(ctx, key, consistent)
		if !consistent && errors.Is(err, store.ErrNotFound) {
			got, err = s.st.Get(ctx, key, true) // made a moment ago
		}
		if err != nil {
			if errors.Is(err, store.ErrNotFound) {
				return 0, errNoEvening()
			}
			if !retryable(ctx, err) {
				return 0, s.storeFailure(ctx, op, code, err)
			}
			last = err
			continue
		}
		it, err := decodeEvening(got.State)
		if err != nil {
			s.log.ErrorContext(ctx, "service: stored evening unreadable", "op", op, "code", code, "version", got.Version, "err", err)
			return 0, fail(ErrInternal, "the evening could not be read", err)
		}
		now := s.now()
		changed, err := fn(ctx, it, now)
		refusal, written := counted(err)
		if err != nil && !(changed && written) {
			return 0, refused(err)
		}
		if !changed {
			return got.Version, nil
		}
		b, err := s.packEvening(it)
		if err != nil {
			return 0, err
		}
		version, err := s.st.Update(ctx, key, got.Version, b, now.Add(EveningTTL))
		switch {
		case err == nil && refusal != nil:
			return 0, refused(refusal.err)
		case err == nil:
			return version, nil
		case errors.Is(err, store.ErrNotFound):
			return 0, errNoEvening()
		case errors.Is(err, store.ErrTooLarge):
			s.log.ErrorContext(ctx, "service: evening too large to save", "op", op, "code", code, "bytes", len(b), "err", err)
			return 0, fail(ErrUnavailable, "the evening has grown too large to save", err)
		case !retryable(ctx, err):
			return 0, s.storeFailure(ctx, op, code, err)
		}
		last = err
		s.log.DebugContext(ctx, "service: evening save failed, trying again", "op", op, "code", code, "try", try, "err", err)
	}
	return 0, s.giveUp(ctx, op, code, last)
}

// opReadEvening names a read of an evening, which may begin eventually
// consistent since it writes nothing.
const opReadEvening = "read_evening"

// eveningView is the viewer's view of the evening at now, with a player's
// game token for the round in play, and for the organiser the tables'
// referee tokens and the players whose link to another phone is open.
func eveningView(it *eveningItem, viewer evening.Viewer, now time.Time) (evening.View, error) {
	v, err := evening.ViewOf(it.State, viewer)
	if err != nil {
		return evening.View{}, fail(ErrInternal, "the evening could not be read", err)
	}
	if v.You != nil && v.You.Game != "" {
		v.You.GameToken = gameToken(it.Key, v.You.Game, v.You.PlayerID, it.Moved[v.You.PlayerID])
	}
	if viewer.Organizer {
		for i := range v.Referees {
			v.Referees[i].Token = it.refereeToken(v.Referees[i].Table)
		}
		ids := make([]string, len(v.Players))
		for i, p := range v.Players {
			ids[i] = p.ID
		}
		v.Moving = it.Moving.openOf(ids, now)
	}
	return v, nil
}

func errNoEvening() error {
	return fail(ErrNotFound, "there is no evening with this code", nil)
}

func errEveningToken() error {
	return fail(ErrUnauthorized, "this token does not belong to this evening", nil)
}
