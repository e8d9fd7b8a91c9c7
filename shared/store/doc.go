// Package store keeps City Sleeps games: opaque state bytes, one item per room
// code, under optimistic versioning. It knows nothing of the game's rules; the
// caller compresses the state and decides what it means.
//
// Every Store behaves the same (the storetest package checks it):
//
//   - Create stores a game at version 1, or fails with ErrExists while an
//     unexpired game holds the code. (Pick a new code and retry.)
//   - Get returns the game or ErrNotFound; it never returns a zero Item and a
//     nil error. A game past its ExpiresAt is missing, whether or not the
//     backend has deleted it yet.
//   - Update writes only if the stored version is still the one the caller
//     read, and returns the next version; otherwise ErrConflict (reload, apply
//     the action again, retry) or ErrNotFound.
//   - An item bigger than MaxItemSize (DynamoDB's 400 KB, counted as ItemSize
//     counts it) is refused with ErrTooLarge, by every store.
//   - Expiry times are kept in whole epoch seconds, rounded up.
//
// The stores:
//
//   - Dynamo: DynamoDB through aws-sdk-go-v2, with conditional PutItems; in
//     production, and in tests against dynalite (see infra/harness/localdynamo).
//   - Bolt: one bbolt file on disk, fsynced on every write, for running locally.
//   - Memory: a map, for tests of the packages above this one.
//
// The request path of a service is load, apply, save:
//
//	for attempt := 0; attempt < 5; attempt++ {
//		it, err := st.Get(ctx, code, true) // strongly consistent: it precedes a write
//		if err != nil {
//			return err // errors.Is(err, store.ErrNotFound): no such game
//		}
//		next, err := apply(it.State)
//		if err != nil {
//			return err
//		}
//		_, err = st.Update(ctx, code, it.Version, next, time.Now().Add(48*time.Hour))
//		if !errors.Is(err, store.ErrConflict) {
//			return err
//		}
//		// another request wrote first: back off with jitter and go again
//	}
//	// still conflicting: tell the client to try again
//
// Errors are wrapped with %w and name the operation and room code; test them
// with errors.Is against the Err variables.
package store
