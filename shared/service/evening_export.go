package service

import (
	"context"
	"errors"
	"fmt"
	"time"

	"citysleeps/shared/evening"
	"citysleeps/shared/protocol"
	"citysleeps/shared/ratings"
	"citysleeps/shared/store"
)

// An evening's export (EveningMafiaRatings) must outlive its games: they are
// kept 48 hours, the evening 30 days, and a club sends its evening to the
// ratings sites in the days after. So when a write of the evening records a
// finished game (reconcile), it first keeps the game's protocol, the one
// input of the export, in an item of its own (keptGame). Not in the evening
// item: that one is read on every poll of every phone, and ten rounds of four
// tables of protocols would multiply what each poll reads. The export reads
// the evening and these items, and converts each protocol as the game's own
// export does (mafiaRatings), so both answer the same JSON for a game.

// CodeNotKept is the code of an evening's game that finished but whose
// protocol is kept no longer: it was recorded before the evening kept its
// games' exports, and the game has expired since, or its kept item has
// (keptGame lives EveningTTL from the game's recording).
const CodeNotKept = "not_kept"

// CodeStandingsHidden is the code of an evening's game whose round the
// organiser's hidden standings cover (evening.HideStandings): its export
// would tell its winner, so only the organiser's token gets it until the
// standings are shown. It is the evening's refusal's code for the same cause.
var CodeStandingsHidden = evening.ErrStandingsHidden.Code

// keptFormat opens a kept game: deflated JSON (deflateJSON). A later layout
// gets another byte.
const keptFormat = 1

// keptGame is what an evening keeps of one of its finished games: the game's
// room code, which tells a retry's item from any other, and its protocol,
// from which the export is made.
type keptGame struct {
	Game     string            `json:"g"`
	Protocol protocol.Protocol `json:"p"`
}

// keptKey is the store key of the kept game at a round and table (from 0)
// of the evening with a code: "evening/CODE/3-2" for round 3, table 2. A
// game's key has no '/' and an evening's exactly one (eveningKey), so it is
// neither; and a round's table holds one game all evening (the round's games
// are named once, by evening.StartRound), so the key is that game's.
func keptKey(code string, g evening.Game) string {
	return fmt.Sprintf("%s/%d-%d", eveningKey(code), g.Round+1, g.Table+1)
}

func decodeKept(b []byte) (keptGame, error) {
	var k keptGame
	err := inflateJSON(b, keptFormat, "game of an evening", &k)
	return k, err
}

// keepGame stores the finished game g's protocol for the evening with a code,
// before the write that records the game, so that a game is never counted
// without it. It is a Create, and so runs once per game however many requests
// find the game over: an item already there that holds the same game is a
// retry's or a concurrent request's, and as good as this one. It lives
// EveningTTL from now, the evening's own promise after its last change.
//
// A protocol over the store's item limit cannot be kept: that is logged and
// the game counted all the same (its export is then CodeNotKept once the game
// has expired), as holding the evening's standings back for it would be worse.
func (s *Service) keepGame(ctx context.Context, code string, g evening.Game, p protocol.Protocol, now time.Time) error {
	b, err := deflateJSON(keptFormat, keptGame{Game: g.Code, Protocol: p})
	if err != nil {
		return fail(ErrInternal, "a game of the evening could not be kept", err)
	}
	key := keptKey(code, g)
	err = s.st.Create(ctx, key, b, now.Add(EveningTTL))
	switch {
	case err == nil:
		return nil
	case errors.Is(err, store.ErrExists):
		// Kept already, by a retry whose write landed or by another request
		// that found the game over: it must hold this game. A read that fails
		// here says nothing of whose the item is, and is tried again as any
		// store failure is.
		it, err := s.st.Get(ctx, key, true)
		if err != nil {
			return s.storeFailure(ctx, "keep_game", code, err)
		}
		if k, err := decodeKept(it.State); err == nil && k.Game == g.Code {
			return nil
		}
		// Another game under this key would be one of an expired evening
		// with the same code, whose kept games expire before it does.
		s.log.ErrorContext(ctx, "service: another game is kept in this one's place", "evening", code, "game", g.Code, "key", key)
		return fail(ErrInternal, "a game of the evening could not be kept", fmt.Errorf("%s holds another game than %s", key, g.Code))
	case errors.Is(err, store.ErrTooLarge):
		s.log.ErrorContext(ctx, "service: game too large to keep for its evening's export", "evening", code, "game", g.Code, "bytes", len(b), "err", err)
		return nil
	}
	return s.storeFailure(ctx, "keep_game", code, err)
}

// EveningGame names a game of an evening in its export: its room code, its
// round and table counted from 1, and its number in the evening.
type EveningGame struct {
	Game   string `json:"game"`
	Round  int    `json:"round"`
	Table  int    `json:"table"`
	Number int    `json:"number"`
}

// ExportedGame is one game of an evening in mafiaratings' game JSON.
type ExportedGame struct {
	EveningGame
	MafiaRatings ratings.Game `json:"mafiaratings"`
}

// SkippedGame is a game of an evening its export leaves out, and why: Code
// is CodeGameNotOver (still in play), CodeNotExportable (the format cannot
// tell it; Reason says why, as the game's own export would), CodeNotKept, or
// CodeStandingsHidden.
type SkippedGame struct {
	EveningGame
	Code   string `json:"code"`
	Reason string `json:"reason"`
}

// EveningExport is an evening's finished games in mafiaratings' format, in
// round and table order, and the games it leaves out, in the same order.
type EveningExport struct {
	Evening string         `json:"evening"`
	Games   []ExportedGame `json:"games"`
	Skipped []SkippedGame  `json:"skipped"`
}

// EveningMafiaRatings returns every finished game of the evening as
// mafiaratings' game JSON (mafiaRatings, as a game's export), and lists each
// other game it started with the reason it is left out, so a club uploads
// what the site can take and knows what it cannot. Like the games' exports
// it is anyone's (a token is optional, and checked if given). It reads only:
// the recorded games from what the evening kept of them (keepGame), whether
// or not the games still exist, and a game found over but not yet recorded
// from the game itself, as ReadEvening shows it.
//
// An evening none of whose games is over is the conflict CodeGameNotOver,
// as a game's export is before its end; one with finished games none of which
// can be exported is ErrUnprocessable with CodeNotExportable and the first
// game's reason: an evening plays one rule set, so one reason is usually all
// of theirs.
func (s *Service) EveningMafiaRatings(ctx context.Context, code, token string) (EveningExport, error) {
	var out EveningExport
	_, err := s.eveningLoop(ctx, opReadEvening, code, func(ctx context.Context, it *eveningItem, now time.Time) (bool, error) {
		viewer, ok := it.who(token)
		if !ok {
			return false, errEveningToken()
		}
		var err error
		out, err = s.exportEvening(ctx, it, viewer, now)
		return false, err
	})
	if err != nil {
		return EveningExport{}, err
	}
	if len(out.Games) > 0 {
		return out, nil
	}
	for _, sk := range out.Skipped {
		if sk.Code != CodeGameNotOver && sk.Code != CodeStandingsHidden {
			return EveningExport{}, &Error{Kind: ErrUnprocessable, Code: CodeNotExportable, Message: fmt.Sprintf(
				"no finished game of this evening can be exported; game %d (round %d, table %d): %s",
				sk.Number, sk.Round, sk.Table, sk.Reason)}
		}
	}
	return EveningExport{}, &Error{Kind: ErrConflict, Code: CodeGameNotOver, Message: "an evening is exported once one of its games is over"}
}

// exportEvening converts or skips every game the evening started, round by
// round and table by table, as the viewer may see them: a round the hidden
// standings cover is skipped for all but the organiser.
func (s *Service) exportEvening(ctx context.Context, it *eveningItem, viewer evening.Viewer, now time.Time) (EveningExport, error) {
	st := it.State
	out := EveningExport{Evening: st.Code, Games: []ExportedGame{}, Skipped: []SkippedGame{}}
	for r, codes := range st.Played {
		for t, code := range codes {
			if code == "" {
				continue // a table closed this round
			}
			g := evening.Game{Code: code, Round: r, Table: t}
			name := EveningGame{Game: code, Round: r + 1, Table: t + 1, Number: st.Number(g)}
			if st.Hides(viewer, r) {
				out.Skipped = append(out.Skipped, SkippedGame{EveningGame: name, Code: CodeStandingsHidden,
					Reason: "the organiser hides this round's results until the standings are shown"})
				continue
			}
			p, ok, err := s.gameProtocol(ctx, st, g, now)
			if err != nil {
				return EveningExport{}, err
			}
			if !ok {
				sk := SkippedGame{EveningGame: name, Code: CodeGameNotOver, Reason: "the game is not over"}
				if st.Recorded(code) {
					sk.Code, sk.Reason = CodeNotKept, "the game's record is no longer kept"
				}
				out.Skipped = append(out.Skipped, sk)
				continue
			}
			x, err := mafiaRatings(p)
			var e *Error
			if errors.As(err, &e) && e.Code == CodeNotExportable {
				out.Skipped = append(out.Skipped, SkippedGame{EveningGame: name, Code: e.Code, Reason: e.Message})
				continue
			}
			if err != nil {
				return EveningExport{}, err
			}
			out.Games = append(out.Games, ExportedGame{EveningGame: name, MafiaRatings: x})
		}
	}
	return out, nil
}

// gameProtocol is the protocol of the evening's game g if it is over: the
// kept one if the game is recorded, else, or if none was kept (a game
// recorded before evenings kept them), the game's own while it exists.
func (s *Service) gameProtocol(ctx context.Context, st evening.State, g evening.Game, now time.Time) (protocol.Protocol, bool, error) {
	if st.Recorded(g.Code) {
		key := keptKey(st.Code, g)
		got, err := s.st.Get(ctx, key, false)
		if errors.Is(err, store.ErrNotFound) {
			got, err = s.st.Get(ctx, key, true) // kept a moment ago
		}
		switch {
		case err == nil:
			k, err := decodeKept(got.State)
			if err != nil {
				return protocol.Protocol{}, false, fail(ErrInternal, "a kept game of the evening could not be read", err)
			}
			if k.Game == g.Code {
				return k.Protocol, true, nil
			}
		case !errors.Is(err, store.ErrNotFound):
			return protocol.Protocol{}, false, s.storeFailure(ctx, "export_evening", st.Code, err)
		}
	}
	return s.finished(ctx, g.Code, now)
}
