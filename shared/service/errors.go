package service

import (
	"errors"
	"time"

	"citysleeps/shared/rules"
)

// Kind is the class of an error: what the HTTP layer maps to a status (its one
// table, httpapi's statusOf), and the code a client sees unless the error names
// a finer one. A Kind is an error itself, so errors.Is(err, ErrBusy) tests an
// *Error's kind.
type Kind string

func (k Kind) Error() string { return string(k) }

// The kinds, with the status each maps to. ErrBusy is a 503 and not a 409: in
// this API 409 says "not possible now", which a client must not retry, while a
// busy game is worth retrying at once, and the action id makes the retry safe.
const (
	ErrMalformed        Kind = "malformed"              // 400 the body is not the JSON its route takes (the HTTP layer's decoding)
	ErrInvalid          Kind = "invalid"                // 400 well-formed, but a field is wrong (a create request, name, action id; the rules' unknown_action, bad_field…)
	ErrUnauthorized     Kind = "unauthorized"           // 401 no token where one is needed, or one that matches nobody here
	ErrForbidden        Kind = "forbidden"              // 403 not allowed for this player (the rules' not_host, banned…), or a request that did not come through the site
	ErrNotFound         Kind = "not_found"              // 404 no such game (never created, malformed code, or expired), or no such route
	ErrMethodNotAllowed Kind = "method_not_allowed"     // 405 the route takes another method
	ErrConflict         Kind = "conflict"               // 409 not possible with the game as it is (a look-alike name; the rules' wrong_phase…)
	ErrTooLarge         Kind = "too_large"              // 413 the body is over the HTTP layer's limit
	ErrUnprocessable    Kind = "unprocessable"          // 422 understood, but this game cannot be given so (an export the format cannot tell)
	ErrUnsupportedType  Kind = "unsupported_media_type" // 415 a body that does not say it is JSON
	ErrLimited          Kind = "rate_limited"           // 429 too many requests (join_limited: too many joins of this game lately); Error.RetryAfter
	ErrBusy             Kind = "busy"                   // 503 too many writers at once; retry the same request (same action id)
	ErrUnavailable      Kind = "unavailable"            // 503 the store failed or timed out; retry later
	ErrInternal         Kind = "internal"               // 500 a bug, or a stored game that cannot be read back; logged
)

// Error is every refusal and failure a client is told of: the service's own,
// the rules' refusals (translated once, by refused), and the HTTP layer's
// (its decoding, routes and limits). Code and Message are what the client
// sees; Cause is the internal reason (a store or decoding error, or the rules'
// refusal), for logs only.
//
// errors.Is matches the Kind, and also the Cause, so a caller can tell a
// cancelled request (context.Canceled) from a store outage, or which refusal
// of the rules (rules.ErrWrongPhase) it was.
type Error struct {
	Kind    Kind
	Code    string // what the client sees: the kind's own, or a finer one (such as "name_invisible")
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

// Refuse returns a refusal of kind with its own code and message.
func Refuse(kind Kind, msg string) *Error {
	return &Error{Kind: kind, Code: string(kind), Message: msg}
}

// As returns the *Error in err, which is what a client is shown of it. Any
// other error is a bug: an ErrInternal with err as its cause.
func As(err error) *Error {
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	return fail(ErrInternal, "internal error", err)
}

func fail(kind Kind, msg string, cause error) *Error {
	return &Error{Kind: kind, Code: string(kind), Message: msg, Cause: cause}
}

func invalid(msg string) *Error { return Refuse(ErrInvalid, msg) }

// kindOfRefusal puts the rules' kinds of refusal into the service's.
var kindOfRefusal = map[rules.Kind]Kind{
	rules.Invalid:   ErrInvalid,
	rules.Forbidden: ErrForbidden,
	rules.Conflict:  ErrConflict,
}

// refused returns err as the service returns it: a refusal by the rules becomes
// an *Error with the rules' own code and message, and the refusal as its cause;
// anything else is returned as it is. It is the one place the rules' refusals
// are translated.
func refused(err error) error {
	var e *Error
	re, ok := rules.AsError(err)
	if !ok || errors.As(err, &e) {
		return err
	}
	kind, known := kindOfRefusal[re.Kind]
	if !known {
		return fail(ErrInternal, "internal error", err)
	}
	return &Error{Kind: kind, Code: re.Code, Message: re.Message, Cause: re}
}
