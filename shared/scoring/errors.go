package scoring

import (
	"errors"
	"fmt"
)

// Error is a refusal to score: a table that cannot be used, a game that is not
// over, an extra the table does not allow, results that do not add up. Code is
// a stable machine-readable word; Message says in plain words what is wrong.
type Error struct {
	Code    string
	Message string
}

func (e *Error) Error() string { return "scoring: " + e.Message }

// Is makes errors.Is match any *Error with the same Code, so callers can test
// against the sentinel values below.
func (e *Error) Is(target error) bool {
	t, ok := target.(*Error)
	return ok && t.Code == e.Code
}

// The refusals of this package.
var (
	// ErrInvalidTable: a value of the table is out of its range (Table.Validate).
	ErrInvalidTable = &Error{Code: "invalid_table", Message: "invalid scoring table"}
	// ErrNotOver: the protocol is of a game that has not ended.
	ErrNotOver = &Error{Code: "game_not_over", Message: "only a finished game is scored"}
	// ErrInvalidProtocol: the protocol does not say what scoring needs (a
	// winner, every seat's card), or lost the night the best move was made in.
	ErrInvalidProtocol = &Error{Code: "invalid_protocol", Message: "the protocol cannot be scored"}
	// ErrInvalidExtra: the referee's extra points are out of the table's bound,
	// have no reason, or name a seat the game does not have.
	ErrInvalidExtra = &Error{Code: "invalid_extra", Message: "invalid extra points"}
	// ErrInvalidGames: the evening's games do not fit together (a seat with no
	// player, a player in two seats, a game given twice, parts that do not add
	// up to the total).
	ErrInvalidGames = &Error{Code: "invalid_games", Message: "the games cannot be added up"}
)

// refusef is base with what exactly is wrong after its own message.
func refusef(base *Error, format string, args ...any) *Error {
	return &Error{Code: base.Code, Message: base.Message + ": " + fmt.Sprintf(format, args...)}
}

// AsError returns the scoring refusal inside err, if there is one.
func AsError(err error) (*Error, bool) {
	var e *Error
	ok := errors.As(err, &e)
	return e, ok
}
