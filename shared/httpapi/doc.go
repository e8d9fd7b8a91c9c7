// Package httpapi is the HTTP face of the game: one http.Handler for the routes of
// DESIGN.md ("HTTP API"), used as it is by the local server (infra/server) and, through
// aws-lambda-go-api-proxy, by every Lambda function (functions/).
//
// It does what belongs to HTTP and nothing else: routing, bearer tokens, strict
// JSON decoding with a body limit, the one table from kinds of error
// (service.Kind) to statuses, ETags and 304s, the pollAfterMs hint, gzip, the
// padding that sends every player's view of a revision at one length (pad.go),
// the join link and its QR code, security headers. What a request holds is checked by
// the service alone: games are created, joined, read and changed by a Games
// (the service package's *Service), and every error, the HTTP layer's own
// included, is a *service.Error.
//
// Wiring it up:
//
//	svc := service.New(store.NewMemory())
//	api := httpapi.New(httpapi.Config{Games: svc, PublicURL: "http://192.168.1.5:8080"})
//	mux := http.NewServeMux()
//	mux.Handle("/api/", ratelimit.Wrap(api, ratelimit.Default, httpapi.TooManyRequests))
//	mux.Handle("/", site.Handler(os.DirFS("frontend")))
//
// A Lambda function serves only its own routes, and builds its store on the
// first request so that its init stays short (functions/internal/lambdamain):
//
//	api := httpapi.New(httpapi.Config{Games: lazyGames, Function: httpapi.FuncRead})
//
// docs/API.md describes the API for client and bot writers.
package httpapi
