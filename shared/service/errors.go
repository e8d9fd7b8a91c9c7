package service

import (
	"errors"
	"time"
)

// The kinds of failure the service returns, besides the rules' own refusals
// (*rules.Error, returned as they are). Test for them with errors.Is; the HTTP
// layer maps each kind to one status:
//
//	ErrInvalid      400  the request itself is wrong (bad create request, name, action id)
//	ErrUnauthorized 401  no token where one is needed, or a token that matches nobody here
//	ErrNotFound     404  no such game (never created, malformed code, or expired)
//	ErrConflict     409  not possible with the game as it is (a name that looks like one at the table)
//	ErrLimited      429  too many joins of this game lately; retry after a while (Error.RetryAfter)
//	ErrBusy         503  too many writers at once; retry the same request (same action id)
//	ErrUnavailable  503  the store failed or timed out; retry later
//	ErrInternal     500  a stored game could not be read back; a bug, logged
//
// ErrBusy is a 503 and not a 409: in this API 409 says "not possible now", which a
// client must not retry, while a busy game is worth retrying at once, and the
// action id makes the retry safe. A Retry-After of a second is plenty.
var (
	ErrInvalid      = errors.New("invalid request")
	ErrUnauthorized = errors.New("unknown or missing token")
	ErrNotFound     = errors.New("no such game")
	ErrConflict     = errors.New("not possible with the game as it is")
	ErrLimited      = errors.New("too many requests for this game, try again later")
	ErrBusy         = errors.New("the game is busy, try again")
	ErrUnavailable  = errors.New("the game store is unavailable, try again later")
	ErrInternal     = errors.New("internal error")
)

// Error is a service failure. Message is written for the client and is safe to
// send; Cause is the internal reason (a store or decoding error), for logs only.
//
// errors.Is matches the Kind, and also the Cause, so a caller can tell a cancelled
// request (context.Canceled) from a store outage. The Cause is never a
// *rules.Error: refusals by the rules are returned unwrapped.
type Error struct {
	Kind    error  // one of ErrInvalid, ErrUnauthorized, ErrNotFound, ErrConflict, ErrLimited, ErrBusy, ErrUnavailable, ErrInternal
	Code    string // a finer code for the client (such as "name_invisible"), or "" for the kind's own
	Message string // for the client
	Cause   error  // for the log; may be nil
	// RetryAfter is how long the client should wait before it tries again
	// (ErrLimited); zero when the kind's usual pause will do.
	RetryAfter time.Duration
}

// Error returns the message and, after it, the cause: the full text is for logs.
func (e *Error) Error() string {
	if e.Cause == nil {
		return "service: " + e.Message
	}
	return "service: " + e.Message + ": " + e.Cause.Error()
}

// Unwrap returns the kind and the cause.
func (e *Error) Unwrap() []error {
	if e.Cause == nil {
		return []error{e.Kind}
	}
	return []error{e.Kind, e.Cause}
}

// Public returns the message of err that may be shown to a client: the Message of
// a service *Error, or the kind's own text for a bare sentinel. For any other error
// (a *rules.Error has its own Message) it returns "internal error".
func Public(err error) string {
	var e *Error
	if errors.As(err, &e) {
		return e.Message
	}
	for _, k := range []error{ErrInvalid, ErrUnauthorized, ErrNotFound, ErrConflict, ErrLimited, ErrBusy, ErrUnavailable, ErrInternal} {
		if err == k {
			return k.Error()
		}
	}
	return ErrInternal.Error()
}

func fail(kind error, msg string, cause error) *Error {
	return &Error{Kind: kind, Message: msg, Cause: cause}
}

// CodeOf returns the finer code of a service *Error in err, or "".
func CodeOf(err error) string {
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return ""
}

// RetryAfterOf returns how long the client of a service *Error in err should
// wait before trying again, or zero.
func RetryAfterOf(err error) time.Duration {
	var e *Error
	if errors.As(err, &e) {
		return e.RetryAfter
	}
	return 0
}

func invalid(msg string) *Error { return fail(ErrInvalid, msg, nil) }
