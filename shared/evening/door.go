package evening

import "citysleeps/shared/rules"

// The door of the evening: who may put a new name on the roster. A club types
// its regulars in; until the first round the door is open, and a phone may
// join under a name no one typed (a guest at the door, with the evening's
// QR code). The first round's draw closes it, since from then on every new
// name changes the seating of the rounds to come and pushes regulars out to
// sit out: a newcomer then asks the organiser, who adds them (Late). The
// organiser may close the door before the draw, or open it again after it
// (CloseRoster, OpenRoster). A closed door keeps every name on the roster
// takeable by a phone, and the organiser's own additions; it refuses only
// the phones' new names (ErrRosterClosed).

// MaxNames bounds the roster's names, the absent ones too, so that the
// stored evening keeps its size: MaxRoster bounds those present, and a name
// marked absent does not hold a place of it.
const MaxNames = 2 * MaxRoster

// The door's refusals.
var (
	ErrRosterClosed = refuse(rules.Conflict, "roster_closed", "the organiser has closed the roster: ask the organiser to add your name")
	ErrRosterOpen   = refuse(rules.Conflict, "roster_open", "the roster is open already")
	ErrRosterShut   = refuse(rules.Conflict, "roster_shut", "the roster is closed already")
)

// CloseRoster closes the door to the phones' new names (the first round's
// draw does it too); closed already, it refuses (ErrRosterShut).
func CloseRoster(s State) (State, error) {
	if s.Closed {
		return s, ErrRosterShut
	}
	n := s.clone()
	n.Closed = true
	return n, nil
}

// OpenRoster opens the door again, for a late guest the organiser lets scan
// the code; open already, it refuses (ErrRosterOpen). Every round left is
// then open to a new name's seat, as the organiser's Late adds one.
func OpenRoster(s State) (State, error) {
	if !s.Closed {
		return s, ErrRosterOpen
	}
	n := s.clone()
	n.Closed = false
	return n, nil
}

// roomFor refuses a new name when the roster is full: MaxRoster present, or
// MaxNames in all.
func (s State) roomFor() error {
	switch {
	case len(s.Present()) >= MaxRoster:
		return refusef(ErrRosterFull, "at most %d players on a roster", MaxRoster)
	case len(s.Players) >= MaxNames:
		return refusef(ErrRosterFull, "at most %d names on a roster, those who left included", MaxNames)
	}
	return nil
}
