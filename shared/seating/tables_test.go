package seating

import (
	"errors"
	"slices"
	"testing"
)

func TestTableSizes(t *testing.T) {
	tests := []struct {
		players, tables, min, max int
		want                      []int
		err                       error
	}{
		{35, 4, 5, 20, []int{9, 9, 9, 8}, nil},
		{40, 4, 10, 10, []int{10, 10, 10, 10}, nil},
		{45, 4, 10, 10, []int{10, 10, 10, 10}, nil}, // five sit out each round
		{83, 4, 5, 20, []int{20, 20, 20, 20}, nil},  // three sit out
		{22, 2, 5, 20, []int{11, 11}, nil},
		{7, 1, 5, 20, []int{7}, nil},
		{20, 4, 5, 20, []int{5, 5, 5, 5}, nil},
		{39, 4, 10, 10, nil, ErrTooFewPlayers},
		{19, 4, 5, 20, nil, ErrTooFewPlayers},
		{40, 0, 10, 10, nil, ErrInvalid},
		{40, 4, 11, 10, nil, ErrInvalid},
		{40, 4, 0, 10, nil, ErrInvalid},
		{-1, 4, 5, 10, nil, ErrInvalid},
		{PlayerLimit + 1, 4, 5, 10, nil, ErrInvalid},
	}
	for _, tt := range tests {
		got, err := TableSizes(tt.players, tt.tables, tt.min, tt.max)
		if !errors.Is(err, tt.err) {
			t.Errorf("TableSizes(%d, %d, %d, %d): error %v, want %v", tt.players, tt.tables, tt.min, tt.max, err, tt.err)
			continue
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("TableSizes(%d, %d, %d, %d) = %v, want %v", tt.players, tt.tables, tt.min, tt.max, got, tt.want)
		}
	}
}

func TestTableSizesSaysWhy(t *testing.T) {
	_, err := TableSizes(30, 4, 10, 10)
	if err == nil || err.Error() != "seating: too few players: 30 players cannot fill 4 tables of at least 10" {
		t.Errorf("error %q", err)
	}
}
