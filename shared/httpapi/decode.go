package httpapi

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strings"
	"unicode"
	"unicode/utf8"

	"citysleeps/shared/rules"
	"citysleeps/shared/service"
)

// MaxBody is the largest request body the API reads, in bytes. The largest
// legitimate body, a "configure" action with every option, is under 2 KB.
const MaxBody = 16 << 10

// Limits on fields that the rules engine does not bound itself.
const (
	maxActionID = 64 // a client's action id: a UUID is 36
	maxPreset   = 32
	maxLang     = 35 // the longest BCP 47 tag worth keeping
	maxCode     = 16 // a room code; the service makes shorter ones
)

// readBody checks the content type, limits the body to MaxBody and decodes it
// strictly into dst. Every body must say it is application/json: a browser
// sends a cross-site form or a fetch without a preflight only as
// text/plain, application/x-www-form-urlencoded or multipart/form-data (or with
// no type), so no other site can make its visitors' browsers create, join or
// act here.
func readBody(w http.ResponseWriter, r *http.Request, dst any) error {
	mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if err != nil || mt != "application/json" {
		return newError(CodeUnsupportedType, "send the body as application/json, with Content-Type: application/json")
	}
	return decodeStrict(http.MaxBytesReader(w, r.Body, MaxBody), dst)
}

// decodeStrict decodes exactly one JSON value into dst: unknown fields, a
// missing body and anything after the value are refused.
func decodeStrict(rd io.Reader, dst any) error {
	dec := json.NewDecoder(rd)
	dec.DisallowUnknownFields()
	if err := dec.Decode(dst); err != nil {
		return decodeError(err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		if err != nil {
			if tooLarge(err) {
				return decodeError(err)
			}
		}
		return newError(CodeMalformed, "unexpected data after the JSON value")
	}
	return nil
}

func tooLarge(err error) bool {
	var mbe *http.MaxBytesError
	return errors.As(err, &mbe)
}

// decodeError explains a failed Decode to the client.
func decodeError(err error) *apiError {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case tooLarge(err):
		return newError(CodeTooLarge, fmt.Sprintf("the body is over %d bytes", MaxBody))
	case errors.Is(err, io.EOF):
		return newError(CodeMalformed, "the body is empty: send a JSON object")
	case errors.Is(err, io.ErrUnexpectedEOF):
		return newError(CodeMalformed, "the JSON body ends too soon")
	case errors.As(err, &syn):
		return newError(CodeMalformed, fmt.Sprintf("the body is not valid JSON (at byte %d)", syn.Offset))
	case errors.As(err, &typ):
		if typ.Field != "" {
			return newError(CodeMalformed, fmt.Sprintf("field %q must be a JSON %s", typ.Field, jsonKind(typ.Type.Kind().String())))
		}
		return newError(CodeMalformed, "the body must be a JSON object")
	case strings.HasPrefix(err.Error(), "json: unknown field "):
		return newError(CodeMalformed, "unknown field "+strings.TrimPrefix(err.Error(), "json: unknown field "))
	}
	return newError(CodeMalformed, "the body is not the JSON this route takes")
}

// jsonKind names a Go kind the way a JSON client thinks of it.
func jsonKind(goKind string) string {
	switch goKind {
	case "string":
		return "string"
	case "bool":
		return "boolean"
	case "int", "int64", "int32", "uint8", "float64":
		return "number"
	case "slice", "array":
		return "array"
	}
	return "object"
}

// decodeCreate reads a create request and checks what HTTP can check.
func decodeCreate(rd io.Reader) (service.CreateRequest, error) {
	var req service.CreateRequest
	if err := decodeStrict(rd, &req); err != nil {
		return req, err
	}
	return checkCreate(req)
}

// checkCreate trims and checks a decoded create request.
func checkCreate(req service.CreateRequest) (service.CreateRequest, error) {
	req.Preset = strings.TrimSpace(req.Preset)
	switch {
	case req.Preset == "":
		return req, newError(CodeInvalid, "preset is required: one of "+strings.Join(rules.Presets, ", "))
	case len(req.Preset) > maxPreset:
		return req, newError(CodeInvalid, "unknown preset")
	case len(req.Lang) > maxLang || !printable(req.Lang):
		return req, newError(CodeInvalid, "lang must be a short language tag such as en or ru")
	case req.Moderator != "" && req.Moderator != rules.ModeratorApp && req.Moderator != rules.ModeratorHost:
		return req, newError(CodeInvalid, `moderator must be "app" or "host"`)
	}
	if len(req.Options) > 0 && string(req.Options) == "null" {
		req.Options = nil
	}
	return req, nil
}

// decodeJoin reads a join request. The name is the service's to check
// (service.Join): only the JSON is checked here.
func decodeJoin(rd io.Reader) (service.JoinRequest, error) {
	var req service.JoinRequest
	err := decodeStrict(rd, &req)
	return req, err
}

// printable reports whether s is valid UTF-8 without control characters.
func printable(s string) bool {
	for _, r := range s {
		if unicode.IsControl(r) || r == utf8.RuneError {
			return false
		}
	}
	return true
}

// decodeAction reads one action.
func decodeAction(rd io.Reader) (rules.Action, error) {
	var a rules.Action
	if err := decodeStrict(rd, &a); err != nil {
		return a, err
	}
	return checkAction(a)
}

// checkAction checks a decoded action's id and type; the rules check the rest.
func checkAction(a rules.Action) (rules.Action, error) {
	switch {
	case len(a.ID) > maxActionID || !printable(a.ID):
		return a, newError(CodeInvalid, fmt.Sprintf("id is at most %d printable characters", maxActionID))
	case a.Type == "":
		return a, newError(CodeInvalid, "type is required")
	}
	return a, nil
}

// validCode reports whether code could be a room code at all; anything else is
// "no such game" without asking the store.
func validCode(code string) bool {
	if code == "" || len(code) > maxCode {
		return false
	}
	for _, c := range code {
		if !('A' <= c && c <= 'Z' || 'a' <= c && c <= 'z' || '0' <= c && c <= '9') {
			return false
		}
	}
	return true
}

// bearer returns the token of an "Authorization: Bearer <token>" header, or ""
// when there is none. A header of another form is refused.
func bearer(r *http.Request) (string, error) {
	h := r.Header.Get("Authorization")
	if h == "" {
		return "", nil
	}
	scheme, token, ok := strings.Cut(h, " ")
	token = strings.TrimSpace(token)
	if !ok || !strings.EqualFold(scheme, "Bearer") || token == "" || len(token) > 256 {
		return "", newError(CodeUnauthorized, `send the token as "Authorization: Bearer <token>"`)
	}
	return token, nil
}
