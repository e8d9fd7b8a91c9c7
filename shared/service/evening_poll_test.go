package service_test

import (
	"errors"
	"slices"
	"testing"

	"citysleeps/shared/service"
	"citysleeps/shared/store"
)

// TestEveningJoinIsRetrySafe: a phone's join of an evening whose answer is
// lost, sent again with the same join id, gets the same player and the same
// token, as a game's join does (TestJoinIsRetrySafe), and not name_taken;
// another join id for that name is refused as before. Without a join id, a
// try that follows a write that did land finds its own player too.
func TestEveningJoinIsRetrySafe(t *testing.T) {
	mem := store.NewMemory()
	lossy := &lostAfterWrite{Store: mem, lost: true}
	svc := service.New(lossy, service.WithLogger(quiet), service.WithMaxRetries(1))
	c := mustEvening(t, svc, classicEvening(1, 2, 8))
	req := service.EveningJoinRequest{Name: "Player 3", JoinID: "j0b8e6d1c5b8e4c55"}
	if _, err := svc.JoinEvening(ctx, c.Code, req); !errors.Is(err, service.ErrUnavailable) {
		t.Fatalf("the lost join: %v", err)
	}
	lossy.lost = false
	j, err := svc.JoinEvening(ctx, c.Code, req)
	if err != nil || j.PlayerID != "p3" || j.Evening.You == nil || j.Evening.You.PlayerID != "p3" {
		t.Fatalf("the join sent again: %+v, %v; want p3", j, err)
	}
	before, err := svc.ReadEvening(ctx, c.Code, j.Token)
	if err != nil || before.You == nil || before.You.PlayerID != "p3" {
		t.Fatalf("the token of the join sent again: %+v, %v", before.You, err)
	}
	again, err := svc.JoinEvening(ctx, c.Code, req)
	if err != nil || again.PlayerID != j.PlayerID || again.Token != j.Token || again.Evening.Version != before.Version {
		t.Fatalf("a third time: %+v, %v; want %s with the same token, version %d (nothing written)", again, err, j.PlayerID, before.Version)
	}

	other := req
	other.JoinID = "another-join-id-123"
	_, err = svc.JoinEvening(ctx, c.Code, other)
	wantErr(t, "another join id, the same name", err, service.ErrConflict)
	if service.As(err).Code != "name_taken" {
		t.Errorf("another join id, the same name: %v, want name_taken", err)
	}
	_, err = svc.JoinEvening(ctx, c.Code, service.EveningJoinRequest{Name: "Player 4", JoinID: "short"})
	wantErr(t, "a join id too short", err, service.ErrInvalid)

	// No join id: the write lands, its answer is lost, and the request's
	// next try finds the player it made by its own token.
	lossy.lost = true
	twice := service.New(lossy, service.WithLogger(quiet), service.WithMaxRetries(2))
	p, err := twice.JoinEvening(ctx, c.Code, service.EveningJoinRequest{Name: "Player 5"})
	if err != nil || p.PlayerID != "p5" {
		t.Fatalf("a join whose first write's answer was lost: %+v, %v; want p5", p, err)
	}
	lossy.lost = false
	if v, err := svc.ReadEvening(ctx, c.Code, p.Token); err != nil || v.You == nil || v.You.PlayerID != "p5" {
		t.Errorf("p5's token: %+v, %v", v.You, err)
	}
}

// TestEveningPollRevision: the revision of an evening's read names what the
// view shows: the stored version, and the games the read found over and
// counted without writing, which change the view before any write changes
// the version; once the round is recorded they are in the version instead.
// Over says the last round's games are all counted.
func TestEveningPollRevision(t *testing.T) {
	svc := service.New(store.NewMemory(), service.WithLogger(quiet))
	c := mustEvening(t, svc, classicEvening(1, 1, 8))
	org := c.OrganizerToken
	poll := func(token string) service.EveningRead {
		t.Helper()
		rd, err := svc.PollEvening(ctx, c.Code, token)
		if err != nil {
			t.Fatal(err)
		}
		if rd.View.Version != rd.Revision.Version {
			t.Fatalf("the view's version %d, the revision's %d", rd.View.Version, rd.Revision.Version)
		}
		return rd
	}
	if rd := poll(""); rd.Revision.Version != 1 || rd.Revision.Found != nil || rd.Revision.Over {
		t.Fatalf("a new evening: %+v", rd.Revision)
	}
	v := mustActEvening(t, svc, c.Code, org, service.ActStartRound)
	game := v.Rounds[0].Tables[0].Game
	if rd := poll(org); rd.Revision.Version != v.Version || rd.Revision.Found != nil || rd.Revision.Over {
		t.Fatalf("round 1 in play: %+v", rd.Revision)
	}
	endRound(t, svc, v)
	rd := poll("")
	if rd.Revision.Version != v.Version || !slices.Equal(rd.Revision.Found, []string{game}) || !rd.Revision.Over {
		t.Fatalf("the last game over, not yet recorded: %+v; want version %d, found [%s], over", rd.Revision, v.Version, game)
	}
	if len(rd.View.Standings) != 8 {
		t.Fatalf("the view shows %d standings, want the game counted", len(rd.View.Standings))
	}
	rec := mustActEvening(t, svc, c.Code, org, service.ActRecord)
	if rd := poll(""); rd.Revision.Version != rec.Version || rec.Version != v.Version+1 || rd.Revision.Found != nil || !rd.Revision.Over {
		t.Fatalf("recorded: %+v, want version %d and nothing found", rd.Revision, v.Version+1)
	}
}
