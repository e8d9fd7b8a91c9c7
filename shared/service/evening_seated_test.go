package service_test

import (
	"context"
	"errors"
	"testing"

	"citysleeps/shared/rules"
	"citysleeps/shared/service"
	"citysleeps/shared/service/servicetest"
	"citysleeps/shared/store"
)

// TestEveningTableTakesOnlyItsSeating: an evening is the authority on who sits
// at its games (issue 47). A stranger who knows a table's room code (the TV
// shows it) cannot join its lobby; nobody at it leaves, is kicked or banned,
// and its referee cannot lock it or change its rules; every such request is
// refused with 409 table_seated and changes nothing. When its game ends,
// every evening route answers, each seat's points go to the person the
// seating put there, and the table plays no game of its own after it.
func TestEveningTableTakesOnlyItsSeating(t *testing.T) {
	ctx := context.Background()
	st := store.NewMemory()
	svc := service.New(st, service.WithLogger(quiet))
	c := mustEvening(t, svc, classicEvening(1, 2, 7))
	org := c.OrganizerToken
	anna, err := svc.JoinEvening(ctx, c.Code, service.EveningJoinRequest{Name: "Player 3"})
	if err != nil {
		t.Fatal(err)
	}
	v := mustActEvening(t, svc, c.Code, org, service.ActStartRound)
	game, referee := v.Rounds[0].Tables[0].Game, servicetest.Referee(v, 1)
	mine, err := svc.ReadEvening(ctx, c.Code, anna.Token)
	if err != nil || mine.You == nil || mine.You.GameToken == "" {
		t.Fatalf("Player 3's place: %+v, %v", mine.You, err)
	}
	if pub := servicetest.MustRead(t, svc, game, ""); !pub.Phase.Seated || pub.Table != 1 {
		t.Errorf("the table's public view: seated %v, table %d; want the evening's table 1", pub.Phase.Seated, pub.Table)
	}
	version := func() int64 {
		it, err := st.Get(ctx, game, true)
		if err != nil {
			t.Fatal(err)
		}
		return it.Version
	}
	before := version()
	seated := func(what string, err error) {
		t.Helper()
		if e := service.As(err); !errors.Is(err, service.ErrConflict) || e.Code != "table_seated" {
			t.Errorf("%s: %v, want 409 table_seated", what, err)
		}
		if after := version(); after != before {
			t.Errorf("%s changed the game: version %d → %d", what, before, after)
		}
	}
	_, err = svc.Join(ctx, game, service.JoinRequest{Name: "Mallory"})
	seated("a stranger's join", err)
	_, err = svc.Act(ctx, game, mine.You.GameToken, rules.Action{ID: servicetest.ActionID(), Type: rules.ActLeave})
	seated("a seated player's leave", err)
	opts, _ := rules.Preset(rules.PresetClassic)
	opts.MaxPlayers = 11
	target := mine.You.PlayerID
	if gv := servicetest.MustRead(t, svc, game, mine.You.GameToken); gv.You != nil {
		target = gv.You.ID
	}
	for _, a := range []rules.Action{
		{Type: rules.ActKick, Target: target},
		{Type: rules.ActBan, Target: target},
		{Type: rules.ActLock},
		{Type: rules.ActUnlock},
		{Type: rules.ActConfigure, Options: &opts},
	} {
		a.ID = servicetest.ActionID()
		_, err := svc.Act(ctx, game, referee, a)
		seated("the referee's "+string(a.Type), err)
	}

	endRound(t, svc, v)
	pub, err := svc.ReadEvening(ctx, c.Code, "")
	if err != nil || !pub.Rounds[0].Tables[0].Over || pub.Rounds[0].Tables[0].Uncounted != "" {
		t.Fatalf("the evening after its game: %v, table %+v", err, pub.Rounds[0].Tables)
	}
	wantStandings(t, svc, pub)
	if _, err := svc.Again(ctx, game, referee); service.As(err).Code != "table_seated" {
		t.Errorf("a game of its own after the evening's: %v, want 409 table_seated", err)
	}
	if next := mustActEvening(t, svc, c.Code, org, service.ActStartRound); next.Round != 2 {
		t.Errorf("round 2: %d", next.Round)
	}
}
