package service_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"citysleeps/shared/rules"
	"citysleeps/shared/scoring"
	"citysleeps/shared/service"
	"citysleeps/shared/service/servicetest"
	"citysleeps/shared/store"
)

// TestEveningReferees: each table has its own moderator and its own referee
// token. The token hosts that table's games, round after round, and on the
// evening gives the extra points at them and nothing else: not another
// table's game, not the evening's other actions (refused, nothing changed). The organiser's view holds every table's
// token; a referee's view shows their own table's game in play and no
// token; the public's and a player's show none. The organiser changes a
// table's moderator for the rounds to come, and the game in play keeps its
// own.
func TestEveningReferees(t *testing.T) {
	ctx := context.Background()
	svc := service.New(store.NewMemory(), service.WithLogger(quiet))
	req := classicEvening(2, 3, 16)
	req.Moderators = []string{rules.ModeratorHost, rules.ModeratorApp}
	c := mustEvening(t, svc, req)
	org := c.OrganizerToken
	if got := c.Evening.Moderators; !slices.Equal(got, req.Moderators) {
		t.Fatalf("the new evening's moderators: %v, want %v", got, req.Moderators)
	}
	if len(c.Evening.Referees) != 2 || c.Evening.Referees[0].Token == "" || c.Evening.Referees[0].Token == c.Evening.Referees[1].Token {
		t.Fatalf("the organiser's view holds each table's own referee token: %+v", c.Evening.Referees)
	}
	p1, err := svc.JoinEvening(ctx, c.Code, service.EveningJoinRequest{Name: "Player 1"})
	if err != nil {
		t.Fatal(err)
	}

	v := mustActEvening(t, svc, c.Code, org, service.ActStartRound)
	tables := v.Rounds[0].Tables
	ref1, ref2 := servicetest.Referee(v, 1), servicetest.Referee(v, 2)
	if ref1 != c.Evening.Referees[0].Token {
		t.Fatalf("table 1's referee token changed when the round started")
	}
	for i, table := range tables {
		g, err := svc.Read(ctx, table.Game, "")
		if err != nil || g.Moderator != req.Moderators[i] {
			t.Fatalf("table %d's game moderated by %q (%v), want %q", table.Table, g.Moderator, err, req.Moderators[i])
		}
	}
	if g, err := svc.Read(ctx, tables[0].Game, ref1); err != nil || !g.Viewer.Host {
		t.Fatalf("table 1's referee reads its game as %+v, %v; want its host", g.Viewer, err)
	}
	for what, c := range map[string]struct{ game, token string }{
		"table 2's game with table 1's referee token": {tables[1].Game, ref1},
		"table 1's game with table 2's referee token": {tables[0].Game, ref2},
		"table 1's game with the organiser's token":   {tables[0].Game, org},
	} {
		if _, err := svc.Act(ctx, c.game, c.token, rules.Action{ID: servicetest.ActionID(), Type: rules.ActStart}); !errors.Is(err, service.ErrUnauthorized) {
			t.Errorf("%s: %v, want 401", what, err)
		}
	}

	// A referee is nobody on the evening: they read it as the public does,
	// with their own table's game, and may change nothing.
	rv, err := svc.ReadEvening(ctx, c.Code, ref2)
	if err != nil || rv.Organizer || rv.You != nil || len(rv.Referees) != 1 {
		t.Fatalf("table 2's referee's view: %+v, %v", rv.Referees, err)
	}
	if r := rv.Referees[0]; r.Table != 2 || r.Game != tables[1].Game || r.Token != "" || r.Moderator != rules.ModeratorApp {
		t.Fatalf("table 2's referee sees %+v", r)
	}
	for _, a := range []service.EveningAction{
		{ID: "a1", Type: service.ActStartRound},
		{ID: "a3", Type: service.ActSetModerator, Table: 1, Moderator: rules.ModeratorApp},
		{ID: "a4", Type: service.ActReseat, Player: tables[1].Players[0]},
		{ID: "a5", Type: service.ActHideStandings},
	} {
		refusedEvening(t, svc, c.Code, ref2, a, "not_organizer")
	}

	// A referee gives the extra points at their own table's game (from the
	// console), and only there; the answer is their own view.
	refusedEvening(t, svc, c.Code, ref2, service.EveningAction{ID: "x0", Type: service.ActExtra, Game: tables[0].Game,
		Player: tables[0].Players[0], Points: scoring.Point / 2, Reason: "not my table"}, "not_your_table")
	speech := service.EveningAction{ID: "x1", Type: service.ActExtra, Game: strings.ToLower(tables[1].Game),
		Player: tables[1].Players[0], Points: scoring.Point / 2, Reason: "a fine speech"}
	given, err := svc.ActEvening(ctx, c.Code, ref2, speech)
	if err != nil || given.Organizer || len(given.Referees) != 1 || given.Referees[0].Token != "" {
		t.Fatalf("table 2's referee's extra: %v, answered %+v", err, given.Referees)
	}
	if x := given.Rounds[0].Tables[1].Extras; len(x) != 1 || x[0].Player != speech.Player || x[0].Points != speech.Points {
		t.Fatalf("the extra at table 2's game: %+v", x)
	}
	if again, err := svc.ActEvening(ctx, c.Code, ref2, speech); err != nil || again.Version != given.Version {
		t.Fatalf("the referee's extra sent again: version %d → %d, %v; want it applied once", given.Version, again.Version, err)
	}
	// Each referee's ids are their own: table 1's referee's action with the
	// id table 2's referee used is another action, and applied.
	theirs := service.EveningAction{ID: "x1", Type: service.ActExtra, Game: tables[0].Game, Player: tables[0].Players[1], Points: scoring.Point / 10, Reason: "a good read"}
	if v, err := svc.ActEvening(ctx, c.Code, ref1, theirs); err != nil || len(v.Rounds[0].Tables[0].Extras) != 1 {
		t.Fatalf("table 1's referee's extra with table 2's referee's action id: %v, %+v", err, v.Rounds[0].Tables[0].Extras)
	}
	// The organiser's ids are the organiser's: the same id is another action.
	mine := service.EveningAction{ID: "x1", Type: service.ActExtra, Game: tables[0].Game, Player: tables[0].Players[0], Points: -scoring.Point / 5, Reason: "a foul"}
	if v, err := svc.ActEvening(ctx, c.Code, org, mine); err != nil || len(v.Rounds[0].Tables[0].Extras) != 2 {
		t.Fatalf("the organiser's extra with the referee's action id: %v, %+v", err, v.Rounds[0].Tables[0].Extras)
	}
	for who, token := range map[string]string{"the public": "", "a player": p1.Token} {
		if v, err := svc.ReadEvening(ctx, c.Code, token); err != nil || v.Referees != nil {
			t.Errorf("%s sees referees %+v (%v), want none", who, v.Referees, err)
		}
	}

	// Table 2 gets a referee from round 2 on; its game in play stays the app's.
	refusedEvening(t, svc, c.Code, org, service.EveningAction{ID: "m0", Type: service.ActSetModerator, Table: 3, Moderator: rules.ModeratorHost}, "bad_target")
	refusedEvening(t, svc, c.Code, org, service.EveningAction{ID: "m1", Type: service.ActSetModerator, Table: 2, Moderator: "referee"}, "invalid")
	set, err := svc.ActEvening(ctx, c.Code, org, service.EveningAction{ID: "m2", Type: service.ActSetModerator, Table: 2, Moderator: rules.ModeratorHost})
	if err != nil || !slices.Equal(set.Moderators, []string{rules.ModeratorHost, rules.ModeratorHost}) {
		t.Fatalf("set table 2's moderator: %v, %v", set.Moderators, err)
	}
	if g, _ := svc.Read(ctx, tables[1].Game, ""); g.Moderator != rules.ModeratorApp {
		t.Fatalf("table 2's game in play changed its moderator to %q", g.Moderator)
	}
	if err := servicetest.EndByRemovals(svc, tables[0].Game, ref1); err != nil {
		t.Fatal(err)
	}
	// The app's game at table 2 is ended by its host all the same: a host
	// may remove a player in a game the app moderates too.
	if err := servicetest.EndByRemovals(svc, tables[1].Game, ref2); err != nil {
		t.Fatal(err)
	}

	// Round 2: the same tokens host the tables' new games.
	v = mustActEvening(t, svc, c.Code, org, service.ActStartRound)
	for _, table := range v.Rounds[1].Tables {
		g, err := svc.Read(ctx, table.Game, servicetest.Referee(v, table.Table))
		if err != nil || !g.Viewer.Host || g.Moderator != rules.ModeratorHost {
			t.Fatalf("round 2, table %d: %+v moderated by %q (%v), want its referee as host and a person moderating", table.Table, g.Viewer, g.Moderator, err)
		}
	}
	if rv, _ := svc.ReadEvening(ctx, c.Code, ref1); rv.Referees[0].Game != v.Rounds[1].Tables[0].Game {
		t.Fatalf("table 1's referee is shown game %q, not round 2's %q", rv.Referees[0].Game, v.Rounds[1].Tables[0].Game)
	}
}

// TestEveningModeratorsRefused: a moderators list that is not one "app" or
// "host" a table makes no evening.
func TestEveningModeratorsRefused(t *testing.T) {
	svc := service.New(store.NewMemory(), service.WithLogger(quiet))
	for _, ms := range [][]string{{"host"}, {"host", "app", "app"}, {"host", "referee"}} {
		req := classicEvening(2, 1, 16)
		req.Moderators = ms
		if _, err := svc.CreateEvening(context.Background(), req); !errors.Is(err, service.ErrInvalid) {
			t.Errorf("moderators %q for 2 tables: %v, want 400", ms, err)
		}
	}
}

// TestEveningRefereeWithdrawn: the organiser withdraws a table's referee token
// (new_referee): the table gets a new one, which hosts the game in play from
// then on, while the old one opens nothing, neither the evening nor the game.
// A table that changes hands (set_moderator) gets a new token too, which the
// next round's game takes: the former referee cannot host it (issue 47).
func TestEveningRefereeWithdrawn(t *testing.T) {
	ctx := context.Background()
	svc := service.New(store.NewMemory(), service.WithLogger(quiet))
	c := mustEvening(t, svc, classicEvening(2, 3, 16))
	org := c.OrganizerToken
	v := mustActEvening(t, svc, c.Code, org, service.ActStartRound)
	games := v.Rounds[0].Tables
	old1, old2 := servicetest.Referee(v, 1), servicetest.Referee(v, 2)

	w, err := svc.ActEvening(ctx, c.Code, org, service.EveningAction{ID: "n1", Type: service.ActNewReferee, Table: 1})
	if err != nil {
		t.Fatal(err)
	}
	new1 := servicetest.Referee(w, 1)
	if new1 == "" || new1 == old1 || servicetest.Referee(w, 2) != old2 {
		t.Fatalf("table 1's token after new_referee: %q (was %q); table 2's %q (was %q)", new1, old1, servicetest.Referee(w, 2), old2)
	}
	if _, err := svc.ReadEvening(ctx, c.Code, old1); !errors.Is(err, service.ErrUnauthorized) {
		t.Errorf("the withdrawn token reads the evening: %v, want 401", err)
	}
	if _, err := svc.Act(ctx, games[0].Game, old1, rules.Action{ID: servicetest.ActionID(), Type: rules.ActStart}); !errors.Is(err, service.ErrUnauthorized) {
		t.Errorf("the withdrawn token acts in the game in play: %v, want 401", err)
	}
	if g, err := svc.Read(ctx, games[0].Game, new1); err != nil || !g.Viewer.Host {
		t.Errorf("the new token in the game in play: %+v, %v; want its host", g.Viewer, err)
	}
	refusedEvening(t, svc, c.Code, org, service.EveningAction{ID: "n2", Type: service.ActNewReferee, Table: 3}, "bad_target")

	// Table 2 changes hands for round 2: the former referee's token hosts
	// the game in play to its end, and nothing after it.
	set, err := svc.ActEvening(ctx, c.Code, org, service.EveningAction{ID: "m1", Type: service.ActSetModerator, Table: 2, Moderator: rules.ModeratorApp})
	if err != nil {
		t.Fatal(err)
	}
	new2 := servicetest.Referee(set, 2)
	if new2 == old2 {
		t.Fatal("table 2 changed hands and kept its referee token")
	}
	if err := servicetest.EndByRemovals(svc, games[0].Game, new1); err != nil {
		t.Fatal(err)
	}
	if err := servicetest.EndByRemovals(svc, games[1].Game, old2); err != nil {
		t.Fatalf("the former referee ends the game in play: %v", err)
	}
	v2 := mustActEvening(t, svc, c.Code, org, service.ActStartRound)
	next := v2.Rounds[1].Tables[1].Game
	if _, err := svc.Read(ctx, next, old2); !errors.Is(err, service.ErrUnauthorized) {
		t.Errorf("the former referee reads round 2's game at table 2: %v, want 401", err)
	}
	if g, err := svc.Read(ctx, next, new2); err != nil || !g.Viewer.Host {
		t.Errorf("the new token in round 2's game at table 2: %+v, %v", g.Viewer, err)
	}
}
