package schemadoc

import (
	"reflect"
	"testing"
)

type inner struct {
	Told   string `json:"told"`
	Untold int    `json:"untold,omitempty"`
}

type outer struct {
	inner
	Items  []*inner `json:"items"`
	Skip   string   `json:"-"`
	hidden string
}

// TestUntold: a field the document does not name is found, in an embedded
// struct and behind a slice of pointers alike, once per type; a field JSON
// leaves out, or an unexported one, is not asked for.
func TestUntold(t *testing.T) {
	got := Untold("`told` and `items`", reflect.TypeFor[outer]())
	if len(got) != 1 || got[0] != (Field{Type: "inner", Go: "Untold", JSON: "untold"}) {
		t.Errorf("untold: %+v", got)
	}
	if got := Untold("`told` `untold` `items`", reflect.TypeFor[outer]()); len(got) != 0 {
		t.Errorf("a whole document: %+v", got)
	}
	_ = outer{hidden: ""}.hidden
}
