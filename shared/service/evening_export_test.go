package service_test

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"citysleeps/shared/evening"
	"citysleeps/shared/rules"
	"citysleeps/shared/service"
	"citysleeps/shared/service/servicetest"
	"citysleeps/shared/store"
)

// TestEveningExport: an evening of sport tables played to the end exports
// every game, in round and table order, each exactly as the game's own
// export; a game in play is listed as skipped; and the export still gives
// every game once the games have expired (a clock past their 48 hours),
// from what the evening kept when it recorded them.
func TestEveningExport(t *testing.T) {
	ctx := context.Background()
	var mu sync.Mutex
	now := time.Date(2030, 1, 2, 19, 0, 0, 0, time.UTC)
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	st := store.NewMemory()
	st.SetNow(clock)
	svc := service.New(st, service.WithLogger(quiet), service.WithClock(clock))
	c := mustEvening(t, svc, service.EveningRequest{Preset: rules.PresetSport, Moderator: rules.ModeratorHost,
		Tables: 2, Rounds: 2, Players: roster(20)})
	org := c.OrganizerToken

	v := mustActEvening(t, svc, c.Code, org, service.ActStartRound)
	if _, err := svc.EveningMafiaRatings(ctx, c.Code, ""); service.As(err).Code != service.CodeGameNotOver || !errors.Is(err, service.ErrConflict) {
		t.Fatalf("export before any game is over: %v, want 409 game_not_over", err)
	}
	first := v.Rounds[0].Tables
	if err := servicetest.EndByRemovals(svc, first[0].Game, servicetest.Referee(v, first[0].Table)); err != nil {
		t.Fatal(err)
	}
	x, err := svc.EveningMafiaRatings(ctx, c.Code, "")
	if err != nil || len(x.Games) != 1 || len(x.Skipped) != 1 || x.Skipped[0].Code != service.CodeGameNotOver ||
		x.Skipped[0].Game != first[1].Game || x.Games[0].Game != first[0].Game {
		t.Fatalf("export with table 2 in play: %+v, %v", x, err)
	}
	if _, err := svc.EveningMafiaRatings(ctx, c.Code, "forged-token-0123456789abcdef"); !errors.Is(err, service.ErrUnauthorized) {
		t.Fatalf("a forged token: %v, want 401", err)
	}

	if err := servicetest.EndByRemovals(svc, first[1].Game, servicetest.Referee(v, first[1].Table)); err != nil {
		t.Fatal(err)
	}
	v = mustActEvening(t, svc, c.Code, org, service.ActStartRound)
	endRound(t, svc, v)
	mustActEvening(t, svc, c.Code, org, service.ActRecord)

	want := exportedByGame(t, svc, v)
	check := func(when string) {
		t.Helper()
		x, err := svc.EveningMafiaRatings(ctx, c.Code, org)
		if err != nil {
			t.Fatalf("%s: %v", when, err)
		}
		if x.Evening != c.Code || len(x.Games) != 4 || len(x.Skipped) != 0 {
			t.Fatalf("%s: %d games, skipped %+v", when, len(x.Games), x.Skipped)
		}
		for i, g := range x.Games {
			w := want[i]
			if g.EveningGame != w.EveningGame || !reflect.DeepEqual(g.MafiaRatings, w.MafiaRatings) {
				t.Errorf("%s: game %d is %+v, want %+v as the game's own export", when, i+1, g.EveningGame, w.EveningGame)
			}
		}
	}
	check("after the evening")

	mu.Lock()
	now = now.Add(49 * time.Hour)
	mu.Unlock()
	if _, err := svc.MafiaRatings(ctx, want[0].Game, ""); !errors.Is(err, service.ErrNotFound) {
		t.Fatalf("a game 49 hours on: %v, want it expired", err)
	}
	check("after the games expired")
}

// exportedByGame is every game of the evening v as the game's own export
// gives it, in round and table order.
func exportedByGame(t *testing.T, svc *service.Service, v evening.View) []service.ExportedGame {
	t.Helper()
	var out []service.ExportedGame
	for r, round := range v.Rounds {
		for i, table := range round.Tables {
			g, err := svc.MafiaRatings(context.Background(), table.Game, "")
			if err != nil {
				t.Fatalf("export of %s: %v", table.Game, err)
			}
			out = append(out, service.ExportedGame{EveningGame: service.EveningGame{Game: table.Game,
				Round: r + 1, Table: i + 1, Number: len(out) + 1}, MafiaRatings: g})
		}
	}
	return out
}

// TestEveningExportNotExportable: an evening of classic tables, a deal
// mafiaratings has no word for, answers 422 with the game's reason once its
// games are over.
func TestEveningExportNotExportable(t *testing.T) {
	ctx := context.Background()
	svc := service.New(store.NewMemory(), service.WithLogger(quiet))
	c := mustEvening(t, svc, classicEvening(1, 1, 7))
	v := mustActEvening(t, svc, c.Code, c.OrganizerToken, service.ActStartRound)
	endRound(t, svc, v)
	_, err := svc.EveningMafiaRatings(ctx, c.Code, "")
	_, gameErr := svc.MafiaRatings(ctx, v.Rounds[0].Tables[0].Game, "")
	if service.As(err).Code != service.CodeNotExportable || !errors.Is(err, service.ErrUnprocessable) || gameErr == nil ||
		!strings.Contains(service.As(err).Message, service.As(gameErr).Message) {
		t.Fatalf("a classic evening's export: %v, want 422 not_exportable", err)
	}
	if _, err := svc.EveningMafiaRatings(ctx, "ZZZZZZ", ""); !errors.Is(err, service.ErrNotFound) {
		t.Fatalf("an unknown evening: %v, want 404", err)
	}
}

// TestEveningExportHidden: while the standings are hidden, the export gives
// the public the games before the hidden round and lists the hidden round's
// as skipped (each tells its winner, so its points); the organiser gets them
// all, and so does everyone once the standings are shown.
func TestEveningExportHidden(t *testing.T) {
	ctx := context.Background()
	svc := service.New(store.NewMemory(), service.WithLogger(quiet))
	c := mustEvening(t, svc, service.EveningRequest{Preset: rules.PresetSport, Moderator: rules.ModeratorHost,
		Tables: 1, Rounds: 2, Players: roster(10)})
	org := c.OrganizerToken
	endRound(t, svc, mustActEvening(t, svc, c.Code, org, service.ActStartRound))
	mustActEvening(t, svc, c.Code, org, service.ActHideStandings)
	endRound(t, svc, mustActEvening(t, svc, c.Code, org, service.ActStartRound))
	mustActEvening(t, svc, c.Code, org, service.ActRecord)

	rounds := func(token string) (games, skipped []int, hidden bool) {
		t.Helper()
		x, err := svc.EveningMafiaRatings(ctx, c.Code, token)
		if err != nil {
			t.Fatal(err)
		}
		for _, g := range x.Games {
			games = append(games, g.Round)
		}
		for _, g := range x.Skipped {
			skipped = append(skipped, g.Round)
			hidden = hidden || g.Code == service.CodeStandingsHidden
		}
		return games, skipped, hidden
	}
	if games, skipped, hidden := rounds(""); !reflect.DeepEqual(games, []int{1}) || !reflect.DeepEqual(skipped, []int{2}) || !hidden {
		t.Errorf("the public's export while hidden: rounds %v, skipped %v (hidden %v); want round 1, round 2 skipped as hidden", games, skipped, hidden)
	}
	if games, _, _ := rounds(org); !reflect.DeepEqual(games, []int{1, 2}) {
		t.Errorf("the organiser's export while hidden: rounds %v, want both", games)
	}
	mustActEvening(t, svc, c.Code, org, service.ActShowStandings)
	if games, _, _ := rounds(""); !reflect.DeepEqual(games, []int{1, 2}) {
		t.Errorf("the public's export once shown: rounds %v, want both", games)
	}
}
