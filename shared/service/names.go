package service

import (
	"errors"
	"fmt"

	"citysleeps/shared/names"
	"citysleeps/shared/rules"
)

// cleanName is names.Clean with its refusal as the API's error: 400 with the
// name's own code (docs/API.md). A name is checked there and nowhere else: the
// HTTP layer only decodes it, and the rules engine only refuses a name that is
// exactly one already seated.
func cleanName(name string) (string, error) {
	clean, err := names.Clean(name)
	var r *names.Refusal
	if errors.As(err, &r) {
		return "", &Error{Kind: ErrInvalid, Code: r.Code, Message: r.Message}
	}
	return clean, err
}

// lookalikeError refuses a name that would be taken for one at the table
// (names.LookalikeOf), and is nil for any other: a 409 like a name already
// taken, since another name, or the same one once that player has left, is
// fine.
func lookalikeError(name string, table []rules.Player) error {
	seated := make([]string, len(table))
	for i, p := range table {
		seated[i] = p.Name
	}
	other, ok := names.LookalikeOf(name, seated)
	if !ok {
		return nil
	}
	return &Error{Kind: ErrConflict, Code: names.CodeLookalike,
		Message: fmt.Sprintf("%q looks too much like %q, who is at the table: pick another name", name, other)}
}
