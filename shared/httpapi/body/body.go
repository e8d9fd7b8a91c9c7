// Package body holds the JSON bodies of the HTTP API as a client reads them,
// once for every Go client of the API: the tests' client (httpapi/apitest) and
// the load generator. It imports no testing code, so a command may link it.
package body

import "citysleeps/shared/rules"

// View is a game view as the API sends it: rules.View and the poll hint.
type View struct {
	rules.View
	PollAfterMs int64 `json:"pollAfterMs"`
	// JoinURL is the join link, in the lobby of a view with no seat.
	JoinURL string `json:"joinUrl,omitempty"`
}

// Created is the body of a 201 from POST /api/games.
type Created struct {
	Code      string `json:"code"`
	HostToken string `json:"hostToken"`
	JoinURL   string `json:"joinUrl"`
	Game      View   `json:"game"`
}

// Next is the body of a 201 from POST /api/games/{code}/next.
type Next struct {
	Code    string `json:"code"`
	JoinURL string `json:"joinUrl"`
	Game    View   `json:"game"`
}

// Joined is the body of a 201 from POST /api/games/{code}/players.
type Joined struct {
	PlayerID string `json:"playerId"`
	Token    string `json:"token"`
	Game     View   `json:"game"`
}

// Error is the body of every error answer.
type Error struct {
	Error struct {
		Code    string `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}
