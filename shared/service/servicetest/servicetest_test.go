package servicetest_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"citysleeps/shared/service/servicetest"
	"citysleeps/shared/store"
)

func TestFaulty(t *testing.T) {
	ctx := context.Background()
	exp := time.Now().Add(time.Hour)
	mem := store.NewMemory()
	if err := mem.Create(ctx, "ABCDEF", []byte("v1"), exp); err != nil {
		t.Fatal(err)
	}

	before := servicetest.NewFaulty(mem, 1, servicetest.Faults{Before: 1})
	if _, err := before.Get(ctx, "ABCDEF", true); !errors.Is(err, servicetest.ErrInjected) {
		t.Errorf("Before=1: Get err = %v", err)
	}
	if _, err := before.Update(ctx, "ABCDEF", 1, []byte("x"), exp); !errors.Is(err, servicetest.ErrInjected) {
		t.Errorf("Before=1: Update err = %v", err)
	}
	conflict := servicetest.NewFaulty(mem, 1, servicetest.Faults{Conflict: 1})
	if _, err := conflict.Get(ctx, "ABCDEF", true); err != nil {
		t.Errorf("Conflict=1: Get err = %v; only updates conflict", err)
	}
	if _, err := conflict.Update(ctx, "ABCDEF", 1, []byte("x"), exp); !errors.Is(err, store.ErrConflict) {
		t.Errorf("Conflict=1: Update err = %v", err)
	}
	if it, _ := mem.Get(ctx, "ABCDEF", true); it.Version != 1 {
		t.Errorf("failed-before and conflicting updates were written: version %d", it.Version)
	}
	after := servicetest.NewFaulty(mem, 1, servicetest.Faults{After: 1})
	if _, err := after.Update(ctx, "ABCDEF", 1, []byte("v2"), exp); !errors.Is(err, servicetest.ErrInjected) {
		t.Errorf("After=1: Update err = %v", err)
	}
	if it, _ := mem.Get(ctx, "ABCDEF", true); it.Version != 2 || string(it.State) != "v2" {
		t.Errorf("After=1: the update was not written: version %d", it.Version)
	}
	if c := after.Counts(); c != (servicetest.FaultCounts{Calls: 1, After: 1}) {
		t.Errorf("counts = %+v", c)
	}

	// The same seed makes the same faults.
	run := func() []bool {
		f := servicetest.NewFaulty(mem, 42, servicetest.Faults{Before: 0.5})
		var out []bool
		for range 64 {
			_, err := f.Get(ctx, "ABCDEF", false)
			out = append(out, err != nil)
		}
		return out
	}
	a, b := run(), run()
	for i := range a {
		if a[i] != b[i] {
			t.Fatalf("seed 42 gave different faults at call %d", i)
		}
	}
}
