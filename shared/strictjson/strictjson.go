// Package strictjson decodes what a client sends: exactly one JSON value, with
// no field the Go type does not have, at any depth, every key spelled exactly
// as the type names it (not in another case) and given once. Its errors say
// what is wrong in a client's words (naming JSON's types, not Go's), so the
// HTTP layer (request bodies) and the service (a game's options) refuse bad
// JSON alike.
//
// It decodes with github.com/go-json-experiment/json, the proposal that
// became encoding/json/v2 (still behind GOEXPERIMENT=jsonv2 in Go 1.26):
// its keys match exactly and a key twice is an error, where encoding/json
// takes "TyPe" for "type" and the last of two.
package strictjson

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// Error is JSON that dst does not take. Message is written for the client.
type Error struct {
	Message string
	err     error // the decoder's own error, for errors.As
}

func (e *Error) Error() string { return e.Message }

func (e *Error) Unwrap() error { return e.err }

// Decode decodes data, which must hold exactly one JSON value, into dst, a
// pointer. A field that dst's type does not have, a key in another case or
// given twice, a value of the wrong type, malformed JSON, no value and
// anything after the value are refused with an *Error; dst may then be
// partly filled.
func Decode(data []byte, dst any) error {
	if len(bytes.TrimSpace(data)) == 0 {
		return &Error{Message: "empty: send a JSON object", err: io.EOF}
	}
	dec := jsontext.NewDecoder(bytes.NewReader(data))
	if err := json.UnmarshalDecode(dec, dst, json.RejectUnknownMembers(true)); err != nil {
		return &Error{Message: problem(err), err: err}
	}
	if _, err := dec.ReadToken(); !errors.Is(err, io.EOF) {
		return &Error{Message: "unexpected data after the JSON value", err: err}
	}
	return nil
}

// problem describes a failed decode.
func problem(err error) string {
	var syn *jsontext.SyntacticError
	var sem *json.SemanticError
	switch {
	case errors.Is(err, io.ErrUnexpectedEOF):
		return "the JSON ends too soon"
	case errors.Is(err, jsontext.ErrDuplicateName) && errors.As(err, &syn):
		return fmt.Sprintf("field %q is given twice", path(syn.JSONPointer))
	case errors.As(err, &syn):
		return fmt.Sprintf("not valid JSON (at byte %d)", syn.ByteOffset)
	case errors.Is(err, json.ErrUnknownName) && errors.As(err, &sem):
		return fmt.Sprintf("unknown field %q", path(sem.JSONPointer))
	case errors.As(err, &sem) && sem.GoType != nil:
		if p := path(sem.JSONPointer); p != "" {
			return fmt.Sprintf("field %q must be a JSON %s", p, kindOf(sem.GoType))
		}
		return "must be a JSON " + kindOf(sem.GoType)
	}
	return "not the JSON expected here"
}

// path writes a JSON pointer ("/roles/dragon", "/seats/1/don") as a client
// names the field: "roles.dragon", "seats.don" (a place in an array is left
// out, as the field's name is what is wrong).
func path(p jsontext.Pointer) string {
	var names []string
	for name := range p.Tokens() {
		if name != "" && strings.Trim(name, "0123456789") == "" {
			continue
		}
		names = append(names, name)
	}
	return strings.Join(names, ".")
}

// kindOf names a Go type the way a JSON client thinks of it.
func kindOf(t reflect.Type) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.String:
		return "string"
	case reflect.Bool:
		return "boolean"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64,
		reflect.Float32, reflect.Float64:
		return "number"
	case reflect.Slice, reflect.Array:
		return "array"
	}
	return "object"
}
