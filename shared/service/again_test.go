package service_test

import (
	"testing"

	"citysleeps/shared/rules"
	"citysleeps/shared/service"
	"citysleeps/shared/service/servicetest"
)

// TestAgain: after game over the host opens the next game for the same table.
// The finished game names it for every viewer, the host token and every
// player's token hold in it, the players sit in their seats, and asking twice
// gives the same game.
func TestAgain(t *testing.T) {
	for _, locks := range []bool{false, true} {
		var opts []service.Option
		if locks {
			opts = append(opts, service.WithLocalLocks())
		}
		f := newFixture(t, opts...)
		g := servicetest.NewGame(t, f.svc, service.CreateRequest{Preset: "classic", Lang: "ro"}, 7)
		g.Start(t, f.svc)

		_, err := f.svc.Again(ctx, g.Code, g.Host)
		wantErr(t, "again before the end", err, rules.ErrWrongPhase)
		end := servicetest.PlayToEnd(t, f.svc, g)
		before := f.item(t, g.Code).Version

		_, err = f.svc.Again(ctx, g.Code, g.Players[0].Token)
		wantErr(t, "again by a player", err, rules.ErrNotHost)
		_, err = f.svc.Again(ctx, g.Code, "")
		wantErr(t, "again with no token", err, service.ErrUnauthorized)
		_, err = f.svc.Again(ctx, g.Code, servicetest.NewGame(t, f.svc, service.CreateRequest{Preset: "sport"}, 0).Host)
		wantErr(t, "again with another game's token", err, service.ErrUnauthorized)
		_, err = f.svc.Again(ctx, "ZZZZZZ", g.Host)
		wantErr(t, "again of no game", err, service.ErrNotFound)
		if v := f.item(t, g.Code).Version; v != before {
			t.Fatalf("refused requests changed the game: version %d, was %d", v, before)
		}

		next, err := f.svc.Again(ctx, g.Code, g.Host)
		if err != nil {
			t.Fatal(err)
		}
		if next.Code == g.Code || next.HostToken != "" || next.Game.Code != next.Code || next.Game.Phase.Name != rules.PhaseLobby {
			t.Fatalf("next game %s (token %q): %s in %s", next.Code, next.HostToken, next.Game.Code, next.Game.Phase.Name)
		}
		if next.Game.Lang != "ro" || next.Game.Rules != end.Rules || len(next.Game.Players) != 7 {
			t.Fatalf("next game: lang %s, same rules %v, %d players", next.Game.Lang, next.Game.Rules == end.Rules, len(next.Game.Players))
		}
		if !offers(next.Game, rules.ActStart) {
			t.Errorf("the host cannot start the next game: %+v", next.Game.Actions)
		}
		for _, p := range g.Players {
			v, err := f.svc.Read(ctx, next.Code, p.Token)
			if err != nil {
				t.Fatalf("%s in the next game: %v", p.ID, err)
			}
			if v.You == nil || v.You.ID != p.ID || v.You.Role != "" {
				t.Errorf("%s in the next game: you = %+v", p.ID, v.You)
			}
		}
		for _, tok := range []string{"", g.Host, g.Players[3].Token} {
			v, err := f.svc.Read(ctx, g.Code, tok)
			if err != nil || v.Next != next.Code || v.Phase.Name != rules.PhaseGameOver {
				t.Errorf("the finished game, read with %q: next %q, %v", tok, v.Next, err)
			}
		}
		if v, _ := f.svc.Read(ctx, next.Code, ""); v.Next != "" {
			t.Errorf("the new game names a next one: %q", v.Next)
		}
		again, err := f.svc.Again(ctx, g.Code, g.Host)
		if err != nil || again.Code != next.Code {
			t.Errorf("asking twice: %s, %v; want %s", again.Code, err, next.Code)
		}
		// The next game plays like any other, and can be followed in turn.
		g2 := servicetest.Game{Code: next.Code, Host: g.Host, Players: g.Players}
		g2.Start(t, f.svc)
		servicetest.PlayToEnd(t, f.svc, g2)
		if third, err := f.svc.Again(ctx, next.Code, g.Host); err != nil || third.Code == next.Code || third.Code == g.Code {
			t.Errorf("a third game: %s, %v", third.Code, err)
		}
	}
}

func offers(v rules.View, typ rules.ActionType) bool {
	for _, o := range v.Actions {
		if o.Type == typ {
			return true
		}
	}
	return false
}
