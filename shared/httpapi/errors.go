package httpapi

import (
	"cmp"
	"errors"
	"net/http"
	"strings"
	"time"

	"citysleeps/shared/rules"
	"citysleeps/shared/service"
)

// Error classes. Each maps to one status in statusOf; the class is also the
// error code a client sees, except for the rules' refusals, which keep their
// own finer code (such as "wrong_phase") under the class's status.
const (
	CodeMalformed        = "malformed"              // the body is not the JSON this route takes
	CodeInvalid          = "invalid"                // well-formed, but a field is wrong
	CodeUnauthorized     = "unauthorized"           // no token, or one this game does not know
	CodeForbidden        = "forbidden"              // this player may not do that now
	CodeNotFound         = "not_found"              // no such game (or route)
	CodeMethodNotAllowed = "method_not_allowed"     // the route takes another method
	CodeConflict         = "conflict"               // not possible in this phase, or stale
	CodeTooLarge         = "too_large"              // the body is over MaxBody
	CodeUnsupportedType  = "unsupported_media_type" // a body that is not application/json
	CodeRateLimited      = "rate_limited"           // too many requests from this client
	CodeBusy             = "busy"                   // the game kept changing under us: retry
	CodeUnavailable      = "unavailable"            // the store cannot be reached: retry later
	CodeInternal         = "internal"               // a bug; details are in the server log only
)

// statusOf is the one table from error classes to HTTP statuses.
var statusOf = map[string]int{
	CodeMalformed:        http.StatusBadRequest,
	CodeInvalid:          http.StatusBadRequest,
	CodeUnauthorized:     http.StatusUnauthorized,
	CodeForbidden:        http.StatusForbidden,
	CodeNotFound:         http.StatusNotFound,
	CodeMethodNotAllowed: http.StatusMethodNotAllowed,
	CodeConflict:         http.StatusConflict,
	CodeTooLarge:         http.StatusRequestEntityTooLarge,
	CodeUnsupportedType:  http.StatusUnsupportedMediaType,
	CodeRateLimited:      http.StatusTooManyRequests,
	CodeBusy:             http.StatusServiceUnavailable,
	CodeUnavailable:      http.StatusServiceUnavailable,
	CodeInternal:         http.StatusInternalServerError,
}

// classOfKind puts the rules' kinds of refusal into classes.
var classOfKind = map[rules.Kind]string{
	rules.Invalid:   CodeInvalid,
	rules.Forbidden: CodeForbidden,
	rules.Conflict:  CodeConflict,
}

// apiError is an error as a client sees it.
type apiError struct {
	class   string // a key of statusOf
	code    string // what the client sees; the class unless the rules gave a finer one
	message string
	cause   error // logged for internal and unavailable errors, never sent
	// retryAfter, if set, is sent as Retry-After (rounded up to seconds).
	retryAfter time.Duration
}

func (e *apiError) Error() string { return e.code + ": " + e.message }

func (e *apiError) status() int { return statusOf[e.class] }

func newError(class, message string) *apiError {
	return &apiError{class: class, code: class, message: message}
}

// errorBody is the JSON of every error response.
type errorBody struct {
	Error struct {
		Code    string `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// toAPIError turns any error from decoding or from Games into what the client
// sees. Errors it does not know are internal.
func toAPIError(err error) *apiError {
	var ae *apiError
	if errors.As(err, &ae) {
		return ae
	}
	if re, ok := rules.AsError(err); ok {
		class, known := classOfKind[re.Kind]
		if !known {
			return &apiError{class: CodeInternal, code: CodeInternal, message: "internal error", cause: err}
		}
		code, msg := re.Code, re.Message
		if code == "" {
			code = class
		}
		if err != error(re) {
			// A refusal wrapped with details, such as which option is wrong.
			msg = strings.TrimPrefix(err.Error(), "rules: ")
		}
		return &apiError{class: class, code: code, message: msg}
	}
	// The service's messages are written for clients (service.Public); the
	// causes behind them are for the log.
	msg := service.Public(err)
	finer := func(class string) *apiError {
		return &apiError{class: class, code: cmp.Or(service.CodeOf(err), class), message: msg, retryAfter: service.RetryAfterOf(err)}
	}
	switch {
	case errors.Is(err, service.ErrNotFound):
		return newError(CodeNotFound, msg)
	case errors.Is(err, service.ErrUnauthorized):
		return newError(CodeUnauthorized, msg)
	case errors.Is(err, service.ErrInvalid):
		return finer(CodeInvalid)
	case errors.Is(err, service.ErrConflict):
		return finer(CodeConflict)
	case errors.Is(err, service.ErrLimited):
		return finer(CodeRateLimited)
	case errors.Is(err, service.ErrBusy):
		return &apiError{class: CodeBusy, code: CodeBusy, message: msg, cause: err}
	case errors.Is(err, service.ErrUnavailable):
		return &apiError{class: CodeUnavailable, code: CodeUnavailable, message: msg, cause: err}
	}
	return &apiError{class: CodeInternal, code: CodeInternal, message: "internal error", cause: err}
}

// TooManyRequests answers a client over a rate limit (the local server's,
// ratelimit.Wrap) with the API's own 429, to try again after wait.
func TooManyRequests(w http.ResponseWriter, wait time.Duration) {
	apiHeaders(w.Header())
	ae := newError(CodeRateLimited, "too many requests: slow down")
	ae.retryAfter = wait
	writeError(w, ae)
}
