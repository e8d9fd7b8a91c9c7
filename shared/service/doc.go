// Package service runs games of City Sleeps on a store.Store, one stateless request
// at a time: load the game, apply one action through the rules engine, and write it
// back only if its version is still the one read (DESIGN.md, "State, storage,
// concurrency"). Nothing is kept between requests, so any number of Lambda
// instances, or the local server, can serve the same games.
//
// What it adds to the rules engine:
//   - room codes, and secret tokens for the host and each player, of which only
//     hashes are stored; a token picks the viewer, so nobody sees more than their
//     seat may;
//   - retries: on a version conflict the action is applied again to the fresh
//     game, a bounded number of times with jittered backoff, so ten phones voting
//     at once all count; every try and pause of a request fits one budget
//     (DefaultBudget, or less before the context's deadline), so a failing or
//     throttled store gets the client a clear ErrUnavailable in time;
//   - idempotency: each action carries a client id, and an id already applied for
//     the same actor changes nothing, so a client may resend after a timeout; a
//     join may carry one too, and then the same join gets the same seat;
//   - names: one place that checks them (cleanName, with the names package),
//     and refuses one that looks like a name at the table;
//   - seats moved to another device: the host's reseat opens a one-time link
//     whose key, like a token, is stored only as a hash, and a join with the
//     key takes the seat with a new token, in any phase (move.go);
//   - limits: a game gives a few dozen seats at once and then one every few
//     seconds, and its stored form stays within one DynamoDB read unit however
//     long it runs (pack condenses the story);
//   - timers without servers: a poll that finds a deadline passed saves the
//     transition it brings, under the same version check;
//   - what padding needs: ReadTable and ActTable answer a player with every
//     seat's view of the revision too, and a noise no client can work out,
//     from which the HTTP layer sends every player's answer at one length.
//   - evenings (evening.go): a club's night of many tables and rounds, its
//     own item beside the games (key "evening/" + its code) with the same
//     versioning, whose rounds' games it makes through the same code, and
//     whose finished games it counts into the standings once each, on the
//     first write that finds them over (reconcile).
//
// Use:
//
//	svc := service.New(st) // st: store.NewDynamoFromEnv, store.OpenBolt, store.NewMemory
//	c, err := svc.Create(ctx, service.CreateRequest{Preset: "sport", Lang: "ru"})
//	j, err := svc.Join(ctx, c.Code, service.JoinRequest{Name: "Аня", JoinID: id, Device: dev})
//	v, err := svc.Act(ctx, c.Code, c.HostToken, rules.Action{ID: "a1", Type: rules.ActStart})
//	v, err = svc.Read(ctx, c.Code, j.Token) // Аня's view; "" for the shared screen
//
// The service is the one place a request is checked (the HTTP layer only
// decodes it), and every error it returns is an *Error of a Kind (ErrInvalid,
// ErrUnauthorized, ErrNotFound, ErrConflict, ErrBusy, ErrUnavailable, …; see
// errors.go for the status each maps to) with a code and a message safe for
// clients; a refusal by the rules becomes one with the rules' own code.
//
// The package servicetest plays games through a Service with bots and injects
// store faults, for tests here and in other packages.
package service
