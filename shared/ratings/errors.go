package ratings

import (
	"errors"
	"fmt"
)

// Unsupported is the answer for a game the ratings format cannot tell: one
// not over, or told only in part, or not the format's game (ten players: six
// citizens, the Sheriff, two mafia and the Don), or one in which something
// happened that the format has no words for (the Sheriff's shot, a player
// named in the Commissar's testament). Reason says which, in plain words; the
// HTTP layer answers it as 422.
type Unsupported struct {
	Reason string
}

func (e *Unsupported) Error() string { return "mafiaratings cannot tell this game: " + e.Reason }

// unsupportedf is an Unsupported with a formatted reason.
func unsupportedf(format string, args ...any) *Unsupported {
	return &Unsupported{Reason: fmt.Sprintf(format, args...)}
}

// AsUnsupported returns the Unsupported inside err, if there is one.
func AsUnsupported(err error) (*Unsupported, bool) {
	var u *Unsupported
	ok := errors.As(err, &u)
	return u, ok
}
