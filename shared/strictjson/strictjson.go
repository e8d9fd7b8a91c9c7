// Package strictjson decodes what a client sends: exactly one JSON value, with
// no field the Go type does not have, at any depth. Its errors say what is
// wrong in a client's words (naming JSON's types, not Go's), so the HTTP layer
// (request bodies) and the service (a game's options) refuse bad JSON alike.
package strictjson

import (
	"bytes"
	"encoding"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"slices"
	"strings"
)

// Error is JSON that dst does not take. Message is written for the client.
type Error struct {
	Message string
	err     error // the decoder's own error, for errors.As
}

func (e *Error) Error() string { return e.Message }

func (e *Error) Unwrap() error { return e.err }

// Decode decodes data, which must hold exactly one JSON value, into dst, a
// pointer. A field that dst's type does not have, a value of the wrong type,
// malformed JSON, no value and anything after the value are refused with an
// *Error; dst may then be partly filled.
func Decode(data []byte, dst any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(dst); err != nil {
		return &Error{Message: problem(err, data, dst), err: err}
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return &Error{Message: "unexpected data after the JSON value", err: err}
	}
	return nil
}

// problem describes a failed Decode of data into dst.
func problem(err error, data []byte, dst any) string {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.Is(err, io.EOF):
		return "empty: send a JSON object"
	case errors.Is(err, io.ErrUnexpectedEOF):
		return "the JSON ends too soon"
	case errors.As(err, &syn):
		return fmt.Sprintf("not valid JSON (at byte %d)", syn.Offset)
	case errors.As(err, &typ):
		if typ.Field != "" {
			return fmt.Sprintf("field %q must be a JSON %s", typ.Field, kindOf(typ.Type))
		}
		return "must be a JSON " + kindOf(typ.Type)
	}
	// The decoder refuses an unknown field with an error of no type of its
	// own: the field is found by comparing the JSON with dst's type.
	if name, ok := unknownField(data, reflect.TypeOf(dst)); ok {
		return fmt.Sprintf("unknown field %q", name)
	}
	return "not the JSON expected here"
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

var (
	jsonUnmarshaler = reflect.TypeFor[json.Unmarshaler]()
	textUnmarshaler = reflect.TypeFor[encoding.TextUnmarshaler]()
)

// unknownField finds, in data, an object key that t has no field for, as the
// decoder matches them (exactly, or else without regard to case), and returns
// its path ("roles.dragon"). Values that decode themselves are not looked into.
func unknownField(data []byte, t reflect.Type) (string, bool) {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if reflect.PointerTo(t).Implements(jsonUnmarshaler) || reflect.PointerTo(t).Implements(textUnmarshaler) {
		return "", false
	}
	switch t.Kind() {
	case reflect.Struct:
		var obj map[string]json.RawMessage
		if json.Unmarshal(data, &obj) != nil {
			return "", false
		}
		fields := fieldsOf(t)
		keys := make([]string, 0, len(obj))
		for k := range obj {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			ft, ok := fields[k]
			if !ok {
				for name, f := range fields {
					if strings.EqualFold(name, k) {
						ft, ok = f, true
						break
					}
				}
			}
			if !ok {
				return k, true
			}
			if inner, found := unknownField(obj[k], ft); found {
				return k + "." + inner, true
			}
		}
	case reflect.Map:
		var obj map[string]json.RawMessage
		if json.Unmarshal(data, &obj) != nil {
			return "", false
		}
		for k, v := range obj {
			if inner, found := unknownField(v, t.Elem()); found {
				return k + "." + inner, true
			}
		}
	case reflect.Slice, reflect.Array:
		var items []json.RawMessage
		if json.Unmarshal(data, &items) != nil {
			return "", false
		}
		for _, v := range items {
			if inner, found := unknownField(v, t.Elem()); found {
				return inner, true
			}
		}
	}
	return "", false
}

// fieldsOf maps the JSON names of struct type t's fields, those of embedded
// structs included, to their types.
func fieldsOf(t reflect.Type) map[string]reflect.Type {
	fields := map[string]reflect.Type{}
	for f := range t.Fields() {
		tag := f.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, _, _ := strings.Cut(tag, ",")
		ft := f.Type
		for ft.Kind() == reflect.Pointer {
			ft = ft.Elem()
		}
		if f.Anonymous && name == "" && ft.Kind() == reflect.Struct {
			for k, v := range fieldsOf(ft) {
				if _, ok := fields[k]; !ok {
					fields[k] = v
				}
			}
			continue
		}
		if !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		fields[name] = f.Type
	}
	return fields
}
