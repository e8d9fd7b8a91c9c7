package rules

import (
	"errors"
	"fmt"
)

// Error is a refusal by the rules: the action is not possible, and the state is
// unchanged. Code is a stable machine-readable word; the HTTP layer maps each Kind to
// a status.
type Error struct {
	Kind    Kind
	Code    string
	Message string
}

func (e *Error) Error() string { return "rules: " + e.Message }

// Is makes errors.Is match any *Error of the same Kind and Code, so callers can test
// against the sentinel values below.
func (e *Error) Is(target error) bool {
	t, ok := target.(*Error)
	return ok && t.Kind == e.Kind && (t.Code == "" || t.Code == e.Code)
}

// Kind groups refusals by what the caller did wrong.
type Kind int

// The kinds of refusal.
const (
	// Invalid: the action itself is malformed (unknown type, bad target, bad field).
	Invalid Kind = iota + 1
	// Forbidden: this actor may not take this action (not your role, not your turn, dead).
	Forbidden
	// Conflict: not possible in the current phase (wrong phase, already acted, game over).
	Conflict
)

func refuse(k Kind, code, msg string) *Error { return &Error{Kind: k, Code: code, Message: msg} }

// The refusals the engine returns. Messages name what went wrong in plain words.
var (
	ErrUnknownAction  = refuse(Invalid, "unknown_action", "unknown action type")
	ErrBadTarget      = refuse(Invalid, "bad_target", "that target is not allowed")
	ErrBadField       = refuse(Invalid, "bad_field", "the action has a missing or wrong field")
	ErrInvalidOptions = refuse(Invalid, "invalid_options", "invalid rules")
	ErrInvalidTable   = refuse(Conflict, "invalid_table", "the table cannot be dealt")
	ErrNotHost        = refuse(Forbidden, "not_host", "only the host may do that")
	ErrNotPlayer      = refuse(Forbidden, "not_player", "only a seated player may do that")
	ErrNotYourRole    = refuse(Forbidden, "not_your_role", "your role cannot do that")
	ErrNotYourTurn    = refuse(Forbidden, "not_your_turn", "it is not your turn")
	ErrDead           = refuse(Forbidden, "dead", "players out of the game cannot act")
	ErrWrongPhase     = refuse(Conflict, "wrong_phase", "not possible in this phase")
	ErrAlreadyActed   = refuse(Conflict, "already_acted", "you have already done that")
	ErrGameOver       = refuse(Conflict, "game_over", "the game is over")
	ErrTableFull      = refuse(Conflict, "table_full", "the table is full")
	ErrNameTaken      = refuse(Conflict, "name_taken", "that name is already at the table")
	ErrPaused         = refuse(Conflict, "paused", "the game is paused")
	ErrLocked         = refuse(Conflict, "lobby_locked", "the host has locked the table: nobody new can join")
	ErrSeated         = refuse(Conflict, "table_seated", "an evening seated this table: nobody new joins it, nobody leaves it, and its rules are the evening's")
	ErrBanned         = refuse(Forbidden, "banned", "the host has sent this device away from the table")
)

// refusal wraps a sentinel with a more specific message while keeping errors.Is.
func refusal(base *Error, msg string) *Error {
	return &Error{Kind: base.Kind, Code: base.Code, Message: msg}
}

// refusef is base with what exactly is wrong after its own message, so that
// the refusal's Message is whole and nobody reads it out of Error().
func refusef(base *Error, format string, args ...any) *Error {
	return refusal(base, base.Message+": "+fmt.Sprintf(format, args...))
}

// AsError returns the rules refusal inside err, if there is one.
func AsError(err error) (*Error, bool) {
	var e *Error
	ok := errors.As(err, &e)
	return e, ok
}
