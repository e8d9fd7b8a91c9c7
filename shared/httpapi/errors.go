package httpapi

import (
	"log/slog"
	"math"
	"net/http"
	"strconv"
	"time"

	"citysleeps/shared/service"
)

// The codes of the kinds of error (service.Kind), as a client sees them; the
// rules' refusals and some of the service's have finer codes of their own
// (docs/API.md, "Errors").
const (
	CodeMalformed        = string(service.ErrMalformed)
	CodeInvalid          = string(service.ErrInvalid)
	CodeUnauthorized     = string(service.ErrUnauthorized)
	CodeForbidden        = string(service.ErrForbidden)
	CodeNotFound         = string(service.ErrNotFound)
	CodeMethodNotAllowed = string(service.ErrMethodNotAllowed)
	CodeConflict         = string(service.ErrConflict)
	CodeTooLarge         = string(service.ErrTooLarge)
	CodeUnprocessable    = string(service.ErrUnprocessable)
	CodeUnsupportedType  = string(service.ErrUnsupportedType)
	CodeRateLimited      = string(service.ErrLimited)
	CodeBusy             = string(service.ErrBusy)
	CodeUnavailable      = string(service.ErrUnavailable)
	CodeInternal         = string(service.ErrInternal)
)

// statusOf is the one table from kinds of error to HTTP statuses.
var statusOf = map[service.Kind]int{
	service.ErrMalformed:        http.StatusBadRequest,
	service.ErrInvalid:          http.StatusBadRequest,
	service.ErrUnauthorized:     http.StatusUnauthorized,
	service.ErrForbidden:        http.StatusForbidden,
	service.ErrNotFound:         http.StatusNotFound,
	service.ErrMethodNotAllowed: http.StatusMethodNotAllowed,
	service.ErrConflict:         http.StatusConflict,
	service.ErrTooLarge:         http.StatusRequestEntityTooLarge,
	service.ErrUnprocessable:    http.StatusUnprocessableEntity,
	service.ErrUnsupportedType:  http.StatusUnsupportedMediaType,
	service.ErrLimited:          http.StatusTooManyRequests,
	service.ErrBusy:             http.StatusServiceUnavailable,
	service.ErrUnavailable:      http.StatusServiceUnavailable,
	service.ErrInternal:         http.StatusInternalServerError,
}

// statusOfError is the status of an error; a kind missing from the table is a
// bug, and a 500.
func statusOfError(e *service.Error) int {
	if s, ok := statusOf[e.Kind]; ok {
		return s
	}
	return http.StatusInternalServerError
}

// errorBody is the JSON of every error response.
type errorBody struct {
	Error struct {
		Code    string `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// fail writes err as the error response, logging the cause of a failure (5xx),
// which the client is not shown.
func (h *handler) fail(w http.ResponseWriter, r *http.Request, err error) {
	e := service.As(err)
	status := statusOfError(e)
	if status >= 500 {
		level := slog.LevelWarn
		if status == http.StatusInternalServerError {
			level = slog.LevelError
			// A bug: nothing of it is for the client.
			e = service.Refuse(service.ErrInternal, "internal error")
		}
		h.log.Log(r.Context(), level, "request failed", "method", r.Method, "route", r.Pattern,
			"code", e.Code, "err", err.Error())
	}
	if sw, ok := w.(*statusWriter); ok {
		sw.code = e.Code
	}
	writeError(w, status, e)
}

// writeError writes the one JSON body of every error, with Retry-After when
// the client should try again.
func writeError(w http.ResponseWriter, status int, e *service.Error) {
	switch {
	case e.RetryAfter > 0:
		w.Header().Set("Retry-After", strconv.Itoa(int(math.Ceil(e.RetryAfter.Seconds()))))
	case status == http.StatusServiceUnavailable:
		// A busy game or a store hiccup passes quickly; the action id (or join
		// id) makes the retry safe.
		w.Header().Set("Retry-After", "1")
	}
	var body errorBody
	body.Error.Code, body.Error.Message = e.Code, e.Message
	writeJSON(w, status, body)
}

// TooManyRequests answers a client over a rate limit (the local server's,
// ratelimit.Wrap) with the API's own 429, to try again after wait.
func TooManyRequests(w http.ResponseWriter, wait time.Duration) {
	apiHeaders(w.Header())
	e := service.Refuse(service.ErrLimited, "too many requests: slow down")
	e.RetryAfter = wait
	writeError(w, statusOfError(e), e)
}
