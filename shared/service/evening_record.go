package service

import (
	"context"
	"time"

	"citysleeps/shared/evening"
)

// EveningRecord returns the evening's record for a club's files
// (evening.RecordOf: its roster, rounds, every recorded game's result for
// each player, and its standings). It is anyone's, as the evening's public
// view is: a token is optional, and checked if given, but changes nothing in
// the record. Like ReadEvening it never writes, and counts the games found
// over as the view does, so the record and a view read at the same moment
// agree.
func (s *Service) EveningRecord(ctx context.Context, code, token string) (evening.RecordSheet, error) {
	var rec evening.RecordSheet
	_, err := s.readEvening(ctx, code, token, func(it *eveningItem, _ evening.Viewer, _ time.Time) (err error) {
		if rec, err = evening.RecordOf(it.State); err != nil {
			return fail(ErrInternal, "the evening could not be read", err)
		}
		return nil
	})
	if err != nil {
		return evening.RecordSheet{}, err
	}
	return rec, nil
}
