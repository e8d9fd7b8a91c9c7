package service_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"citysleeps/shared/rules"
	"citysleeps/shared/service"
	"citysleeps/shared/service/servicetest"
)

// reseat opens a link that moves seat id to another device, as the host, and
// returns the host's answer.
func reseat(t *testing.T, svc *service.Service, g servicetest.Game, id string) rules.View {
	t.Helper()
	v := servicetest.MustAct(t, svc, g.Code, g.Host, rules.Action{ID: servicetest.ActionID(), Type: rules.ActReseat, Target: id})
	if v.Reseat == nil || v.Reseat.Target != id || len(v.Reseat.Key) < 22 {
		t.Fatalf("the answer to reseat %s: link %+v", id, v.Reseat)
	}
	return v
}

// seatCode is the code on the card of seat id of g (empty where a person
// moderates), as its player reads it to move the seat to another phone.
func seatCode(t *testing.T, svc *service.Service, g servicetest.Game, id string) string {
	t.Helper()
	for _, p := range g.Players {
		if p.ID == id {
			return servicetest.MustRead(t, svc, g.Code, p.Token).You.SeatCode
		}
	}
	t.Fatalf("no seat %s", id)
	return ""
}

// onlookers are the views of everyone but seat id: the shared screen ("") and
// every other seat, by token.
func onlookers(t *testing.T, svc *service.Service, g servicetest.Game, id string) map[string]rules.View {
	t.Helper()
	out := map[string]rules.View{"": servicetest.MustRead(t, svc, g.Code, "")}
	for _, p := range g.Players {
		if p.ID != id {
			out[p.Token] = servicetest.MustRead(t, svc, g.Code, p.Token)
		}
	}
	return out
}

// sawOnlyTheMove fails unless every view in after is the one in before but for
// the version (and its tick) and the story, which tells the move of seat id
// at its end and nothing else new.
func sawOnlyTheMove(t *testing.T, before, after map[string]rules.View, id string) {
	t.Helper()
	for who, b := range before {
		a := after[who]
		told := a.Events[len(a.Events)-1]
		want := slices.DeleteFunc(slices.Clone(b.Events), func(e rules.Event) bool { return e.Type == rules.EvMoved && e.Target == id })
		if told.Type != rules.EvMoved || told.Target != id || told.To != rules.ToAll || !reflect.DeepEqual(a.Events[:len(a.Events)-1], want) {
			t.Errorf("viewer %.6s: the story went from %+v to %+v", who, b.Events, a.Events)
		}
		b.Version, a.Version, b.Tick, a.Tick, b.Events, a.Events = 0, 0, 0, 0, nil, nil
		if !reflect.DeepEqual(a, b) {
			t.Errorf("viewer %.6s: the move changed the view\nbefore %+v\nafter  %+v", who, b, a)
		}
	}
}

// holds fails if any of the views, as JSON, holds the secret.
func holds(t *testing.T, secret string, views map[string]rules.View) {
	t.Helper()
	for who, v := range views {
		data, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		if bytes.Contains(data, []byte(secret)) {
			t.Errorf("viewer %.6s sees the seat key", who)
		}
	}
}

// TestReseat: in either way of moderating, mid-night with choices made, the
// host moves seat 4 to another phone: the key is in the host's answer alone
// (not in any other view, not in the host's next read, not in the stored
// game), the new phone gets seat 4 with its card, its checks and its
// actions, the old token is refused, the key works once, and nobody else
// sees anything but one line of the story.
func TestReseat(t *testing.T) {
	for _, mod := range []string{rules.ModeratorApp, rules.ModeratorHost} {
		t.Run(mod, func(t *testing.T) {
			f := newFixture(t)
			g := servicetest.NewGame(t, f.svc, service.CreateRequest{Preset: "sport", Moderator: mod}, 10)
			g.Start(t, f.svc)
			servicetest.PlayUntil(t, f.svc, g, func(v rules.View) bool {
				return v.Phase.Name == rules.PhaseNight && v.Phase.Night == 2 && v.Phase.Pending < 8
			})
			seat := g.Players[3]
			card := servicetest.MustRead(t, f.svc, g.Code, seat.Token)
			before := onlookers(t, f.svc, g, seat.ID)

			link := reseat(t, f.svc, g, seat.ID).Reseat
			host := servicetest.MustRead(t, f.svc, g.Code, g.Host)
			if host.Reseat != nil || !slices.Equal(host.Moving, []string{seat.ID}) {
				t.Errorf("the host's next read: link %+v, moving %v", host.Reseat, host.Moving)
			}
			if want := f.clk.Now().Add(10 * time.Minute).Truncate(time.Second); !link.ExpiresAt.Equal(want) {
				t.Errorf("the link ends at %v, want %v", link.ExpiresAt, want)
			}
			views := onlookers(t, f.svc, g, seat.ID)
			views[g.Host], views[seat.Token] = host, servicetest.MustRead(t, f.svc, g.Code, seat.Token)
			holds(t, link.Key, views)
			if data, _ := service.StoredJSON(f.item(t, g.Code).State); bytes.Contains(data, []byte(link.Key)) {
				t.Error("the stored game holds the seat key")
			}

			j, err := f.svc.Join(ctx, g.Code, service.JoinRequest{SeatKey: link.Key, SeatCode: card.You.SeatCode})
			if err != nil {
				t.Fatal(err)
			}
			if j.Game.You == nil || (mod == rules.ModeratorApp) != (len(j.Game.You.SeatCode) == 6) || j.Game.You.SeatCode == card.You.SeatCode && mod == rules.ModeratorApp {
				t.Fatalf("the new phone's seat code %+v, the old one's %q", j.Game.You, card.You.SeatCode)
			}
			moved, was := *j.Game.You, *card.You
			moved.SeatCode, was.SeatCode = "", ""
			if j.PlayerID != seat.ID || j.Token == seat.Token || !reflect.DeepEqual(moved, was) {
				t.Fatalf("the new phone got %s, you %+v; want %s, %+v", j.PlayerID, moved, seat.ID, was)
			}
			now := servicetest.MustRead(t, f.svc, g.Code, j.Token)
			if !reflect.DeepEqual(now.Actions, card.Actions) || !reflect.DeepEqual(now.Players, card.Players) {
				t.Errorf("the new phone may %+v, sees %+v; the old one could %+v, saw %+v", now.Actions, now.Players, card.Actions, card.Players)
			}
			_, err = f.svc.Read(ctx, g.Code, seat.Token)
			wantErr(t, "the old phone's read", err, service.ErrUnauthorized)
			_, err = f.svc.Act(ctx, g.Code, seat.Token, act(rules.ActSleep))
			wantErr(t, "the old phone's action", err, service.ErrUnauthorized)
			sawOnlyTheMove(t, before, onlookers(t, f.svc, g, seat.ID), seat.ID)
			if host := servicetest.MustRead(t, f.svc, g.Code, g.Host); len(host.Moving) != 0 {
				t.Errorf("the link stays open after its use: %v", host.Moving)
			}

			refusedKey(t, f, g.Code, service.JoinRequest{SeatKey: link.Key}, service.CodeSeatKeyInvalid)
		})
	}
}

// TestReseatTakesTheSeatCode: in a game the app moderates, whoever holds a
// link (the creator, who sees no card, or a player who scanned the shared
// screen first) takes its seat, and learns its card, only with the seat's
// code, which the seat's own card alone shows (issue 29). Without a code the
// link is refused and nothing changes; a wrong code counts against it, and
// the third closes it for good. A person who moderates sees every card and
// moves seats without codes.
func TestReseatTakesTheSeatCode(t *testing.T) {
	f := newFixture(t)
	g := servicetest.NewGame(t, f.svc, service.CreateRequest{Preset: "sport"}, 10)
	g.Start(t, f.svc)
	seat := g.Players[6]
	code := servicetest.MustRead(t, f.svc, g.Code, seat.Token).You.SeatCode
	others := onlookers(t, f.svc, g, seat.ID)
	others[g.Host] = servicetest.MustRead(t, f.svc, g.Code, g.Host)
	if len(code) != 6 || strings.Trim(code, "0123456789") != "" {
		t.Fatalf("the seat's code is %q, want six digits", code)
	}
	holds(t, `"seatCode":"`+code+`"`, others)

	link := reseat(t, f.svc, g, seat.ID).Reseat
	refusedKey(t, f, g.Code, service.JoinRequest{SeatKey: link.Key}, service.CodeSeatCodeNeeded)
	wrong := "000000"
	if code == wrong {
		wrong = "000001"
	}
	for try := 1; try <= 3; try++ {
		before := f.item(t, g.Code).Version
		_, err := f.svc.Join(ctx, g.Code, service.JoinRequest{SeatKey: link.Key, SeatCode: wrong})
		if e := service.As(err); !errors.Is(err, service.ErrForbidden) || e.Code != service.CodeSeatCodeWrong {
			t.Fatalf("wrong code %d: %v", try, err)
		}
		host := servicetest.MustRead(t, f.svc, g.Code, g.Host)
		if open := slices.Contains(host.Moving, seat.ID); open != (try < 3) || f.item(t, g.Code).Version != before+1 {
			t.Errorf("after wrong code %d the link is open: %v; the version went from %d to %d", try, open, before, f.item(t, g.Code).Version)
		}
	}
	refusedKey(t, f, g.Code, service.JoinRequest{SeatKey: link.Key, SeatCode: code}, service.CodeSeatKeyInvalid)
	if _, err := f.svc.Read(ctx, g.Code, seat.Token); err != nil {
		t.Errorf("the seat's own phone lost it to guesses: %v", err)
	}

	link = reseat(t, f.svc, g, seat.ID).Reseat
	j, err := f.svc.Join(ctx, g.Code, service.JoinRequest{SeatKey: link.Key, SeatCode: code})
	if err != nil || j.PlayerID != seat.ID {
		t.Fatalf("the seat's code with a new link: %v", err)
	}

	hosted := servicetest.NewGame(t, f.svc, service.CreateRequest{Preset: "sport", Moderator: rules.ModeratorHost}, 10)
	hosted.Start(t, f.svc)
	if v := servicetest.MustRead(t, f.svc, hosted.Code, hosted.Players[0].Token); v.You.SeatCode != "" {
		t.Errorf("a seat of a game a person moderates has the code %q", v.You.SeatCode)
	}
	link = reseat(t, f.svc, hosted, hosted.Players[0].ID).Reseat
	if _, err := f.svc.Join(ctx, hosted.Code, service.JoinRequest{SeatKey: link.Key}); err != nil {
		t.Errorf("a person's console moves a seat without its code: %v", err)
	}
}

// TestReseatTakesTheSeatCodeInTheDealsHandOver: the cards are on the phones
// from the deal on, while the hand-over after it still shows the lobby, so a
// link takes its seat only with the seat's code from then on too (issue 47).
func TestReseatTakesTheSeatCodeInTheDealsHandOver(t *testing.T) {
	f := newFixture(t)
	g := servicetest.NewGame(t, f.svc, service.CreateRequest{Preset: "sport"}, 10)
	dealt := servicetest.MustAct(t, f.svc, g.Code, g.Host, rules.Action{ID: servicetest.ActionID(), Type: rules.ActStart})
	if dealt.Phase.Name != rules.PhaseLobby || !dealt.Phase.Closing {
		t.Fatalf("after the deal: phase %s, closing %v; want the lobby's hand-over", dealt.Phase.Name, dealt.Phase.Closing)
	}
	seat := g.Players[2]
	card := servicetest.MustRead(t, f.svc, g.Code, seat.Token).You
	if card.Role == "" || len(card.SeatCode) != 6 {
		t.Fatalf("the seat's card in the hand-over: role %q, code %q", card.Role, card.SeatCode)
	}
	link := reseat(t, f.svc, g, seat.ID).Reseat
	refusedKey(t, f, g.Code, service.JoinRequest{SeatKey: link.Key}, service.CodeSeatCodeNeeded)
	if j, err := f.svc.Join(ctx, g.Code, service.JoinRequest{SeatKey: link.Key, SeatCode: card.SeatCode}); err != nil || j.PlayerID != seat.ID {
		t.Fatalf("the link with the seat's code: %+v, %v", j, err)
	}
}

// refusedKey fails unless the join is refused with a 403 and the code, and
// leaves the stored game as it was.
func refusedKey(t *testing.T, f fixture, code string, req service.JoinRequest, want string) {
	t.Helper()
	before := f.item(t, code)
	_, err := f.svc.Join(ctx, code, req)
	if e := service.As(err); !errors.Is(err, service.ErrForbidden) || e.Code != want || e.Message == "" {
		t.Errorf("join with %+v: %v (code %q), want %s", req, err, e.Code, want)
	}
	if after := f.item(t, code); after.Version != before.Version || !bytes.Equal(after.State, before.State) {
		t.Errorf("the refused join changed the game: version %d → %d", before.Version, after.Version)
	}
}

// TestSeatKeyRefusals: a key that is forged, malformed, another game's,
// replaced by a newer link, pushed out by newer links of other seats, or whose
// time is up, is refused with a clear 403 and changes nothing; a seat key
// with a name is a 400; a player may not reseat.
func TestSeatKeyRefusals(t *testing.T) {
	f := newFixture(t)
	g := servicetest.NewGame(t, f.svc, service.CreateRequest{Preset: "classic"}, 7)
	g.Start(t, f.svc)
	other := servicetest.NewGame(t, f.svc, service.CreateRequest{Preset: "classic"}, 5)
	otherKey := reseat(t, f.svc, other, "p1").Reseat.Key

	// Links a second apart: p2's, the oldest, goes when a fifth seat's
	// opens; p1's first goes when p1 gets a newer one.
	link := func(id string) string {
		f.clk.Add(time.Second)
		return reseat(t, f.svc, g, id).Reseat.Key
	}
	oldest, replaced := link("p2"), link("p1")
	link("p3")
	link("p4")
	link("p5")
	newer := link("p1")
	if host := servicetest.MustRead(t, f.svc, g.Code, g.Host); !slices.Equal(host.Moving, []string{"p1", "p3", "p4", "p5"}) {
		t.Errorf("open links: %v", host.Moving)
	}
	for what, key := range map[string]string{
		"forged": "AAAAAAAAAAAAAAAAAAAAAAAA", "malformed": "not a key", "too long": strings.Repeat("A", 300),
		"another game's": otherKey, "replaced": replaced, "pushed out": oldest, "the host's token": g.Host,
	} {
		t.Run(what, func(t *testing.T) {
			refusedKey(t, f, g.Code, service.JoinRequest{SeatKey: key}, service.CodeSeatKeyInvalid)
		})
	}

	before := f.item(t, g.Code)
	_, err := f.svc.Join(ctx, g.Code, service.JoinRequest{SeatKey: newer, Name: "Sub"})
	wantErr(t, "a seat key with a name", err, service.ErrInvalid)
	_, err = f.svc.Act(ctx, g.Code, g.Players[0].Token, rules.Action{ID: "r", Type: rules.ActReseat, Target: g.Players[0].ID})
	wantErr(t, "a player's reseat", err, rules.ErrNotHost)
	if after := f.item(t, g.Code); after.Version != before.Version {
		t.Errorf("the refusals changed the game: version %d → %d", before.Version, after.Version)
	}

	f.clk.Add(10 * time.Minute)
	refusedKey(t, f, g.Code, service.JoinRequest{SeatKey: newer}, service.CodeSeatKeyExpired)
	if host := servicetest.MustRead(t, f.svc, g.Code, g.Host); len(host.Moving) != 0 {
		t.Errorf("links past their time are open: %v", host.Moving)
	}
	if j, err := f.svc.Join(ctx, g.Code, service.JoinRequest{SeatKey: reseat(t, f.svc, g, "p1").Reseat.Key, SeatCode: seatCode(t, f.svc, g, "p1")}); err != nil || j.PlayerID != "p1" {
		t.Errorf("a new link after the old one's time: %+v, %v", j, err)
	}
}

// TestSeatKeyJoinIsRetrySafe: a seat key's join sent again with its join id
// (its answer was lost) gets the same seat and token, though the key is used.
func TestSeatKeyJoinIsRetrySafe(t *testing.T) {
	f := newFixture(t)
	g := servicetest.NewGame(t, f.svc, service.CreateRequest{Preset: "classic"}, 5)
	g.Start(t, f.svc)
	req := service.JoinRequest{SeatKey: reseat(t, f.svc, g, "p2").Reseat.Key, SeatCode: seatCode(t, f.svc, g, "p2"), JoinID: "retry-join-0123456789", Device: "new-phone-0123456789"}
	first, err := f.svc.Join(ctx, g.Code, req)
	if err != nil {
		t.Fatal(err)
	}
	version := f.item(t, g.Code).Version
	again, err := f.svc.Join(ctx, g.Code, req)
	if err != nil || again.PlayerID != first.PlayerID || again.Token != first.Token {
		t.Fatalf("sent again: %+v, %v; first %+v", again, err, first)
	}
	if f.item(t, g.Code).Version != version {
		t.Error("the join sent again wrote the game")
	}
}

// TestReseatReplayGivesNoKey: a reseat sent again with its id changes nothing
// and shows no key (the game keeps only its hash); the first answer's key
// still works.
func TestReseatReplayGivesNoKey(t *testing.T) {
	f := newFixture(t)
	g := servicetest.NewGame(t, f.svc, service.CreateRequest{Preset: "classic"}, 5)
	a := rules.Action{ID: "reseat-1", Type: rules.ActReseat, Target: "p3"}
	first := servicetest.MustAct(t, f.svc, g.Code, g.Host, a)
	again := servicetest.MustAct(t, f.svc, g.Code, g.Host, a)
	if first.Reseat == nil || again.Reseat != nil || again.Version != first.Version || !slices.Equal(again.Moving, []string{"p3"}) {
		t.Fatalf("first %+v (version %d), again %+v (version %d, moving %v)", first.Reseat, first.Version, again.Reseat, again.Version, again.Moving)
	}
	if j, err := f.svc.Join(ctx, g.Code, service.JoinRequest{SeatKey: first.Reseat.Key, SeatCode: seatCode(t, f.svc, g, "p3")}); err != nil || j.PlayerID != "p3" {
		t.Errorf("the first key: %+v, %v", j, err)
	}
}

// TestReseatInTheLobby: a seat moved in the lobby takes the new phone's
// device, so that the host's ban refuses that phone; a seat that leaves
// takes its open link along, and the seat id given again is not moved by it.
func TestReseatInTheLobby(t *testing.T) {
	f := newFixture(t)
	g := servicetest.NewGame(t, f.svc, service.CreateRequest{Preset: "classic"}, 3)
	j, err := f.svc.Join(ctx, g.Code, service.JoinRequest{SeatKey: reseat(t, f.svc, g, "p2").Reseat.Key, SeatCode: seatCode(t, f.svc, g, "p2"), Device: "new-phone-0123456789"})
	if err != nil || j.PlayerID != "p2" || j.Game.Phase.Name != rules.PhaseLobby {
		t.Fatalf("the move in the lobby: %+v, %v", j, err)
	}
	servicetest.MustAct(t, f.svc, g.Code, g.Host, rules.Action{ID: "ban", Type: rules.ActBan, Target: "p2"})
	_, err = f.svc.Join(ctx, g.Code, service.JoinRequest{Name: "Back again", Device: "new-phone-0123456789"})
	wantErr(t, "the moved seat's phone after the ban", err, rules.ErrBanned)

	key := reseat(t, f.svc, g, "p3").Reseat.Key
	servicetest.MustAct(t, f.svc, g.Code, g.Players[2].Token, act(rules.ActLeave))
	if j, err := f.svc.Join(ctx, g.Code, service.JoinRequest{Name: "Newcomer"}); err != nil || j.PlayerID != "p2" {
		t.Fatalf("a newcomer: %+v, %v", j, err)
	}
	if j, err := f.svc.Join(ctx, g.Code, service.JoinRequest{Name: "Another"}); err != nil || j.PlayerID != "p3" {
		t.Fatalf("another newcomer: %+v, %v", j, err)
	}
	refusedKey(t, f, g.Code, service.JoinRequest{SeatKey: key}, service.CodeSeatKeyInvalid)
}

// TestMovedSeatPlaysAgain: the token a moved seat got holds in the table's
// next game, like every other.
func TestMovedSeatPlaysAgain(t *testing.T) {
	f := newFixture(t)
	g := servicetest.NewGame(t, f.svc, service.CreateRequest{Preset: "classic"}, 5)
	g.Start(t, f.svc)
	j, err := f.svc.Join(ctx, g.Code, service.JoinRequest{SeatKey: reseat(t, f.svc, g, "p5").Reseat.Key, SeatCode: seatCode(t, f.svc, g, "p5")})
	if err != nil {
		t.Fatal(err)
	}
	g.Players[4].Token = j.Token
	servicetest.PlayToEnd(t, f.svc, g)
	next, err := f.svc.Again(ctx, g.Code, g.Host)
	if err != nil {
		t.Fatal(err)
	}
	if v := servicetest.MustRead(t, f.svc, next.Code, j.Token); v.You == nil || v.You.ID != "p5" {
		t.Errorf("the moved seat in the next game: %+v", v.You)
	}
}
