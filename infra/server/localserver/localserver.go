// Package localserver is the http.Server of the game on one machine: the
// local server (make run) and the load tool run the handlers on it. No Lambda
// function does: API Gateway holds the connections there.
package localserver

import (
	"log/slog"
	"net/http"
	"time"
)

// New returns the http.Server the local server (infra/server) runs h on,
// and the load tool with it. Its timeouts bound what a slow or idle client
// holds: headers in 5 s, a body in 15, an answer in 30; idle keep-alive
// connections (a phone between polls) are kept for 2 minutes. Lambda needs none
// of this: API Gateway holds the connections.
func New(h http.Handler, logger *slog.Logger) *http.Server {
	return &http.Server{
		Handler:           h,
		ReadHeaderTimeout: 5 * time.Second,
		ReadTimeout:       15 * time.Second,
		WriteTimeout:      30 * time.Second,
		IdleTimeout:       2 * time.Minute,
		ErrorLog:          slog.NewLogLogger(logger.Handler(), slog.LevelWarn),
	}
}
