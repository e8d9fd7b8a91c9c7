// Package ratings tells a finished game to the rating sites, in their own
// formats: MafiaRatings writes mafiaratings' game JSON (format version 1.3,
// Game::api_help in mafiaratings' include/game.php), the record a club
// uploads there for its players' ratings.
//
// The format knows one game: ten players, six citizens, the Sheriff, two
// mafia and the Don, a first night that is a meeting. A game of that deal
// exports whatever rule set it was played by; what happened in it that the
// format has no words for (the Sheriff's shot, the Commissar's reveal) makes
// it *Unsupported, with the reason, and a detail the format would read
// otherwise than it went (votes with abstentions, shots that killed by a
// majority) is left out, with its features letter, and Game.Omitted says why.
// docs/EXPORT.md lists it all, and how a club uploads a game.
//
//	p := protocol.Of(s)
//	g, err := ratings.MafiaRatings(p, ratings.Times(started, ended))
//	if u, ok := ratings.AsUnsupported(err); ok {
//		/* 422, u.Reason */
//	}
//	data, _ := json.Marshal(g)
//
// The ids the site gives its clubs, events and users are not known here:
// they are 0 (a player's left out) unless the caller gives them (ClubID,
// EventID, ModeratorID, UserIDs), and the club fills them in before the
// upload. Nothing here reads a clock, stores or sends anything.
package ratings
