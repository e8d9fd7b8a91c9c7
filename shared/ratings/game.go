package ratings

import (
	"encoding/json"
	"time"
)

// FormatVersion is the version of mafiaratings' game JSON that MafiaRatings
// writes: GAME_CURRENT_VERSION of mafiaratings' include/game.php.
const FormatVersion = "1.3"

// Game is one game as mafiaratings' game JSON tells it (Game::api_help in
// mafiaratings' include/game.php). Rounds count from 0: round 0 is the
// meeting night (night 0) and the first day (day 0); round 1 is the first
// night of shots and the day after it; and so on. Players are numbered 1 to
// 10 by their seats.
type Game struct {
	// Version is FormatVersion.
	Version string `json:"version"`
	// Features says, one letter each, which details the record holds
	// (Features…); a detail the game could not tell is left out with its
	// letter, and Omitted says why.
	Features string `json:"features"`
	// ClubID, EventID and Moderator.ID are the site's own ids, which only the
	// site knows: 0 until the club fills them in before the upload
	// (docs/EXPORT.md), unless the caller gave them (ClubID, EventID,
	// ModeratorID).
	ClubID  int  `json:"clubId"`
	EventID int  `json:"eventId"`
	Rating  bool `json:"rating"`
	// StartTime and EndTime are ISO 8601, in Timezone.
	StartTime string `json:"startTime"`
	EndTime   string `json:"endTime"`
	Timezone  string `json:"timezone"`
	// Language is the game's two-letter language as the site codes it: en,
	// ru, ua (Ukrainian), or another language's own code.
	Language string `json:"language"`
	// Rules is the site's rules code (mafiaratings' include/rules.php), as
	// near to the game's rules as the code can say.
	Rules string `json:"rules"`
	// Winner is "civ" (the town) or "maf".
	Winner    string    `json:"winner"`
	Moderator Moderator `json:"moderator"`
	// Players are the ten seats, in seat order.
	Players []Player `json:"players"`

	// Omitted lists the details left out of this record, and why. It is not
	// part of the format.
	Omitted []Omission `json:"-"`
}

// Moderator is who moderated: a user of the site.
type Moderator struct {
	ID int `json:"id"`
}

// Player is one seat of a Game.
type Player struct {
	// ID is the player's user id on the site; absent, the player is unknown
	// there, and the site keeps the game without rating them.
	ID   int    `json:"id,omitempty"`
	Name string `json:"name"`
	// Role is "civ", "sheriff", "maf" or "don".
	Role string `json:"role"`
	// Death is how and when the player left; nil for who was at the table to
	// the end.
	Death *Death `json:"death,omitempty"`
	// Warnings are the moments of the player's warnings, in order.
	Warnings []GameTime `json:"warnings,omitempty"`
	// Don and Sheriff are the rounds in which the Don, or the Sheriff,
	// checked this player.
	Don     *int `json:"don,omitempty"`
	Sheriff *int `json:"sheriff,omitempty"`
	// Legacy is the best move: the seats the player, killed on the first
	// night of shots, named in the last word.
	Legacy []int `json:"legacy,omitempty"`
	// Nominating is whom the player nominated, by round (null: nobody).
	Nominating []*int `json:"nominating,omitempty"`
	// Voting is how the player voted, by round.
	Voting []RoundVote `json:"voting,omitempty"`
	// Shooting is whom a black player shot, by night of shots: index 0 is
	// round 1's night (null: no shot).
	Shooting []*int `json:"shooting,omitempty"`
}

// Death types (death.type in Game::api_help).
const (
	DeathDay      = "day"      // voted out
	DeathNight    = "night"    // killed by the mafia
	DeathWarnings = "warnings" // removed by warnings
	DeathKickOut  = "kickOut"  // removed by the moderator
)

// Death is how and when a player left the game.
type Death struct {
	Round int    `json:"round"`
	Type  string `json:"type"`
	// Time is the moment a player removed by warnings or by the moderator
	// left; absent for a death by day or by night.
	Time *GameTime `json:"time,omitempty"`
}

// Moments of a round (time in a GameTime) that a Game names, in the order
// mafiaratings' include/game.php sorts them: the night's come first (start,
// night start, shooting, the Don's and the Sheriff's checks, night end), then the
// day's (the night's killed speaking, the speeches, the votes, the voted
// out speaking). End is the end of the game.
const (
	TimeStart           = "start"
	TimeNightStart      = "night start"
	TimeShooting        = "shooting"
	TimeDon             = "don"
	TimeSheriff         = "sheriff"
	TimeNightEnd        = "night end"
	TimeNightKillSpeech = "night kill speaking"
	TimeSpeaking        = "speaking"
	TimeVoting          = "voting"
	TimeVotingKillAll   = "voting kill all"
	TimeDayKillSpeech   = "day kill speaking"
	TimeEnd             = "end"
)

// GameTime is a moment of the game: a round and what was happening in it,
// with who was speaking where that is part of it (speaking, a last word),
// and the vote of the day (VotingRound: 0 the day's vote, 1 its revote,
// then the vote on all leaving).
type GameTime struct {
	Round       int    `json:"round"`
	Time        string `json:"time"`
	Speaker     int    `json:"speaker,omitempty"`
	VotingRound *int   `json:"votingRound,omitempty"`
	Nominee     int    `json:"nominee,omitempty"`
}

// RoundVote is how a player voted in one round: not at all (null), for one
// player (a number), or, on a day whose vote was held again after a tie, for
// one player in each vote (an array), ended by yes or no to "shall all of
// them leave?" when the table was asked.
type RoundVote struct {
	For     []int
	KillAll *bool
	// Again: the day's vote was held again, and the round is an array.
	Again bool
}

// MarshalJSON writes the round's vote as Game::api_help describes "voting".
func (v RoundVote) MarshalJSON() ([]byte, error) {
	if len(v.For) == 0 && v.KillAll == nil {
		return []byte("null"), nil
	}
	if !v.Again && v.KillAll == nil && len(v.For) == 1 {
		return json.Marshal(v.For[0])
	}
	a := make([]any, 0, len(v.For)+1)
	for _, n := range v.For {
		a = append(a, n)
	}
	if v.KillAll != nil {
		a = append(a, *v.KillAll)
	}
	return json.Marshal(a)
}

// Omission is a detail left out of a Game: its features letter, and why.
type Omission struct {
	Feature string
	Reason  string
}

// Option sets what the protocol does not know: the site's ids and the times.
type Option func(*settings)

type settings struct {
	club, event, moderator int
	users                  []int
	start, end             time.Time
	loc                    *time.Location
	notRated               bool
}

// ClubID is the club's id on the site.
func ClubID(id int) Option { return func(s *settings) { s.club = id } }

// EventID is the id on the site of the event (the evening) the game belongs to.
func EventID(id int) Option { return func(s *settings) { s.event = id } }

// ModeratorID is the site's user id of the game's moderator.
func ModeratorID(id int) Option { return func(s *settings) { s.moderator = id } }

// UserIDs are the players' user ids on the site, in seat order; 0 for a
// player the site does not know.
func UserIDs(ids ...int) Option { return func(s *settings) { s.users = ids } }

// Times are when the game started and ended. Without them the game starts
// when it was opened (protocol.Protocol.Created) and ends then too.
func Times(start, end time.Time) Option {
	return func(s *settings) { s.start, s.end = start, end }
}

// In writes the times in loc, and names it as the game's timezone; UTC
// without it.
func In(loc *time.Location) Option { return func(s *settings) { s.loc = loc } }

// NotRated marks the game as one played for fun, which the site keeps out of
// its ratings.
func NotRated() Option { return func(s *settings) { s.notRated = true } }
