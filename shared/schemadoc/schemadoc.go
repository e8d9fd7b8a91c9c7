// Package schemadoc holds the documents that tell a JSON schema (the
// protocol's, the evening's record) to the code they tell: a test walks the
// schema's Go types and finds every field its document does not name.
package schemadoc

import (
	"reflect"
	"slices"
	"strings"
)

// Field is one field of a schema's type, by its Go names and its JSON name.
type Field struct {
	Type, Go, JSON string
}

// Untold walks root and every struct type it holds (through pointers,
// slices and embedded structs) that is declared in one of pkgs (root's own
// package when none are given), and returns each exported JSON field whose
// name the document doc does not write as `name`.
func Untold(doc string, root reflect.Type, pkgs ...string) []Field {
	if len(pkgs) == 0 {
		pkgs = []string{root.PkgPath()}
	}
	var out []Field
	seen := map[reflect.Type]bool{}
	var walk func(reflect.Type)
	walk = func(ty reflect.Type) {
		for ty.Kind() == reflect.Pointer || ty.Kind() == reflect.Slice {
			ty = ty.Elem()
		}
		if ty.Kind() != reflect.Struct || !slices.Contains(pkgs, ty.PkgPath()) || seen[ty] {
			return
		}
		seen[ty] = true
		for i := range ty.NumField() {
			f := ty.Field(i)
			if f.Anonymous {
				walk(f.Type)
				continue
			}
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			if name == "-" || !f.IsExported() {
				continue
			}
			if !strings.Contains(doc, "`"+name+"`") {
				out = append(out, Field{Type: ty.Name(), Go: f.Name, JSON: name})
			}
			walk(f.Type)
		}
	}
	walk(root)
	return out
}
