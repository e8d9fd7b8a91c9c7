package service_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"citysleeps/shared/evening"
	"citysleeps/shared/rules"
	"citysleeps/shared/service"
	"citysleeps/shared/service/servicetest"
)

// eveningReseat opens a link that moves player id's evening place to another
// phone, as the organiser, and returns the organiser's answer.
func eveningReseat(t *testing.T, svc *service.Service, c service.EveningCreated, actionID, id string) evening.View {
	t.Helper()
	v, err := svc.ActEvening(ctx, c.Code, c.OrganizerToken, service.EveningAction{ID: actionID, Type: service.ActReseat, Player: id})
	if err != nil {
		t.Fatalf("reseat %s: %v", id, err)
	}
	if v.Reseat == nil || v.Reseat.Target != id || len(v.Reseat.Key) != 24 || !v.Organizer {
		t.Fatalf("the answer to reseat %s: link %+v, organiser %v", id, v.Reseat, v.Organizer)
	}
	return v
}

// refusedPlace fails t unless a join of the evening with req is refused with
// code and leaves the evening as it was.
func refusedPlace(t *testing.T, svc *service.Service, code string, req service.EveningJoinRequest, kind service.Kind, want string) {
	t.Helper()
	before, _ := svc.ReadEvening(ctx, code, "")
	if _, err := svc.JoinEvening(ctx, code, req); !errors.Is(err, kind) || service.As(err).Code != want {
		t.Errorf("join %+v: %v, want %s %s", req, err, kind, want)
	}
	if after, _ := svc.ReadEvening(ctx, code, ""); after.Version != before.Version {
		t.Errorf("join %+v refused, yet the evening went from version %d to %d", req, before.Version, after.Version)
	}
}

// TestEveningReseat: the organiser's link moves a player's evening place to
// another phone once: the new phone gets a new token and the same game seat
// under a new game token, the old phone's tokens (the evening's and the
// game's) are refused from then on, the key shows in the action's first
// answer only, and the join with it is safe to send again.
func TestEveningReseat(t *testing.T) {
	f := newFixture(t)
	c := mustEvening(t, f.svc, classicEvening(1, 2, 7))
	old, err := f.svc.JoinEvening(ctx, c.Code, service.EveningJoinRequest{Name: "Player 3", JoinID: "old-phone-join-0001"})
	if err != nil {
		t.Fatal(err)
	}
	mustActEvening(t, f.svc, c.Code, c.OrganizerToken, service.ActStartRound)
	was, err := f.svc.ReadEvening(ctx, c.Code, old.Token)
	if err != nil || was.You == nil || was.You.GameToken == "" {
		t.Fatalf("the old phone in round 1: %+v, %v", was.You, err)
	}

	first := eveningReseat(t, f.svc, c, "reseat-1", "p3")
	if want := f.clk.Now().Add(10 * time.Minute).Truncate(time.Second); !first.Reseat.ExpiresAt.Equal(want) {
		t.Errorf("the link ends at %v, want %v", first.Reseat.ExpiresAt, want)
	}
	key := first.Reseat.Key
	again, err := f.svc.ActEvening(ctx, c.Code, c.OrganizerToken, service.EveningAction{ID: "reseat-1", Type: service.ActReseat, Player: "p3"})
	if err != nil || again.Reseat != nil || again.Version != first.Version {
		t.Errorf("the reseat sent again: link %+v, version %d (first %d), %v; want no link, no write", again.Reseat, again.Version, first.Version, err)
	}
	for _, token := range []string{"", c.OrganizerToken, old.Token} {
		v, _ := f.svc.ReadEvening(ctx, c.Code, token)
		if data, _ := json.Marshal(v); strings.Contains(string(data), key) {
			t.Errorf("a read by %.6q shows the key", token)
		}
		// Only the organiser learns whose link is open.
		if want := token == c.OrganizerToken; (len(v.Moving) == 1 && v.Moving[0] == "p3") != want || (!want && v.Moving != nil) {
			t.Errorf("a read by %.6q: moving %v", token, v.Moving)
		}
	}

	req := service.EveningJoinRequest{SeatKey: key, JoinID: "new-phone-join-0001"}
	moved, err := f.svc.JoinEvening(ctx, c.Code, req)
	if err != nil || moved.PlayerID != "p3" || moved.Token == old.Token || moved.Evening.You == nil {
		t.Fatalf("the new phone: %+v, %v", moved, err)
	}
	if moved.Evening.You.GameToken == was.You.GameToken || moved.Evening.You.Game != was.You.Game || moved.Evening.You.Seat != was.You.Seat {
		t.Errorf("the new phone plays %s seat %d, was %s seat %d: want the same seat under a new game token", moved.Evening.You.Game, moved.Evening.You.Seat, was.You.Game, was.You.Seat)
	}
	if g, err := f.svc.Read(ctx, was.You.Game, moved.Evening.You.GameToken); err != nil || g.You == nil || g.You.ID != fmt.Sprintf("p%d", was.You.Seat) {
		t.Errorf("the new phone's game seat: %+v, %v; want seat %d's", g.You, err, was.You.Seat)
	}
	if _, err := f.svc.Read(ctx, was.You.Game, was.You.GameToken); !errors.Is(err, service.ErrUnauthorized) {
		t.Errorf("the old phone's game token: %v, want 401: the old phone holds no seat", err)
	}
	if _, err := f.svc.ReadEvening(ctx, c.Code, old.Token); !errors.Is(err, service.ErrUnauthorized) {
		t.Errorf("the old phone's next read: %v, want 401", err)
	}
	if _, err := f.svc.JoinEvening(ctx, c.Code, service.EveningJoinRequest{Name: "Player 3", JoinID: "old-phone-join-0001"}); !errors.Is(err, service.ErrConflict) {
		t.Errorf("the old phone's join sent again: %v, want name_taken (its token is gone)", err)
	}
	if v, err := f.svc.ReadEvening(ctx, c.Code, moved.Token); err != nil || v.You == nil || v.You.PlayerID != "p3" {
		t.Errorf("the new phone's read: %+v, %v", v.You, err)
	}
	if v, _ := f.svc.ReadEvening(ctx, c.Code, c.OrganizerToken); v.Moving != nil {
		t.Errorf("the organiser's view once the link is used: moving %v, want none", v.Moving)
	}

	retried, err := f.svc.JoinEvening(ctx, c.Code, req)
	if err != nil || retried.PlayerID != "p3" || retried.Token != moved.Token || retried.Evening.Version != moved.Evening.Version {
		t.Errorf("the join sent again: %+v, %v; first %+v", retried, err, moved)
	}
	refusedPlace(t, f.svc, c.Code, service.EveningJoinRequest{SeatKey: key, JoinID: "third-phone-join-01"}, service.ErrForbidden, service.CodeSeatKeyInvalid)
	refusedPlace(t, f.svc, c.Code, service.EveningJoinRequest{SeatKey: key}, service.ErrForbidden, service.CodeSeatKeyInvalid)

	// A name typed in that no phone took: the link gives a phone the
	// place, and the name is taken from then on.
	typed := eveningReseat(t, f.svc, c, "reseat-2", "p5")
	p5, err := f.svc.JoinEvening(ctx, c.Code, service.EveningJoinRequest{SeatKey: typed.Reseat.Key})
	if err != nil || p5.PlayerID != "p5" || !p5.Evening.Players[4].Joined {
		t.Fatalf("a link to a typed name: %+v, %v", p5, err)
	}
	refusedPlace(t, f.svc, c.Code, service.EveningJoinRequest{Name: "Player 5"}, service.ErrConflict, "name_taken")
}

// TestEveningReseatRefusals: a reseat of no player, of nobody, of a player
// who left, or by anyone but the organiser, is refused and changes nothing; a
// key forged, another evening's, replaced by a newer one, past its ten
// minutes, sent with a name, or for a player who left since, is refused and
// changes nothing.
func TestEveningReseatRefusals(t *testing.T) {
	f := newFixture(t)
	c := mustEvening(t, f.svc, classicEvening(1, 2, 8))
	other := mustEvening(t, f.svc, classicEvening(1, 2, 8))
	p1, err := f.svc.JoinEvening(ctx, c.Code, service.EveningJoinRequest{Name: "Player 1"})
	if err != nil {
		t.Fatal(err)
	}
	mustAct := func(a service.EveningAction) {
		t.Helper()
		if _, err := f.svc.ActEvening(ctx, c.Code, c.OrganizerToken, a); err != nil {
			t.Fatalf("%+v: %v", a, err)
		}
	}
	mustAct(service.EveningAction{ID: "gone", Type: service.ActAbsent, Player: "p2"})
	for _, tc := range []struct {
		a    service.EveningAction
		code string
	}{
		{service.EveningAction{ID: "r1", Type: service.ActReseat}, "bad_field"},
		{service.EveningAction{ID: "r2", Type: service.ActReseat, Player: "p42"}, "bad_target"},
		{service.EveningAction{ID: "r3", Type: service.ActReseat, Player: "Player 1"}, "bad_target"},
		{service.EveningAction{ID: "r4", Type: service.ActReseat, Player: "p2"}, "player_absent"},
	} {
		refusedEvening(t, f.svc, c.Code, c.OrganizerToken, tc.a, tc.code)
	}
	refusedEvening(t, f.svc, c.Code, p1.Token, service.EveningAction{ID: "r5", Type: service.ActReseat, Player: "p1"}, "not_organizer")
	refusedEvening(t, f.svc, c.Code, "", service.EveningAction{ID: "r6", Type: service.ActReseat, Player: "p1"}, "unauthorized")
	refusedEvening(t, f.svc, c.Code, other.OrganizerToken, service.EveningAction{ID: "r7", Type: service.ActReseat, Player: "p1"}, "unauthorized")

	otherKey := eveningReseat(t, f.svc, other, "o1", "p1").Reseat.Key
	replaced := eveningReseat(t, f.svc, c, "k1", "p1").Reseat.Key
	newer := eveningReseat(t, f.svc, c, "k2", "p1").Reseat.Key
	leaving := eveningReseat(t, f.svc, c, "k3", "p6").Reseat.Key
	mustAct(service.EveningAction{ID: "gone6", Type: service.ActAbsent, Player: "p6"})
	for what, key := range map[string]string{
		"forged": "AAAAAAAAAAAAAAAAAAAAAAAA", "malformed": "not a key", "too long": strings.Repeat("A", 300),
		"another evening's": otherKey, "replaced": replaced, "the organiser's token": c.OrganizerToken, "a player's token": p1.Token,
	} {
		t.Run(what, func(t *testing.T) {
			refusedPlace(t, f.svc, c.Code, service.EveningJoinRequest{SeatKey: key}, service.ErrForbidden, service.CodeSeatKeyInvalid)
		})
	}
	refusedPlace(t, f.svc, c.Code, service.EveningJoinRequest{SeatKey: leaving}, service.ErrConflict, "player_absent")
	refusedPlace(t, f.svc, c.Code, service.EveningJoinRequest{SeatKey: newer, Name: "Sub"}, service.ErrInvalid, "invalid")
	refusedPlace(t, f.svc, c.Code, service.EveningJoinRequest{SeatKey: newer, JoinID: "short"}, service.ErrInvalid, "invalid")

	if v, _ := f.svc.ReadEvening(ctx, c.Code, c.OrganizerToken); len(v.Moving) == 0 {
		t.Errorf("the organiser's view with links open: moving %v", v.Moving)
	}
	f.clk.Add(10 * time.Minute)
	refusedPlace(t, f.svc, c.Code, service.EveningJoinRequest{SeatKey: newer}, service.ErrForbidden, service.CodeSeatKeyExpired)
	if v, _ := f.svc.ReadEvening(ctx, c.Code, c.OrganizerToken); v.Moving != nil {
		t.Errorf("the organiser's view once every link's time is up: moving %v, want none", v.Moving)
	}
	if _, err := f.svc.ReadEvening(ctx, c.Code, p1.Token); err != nil {
		t.Errorf("the refused keys moved p1: %v", err)
	}
	fresh := eveningReseat(t, f.svc, c, "k4", "p1").Reseat.Key
	if j, err := f.svc.JoinEvening(ctx, c.Code, service.EveningJoinRequest{SeatKey: fresh}); err != nil || j.PlayerID != "p1" {
		t.Errorf("a new link after the old one's time: %+v, %v", j, err)
	}
}

// TestEveningReseatTakesTheSeatCode: once the cards are dealt in a game the
// app moderates, the organiser's link moves a player's place only with the
// seat's code from the player's own card, as the game's own link does (issue
// 47): without it the link is refused and nothing changes, a wrong one counts
// against the link, and with it the new phone plays the seat while the old
// phone's game token is refused.
func TestEveningReseatTakesTheSeatCode(t *testing.T) {
	f := newFixture(t)
	req := classicEvening(1, 2, 7)
	req.Moderator = rules.ModeratorApp
	c := mustEvening(t, f.svc, req)
	old, err := f.svc.JoinEvening(ctx, c.Code, service.EveningJoinRequest{Name: "Player 3"})
	if err != nil {
		t.Fatal(err)
	}
	v := mustActEvening(t, f.svc, c.Code, c.OrganizerToken, service.ActStartRound)
	game := v.Rounds[0].Tables[0].Game
	servicetest.MustAct(t, f.svc, game, servicetest.Referee(v, 1), rules.Action{ID: servicetest.ActionID(), Type: rules.ActStart})
	was, err := f.svc.ReadEvening(ctx, c.Code, old.Token)
	if err != nil || was.You == nil {
		t.Fatal(err)
	}
	card := servicetest.MustRead(t, f.svc, game, was.You.GameToken).You
	if card == nil || card.Role == "" || len(card.SeatCode) != 6 {
		t.Fatalf("Player 3's card: %+v", card)
	}
	gameVersion := func() int64 {
		it, err := f.st.Get(ctx, game, true)
		if err != nil {
			t.Fatal(err)
		}
		return it.Version
	}
	before := gameVersion()

	key := eveningReseat(t, f.svc, c, "reseat-1", "p3").Reseat.Key
	refusedPlace(t, f.svc, c.Code, service.EveningJoinRequest{SeatKey: key}, service.ErrForbidden, service.CodeSeatCodeNeeded)
	wrong := "000000"
	if card.SeatCode == wrong {
		wrong = "000001"
	}
	if _, err := f.svc.JoinEvening(ctx, c.Code, service.EveningJoinRequest{SeatKey: key, SeatCode: wrong}); service.As(err).Code != service.CodeSeatCodeWrong {
		t.Fatalf("a wrong seat code: %v", err)
	}
	if org, _ := f.svc.ReadEvening(ctx, c.Code, c.OrganizerToken); len(org.Moving) != 1 {
		t.Errorf("one wrong code closed the link: moving %v", org.Moving)
	}
	if after := gameVersion(); after != before {
		t.Errorf("refused links changed the game: version %d → %d", before, after)
	}
	if _, err := f.svc.Read(ctx, game, was.You.GameToken); err != nil {
		t.Errorf("the player's own phone lost its seat to a refused link: %v", err)
	}

	moved, err := f.svc.JoinEvening(ctx, c.Code, service.EveningJoinRequest{SeatKey: key, SeatCode: card.SeatCode})
	if err != nil || moved.Evening.You == nil || moved.Evening.You.Game != game {
		t.Fatalf("the link with the seat's code: %+v, %v", moved.Evening.You, err)
	}
	if now := servicetest.MustRead(t, f.svc, game, moved.Evening.You.GameToken).You; now == nil || now.ID != card.ID || now.Role != card.Role {
		t.Errorf("the new phone's seat: %+v, the old phone's %+v", now, card)
	}
	if _, err := f.svc.Read(ctx, game, was.You.GameToken); !errors.Is(err, service.ErrUnauthorized) {
		t.Errorf("the old phone's game token: %v, want 401", err)
	}
}
