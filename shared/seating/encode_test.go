package seating

import (
	"errors"
	"reflect"
	"testing"
)

func TestEncodingRoundTrip(t *testing.T) {
	s := mustDraw(t, sportSitOut, Options{Seed: 1, Steps: 10_000})
	s, _ = s.Absent(4, 3)
	s, _, _ = s.Late(5)
	b, err := s.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	var got Schedule
	if err := got.UnmarshalBinary(b); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, s) {
		t.Errorf("decoded %+v, want %+v", got, s)
	}
}

// TestEncodingSize: an evening of 40 players at 4 tables over 10 rounds is 456 bytes,
// a small part of a DynamoDB item (400 KB at most).
func TestEncodingSize(t *testing.T) {
	b, err := mustDraw(t, sportEvening, Options{Seed: 1, Steps: 1000}).MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	// A version byte, five numbers, and for each round 4 sizes, 40 players and the
	// count of those who sit out.
	if want := 1 + 5 + 10*(4+40+1); len(b) != want {
		t.Errorf("%d bytes, want %d", len(b), want)
	}
}

func TestEncodingRefuses(t *testing.T) {
	s := mustDraw(t, sportSitOut, Options{Seed: 1, Steps: 1000})
	good, _ := s.MarshalBinary()
	bad := map[string][]byte{
		"empty":           nil,
		"unknown version": append([]byte{9}, good[1:]...),
		"cut short":       good[:len(good)-1],
		"trailing bytes":  append(good[:len(good):len(good)], 0),
		"too many rounds": {encodingVersion, 40, 10, 10, RoundLimit + 1, 4},
		"player twice":    twice(good),
	}
	for name, b := range bad {
		var got Schedule
		if err := got.UnmarshalBinary(b); !errors.Is(err, ErrInvalid) {
			t.Errorf("%s: %v", name, err)
		}
	}
	broken := s.clone()
	broken.Rounds[1].SitOut[0] = broken.Rounds[1].Tables[0][0]
	if _, err := broken.MarshalBinary(); !errors.Is(err, ErrInvalid) {
		t.Errorf("marshal a broken schedule: %v", err)
	}
}

// twice returns the encoding b with the first table's second seat given to its first
// seat's player.
func twice(b []byte) []byte {
	c := append([]byte(nil), b...)
	const firstSeat = 1 + 5 + 4 // version, header, four sizes
	c[firstSeat+1] = c[firstSeat]
	return c
}
