package service

import (
	"context"

	"citysleeps/shared/protocol"
	"citysleeps/shared/ratings"
)

// CodeNotExportable is the code of an export of a finished game that the
// rating site's format cannot tell (ratings.Unsupported): another deal, a
// night act the format has no word for. The message says which.
const CodeNotExportable = "not_exportable"

// MafiaRatings returns the finished game as mafiaratings' game JSON
// (package ratings, docs/EXPORT.md), built from its protocol: to anyone, as
// the protocol is once the game is over. Before that it is the conflict
// CodeGameNotOver for everyone, the moderator too: the format tells a game
// with its winner. A game the format cannot tell is ErrUnprocessable with
// CodeNotExportable and the reason.
func (s *Service) MafiaRatings(ctx context.Context, code, token string) (ratings.Game, error) {
	p, err := s.Protocol(ctx, code, token)
	if err != nil {
		return ratings.Game{}, err
	}
	if !p.Over {
		return ratings.Game{}, &Error{Kind: ErrConflict, Code: CodeGameNotOver, Message: "a game is exported once it is over"}
	}
	return mafiaRatings(p)
}

// mafiaRatings is a finished game's protocol as mafiaratings' game JSON, or
// ErrUnprocessable with CodeNotExportable and the reason: the one conversion
// behind a game's export and an evening's (EveningMafiaRatings), so the two
// never tell the same game apart.
func mafiaRatings(p protocol.Protocol) (ratings.Game, error) {
	g, err := ratings.MafiaRatings(p)
	if u, ok := ratings.AsUnsupported(err); ok {
		return ratings.Game{}, &Error{Kind: ErrUnprocessable, Code: CodeNotExportable, Message: u.Error()}
	}
	return g, err
}
