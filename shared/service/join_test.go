package service_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"citysleeps/shared/names"
	"citysleeps/shared/rules"
	"citysleeps/shared/service"
	"citysleeps/shared/service/servicetest"
	"citysleeps/shared/store"
)

// lostAfterWrite is a Store whose writes land and then, while lost is set,
// report a failure: a join whose 201 never reached the phone.
type lostAfterWrite struct {
	store.Store
	lost bool
}

func (l *lostAfterWrite) Update(ctx context.Context, code string, v int64, b []byte, exp time.Time) (int64, error) {
	n, err := l.Store.Update(ctx, code, v, b, exp)
	if err == nil && l.lost {
		return 0, servicetest.ErrInjected
	}
	return n, err
}

// TestJoinIsRetrySafe: a join whose answer is lost, sent again with the same
// join id, gets the same seat and a token that works, and not a second seat or
// name_taken (issue 12). Another join id is another player.
func TestJoinIsRetrySafe(t *testing.T) {
	mem := store.NewMemory()
	lossy := &lostAfterWrite{Store: mem, lost: true}
	svc := service.New(lossy, service.WithLogger(quiet), service.WithMaxRetries(1))
	c, err := svc.Create(ctx, service.CreateRequest{Preset: "classic"})
	if err != nil {
		t.Fatal(err)
	}
	req := service.JoinRequest{Name: "Anna", JoinID: "j0b8e6d1c5b8e4c55", Device: "d3f2c1b0a9f8e7d6c5"}
	if _, err := svc.Join(ctx, c.Code, req); !errors.Is(err, service.ErrUnavailable) {
		t.Fatalf("the lost join: %v", err)
	}
	lossy.lost = false
	j, err := svc.Join(ctx, c.Code, req)
	if err != nil {
		t.Fatalf("the join sent again: %v", err)
	}
	again, err := svc.Join(ctx, c.Code, req)
	if err != nil || again.PlayerID != j.PlayerID || again.Token != j.Token {
		t.Fatalf("a third time: %+v, %v; want %s with the same token", again, err, j.PlayerID)
	}
	v := servicetest.MustRead(t, svc, c.Code, j.Token)
	if len(v.Players) != 1 || v.You == nil || v.You.ID != j.PlayerID {
		t.Fatalf("after the retries: players %+v, you %+v", v.Players, v.You)
	}
	servicetest.MustAct(t, svc, c.Code, j.Token, rules.Action{ID: "leave-1", Type: rules.ActLeave})

	// The join id's token is the seat's: once the seat is gone, the same id
	// takes a new one; another id with the same name is another player.
	j2, err := svc.Join(ctx, c.Code, req)
	if err != nil {
		t.Fatal(err)
	}
	other := req
	other.JoinID = "another-join-id-123"
	_, err = svc.Join(ctx, c.Code, other)
	wantErr(t, "another join id, the same name", err, rules.ErrNameTaken)
	if _, err := svc.Read(ctx, c.Code, j2.Token); err != nil {
		t.Errorf("the new seat's token: %v", err)
	}
	for _, bad := range []service.JoinRequest{{Name: "Bob", JoinID: "short"}, {Name: "Bob", Device: "has spaces in it!!"}} {
		_, err := svc.Join(ctx, c.Code, bad)
		wantErr(t, fmt.Sprintf("%+v", bad), err, service.ErrInvalid)
	}
}

// TestJoinLookalike: a name that looks like one at the table is refused with
// a 4xx (issue 12): 409 name_lookalike, or name_taken for one that is the
// same once normalized (𝐀𝐧𝐧𝐚 is stored as Anna), or 400 for a hidden
// character; and a refused join changes nothing. The names are each kind of
// look-alike of "Anna" seen, of which the first eight got in before names were
// compared by Unicode's skeletons.
func TestJoinLookalike(t *testing.T) {
	f := newFixture(t)
	c, _ := f.svc.Create(ctx, service.CreateRequest{Preset: "classic"})
	if _, err := f.svc.Join(ctx, c.Code, service.JoinRequest{Name: "Anna"}); err != nil {
		t.Fatal(err)
	}
	before := f.item(t, c.Code).Version
	for name, code := range map[string]string{
		"𝐀𝐧𝐧𝐚": rules.ErrNameTaken.Code, "𝖠𝗇𝗇𝖺": rules.ErrNameTaken.Code, "Ⓐnna": rules.ErrNameTaken.Code,
		"Ꭺnna": names.CodeLookalike, "Annɑ": names.CodeLookalike, "Aոոa": names.CodeLookalike, "ᴀɴɴᴀ": names.CodeLookalike,
		"Anna.": names.CodeLookalike, "Аnna": names.CodeLookalike, "ANNA": names.CodeLookalike, "Ａｎｎａ": rules.ErrNameTaken.Code,
		"Ann\u200da": names.CodeHidden, "An\u0301na": names.CodeLookalike,
	} {
		_, err := f.svc.Join(ctx, c.Code, service.JoinRequest{Name: name})
		if e := service.As(err); e.Code != code || e.Kind != service.ErrConflict && e.Kind != service.ErrInvalid {
			t.Errorf("%q: %v (%s, %s), want %s", name, err, e.Kind, e.Code, code)
		}
	}
	if f.item(t, c.Code).Version != before {
		t.Error("a refused join changed the game")
	}
	for _, name := range []string{"Аня", "Ann", "Anna K", "Ivana"} {
		if _, err := f.svc.Join(ctx, c.Code, service.JoinRequest{Name: name}); err != nil {
			t.Errorf("%q: %v", name, err)
		}
	}
}

// TestJoinReserved: a name that reads as the page's own words or marks, in
// any of the app's languages, is refused with 400 name_reserved, and changes
// nothing.
func TestJoinReserved(t *testing.T) {
	f := newFixture(t)
	c, _ := f.svc.Create(ctx, service.CreateRequest{Preset: "classic", Lang: "ru"})
	before := f.item(t, c.Code).Version
	for _, name := range []string{"★ You", "Вы", "Ви", "Tu", "#3 Anna", "№3 Аня", "Nobody", "N0body", "Nobоdy", "Никого", "Confirm", "Confirmă", "Mă abțin", "☠ Out"} {
		_, err := f.svc.Join(ctx, c.Code, service.JoinRequest{Name: name})
		wantErr(t, name, err, service.ErrInvalid)
		if code := service.As(err).Code; code != names.CodeReserved {
			t.Errorf("%s: code %q", name, code)
		}
	}
	if f.item(t, c.Code).Version != before {
		t.Error("a refused join changed the game")
	}
}

// TestJoinLimit: a game gives 40 seats at once and then one every 6 s, so
// joining and leaving in a loop, from however many addresses, is slowed to ten
// writes a minute (issue 12), while a whole table joins at once.
func TestJoinLimit(t *testing.T) {
	f := newFixture(t)
	c, _ := f.svc.Create(ctx, service.CreateRequest{Preset: "party"})
	g := servicetest.Game{Code: c.Code, Host: c.HostToken}
	for i := range 30 {
		j, err := f.svc.Join(ctx, c.Code, service.JoinRequest{Name: fmt.Sprintf("Guest %d", i)})
		if err != nil {
			t.Fatalf("guest %d of a full party table: %v", i, err)
		}
		g.Players = append(g.Players, servicetest.Seat{ID: j.PlayerID, Token: j.Token})
	}
	churn := func() error {
		j, err := f.svc.Join(ctx, c.Code, service.JoinRequest{Name: "Troll"})
		if err == nil {
			_, err = f.svc.Act(ctx, c.Code, j.Token, rules.Action{ID: "bye", Type: rules.ActLeave})
		}
		return err
	}
	servicetest.MustAct(t, f.svc, c.Code, g.Host, rules.Action{ID: "k", Type: rules.ActKick, Target: g.Players[0].ID})
	for i := range 10 {
		if err := churn(); err != nil {
			t.Fatalf("join %d of 40: %v", 31+i, err)
		}
	}
	before := f.item(t, c.Code).Version
	err := churn()
	wantErr(t, "join 41 at once", err, service.ErrLimited)
	if wait := service.As(err).RetryAfter; wait <= 0 || wait > 6*time.Second {
		t.Errorf("retry after %v, want up to 6 s", wait)
	}
	if f.item(t, c.Code).Version != before {
		t.Error("a join over the limit changed the game")
	}
	f.clk.Add(6 * time.Second)
	if err := churn(); err != nil {
		t.Fatalf("a join 6 s later: %v", err)
	}
	wantErr(t, "and another at once", churn(), service.ErrLimited)
	f.clk.Add(time.Hour)
	for i := range 10 {
		if err := churn(); err != nil {
			t.Fatalf("an hour later, join %d: %v", i, err)
		}
	}
}

// TestBanByDevice: the host bans a seat and its device; that device cannot
// join again under any name, another device can (issue 12).
func TestBanByDevice(t *testing.T) {
	f := newFixture(t)
	c, _ := f.svc.Create(ctx, service.CreateRequest{Preset: "classic"})
	troll, err := f.svc.Join(ctx, c.Code, service.JoinRequest{Name: "Troll", Device: "troll-device-0123456"})
	if err != nil {
		t.Fatal(err)
	}
	servicetest.MustAct(t, f.svc, c.Code, c.HostToken, rules.Action{ID: "b", Type: rules.ActBan, Target: troll.PlayerID})
	if _, err := f.svc.Read(ctx, c.Code, troll.Token); !errors.Is(err, service.ErrUnauthorized) {
		t.Errorf("the banned seat's token still reads: %v", err)
	}
	for range 20 {
		_, err := f.svc.Join(ctx, c.Code, service.JoinRequest{Name: "Not a troll", Device: "troll-device-0123456"})
		wantErr(t, "the banned device", err, rules.ErrBanned)
	}
	if _, err := f.svc.Join(ctx, c.Code, service.JoinRequest{Name: "Anna", Device: "anna-device-01234567"}); err != nil {
		t.Errorf("another device: %v", err)
	}
	servicetest.MustAct(t, f.svc, c.Code, c.HostToken, rules.Action{ID: "l", Type: rules.ActLock})
	_, err = f.svc.Join(ctx, c.Code, service.JoinRequest{Name: "Boris"})
	wantErr(t, "a locked lobby", err, rules.ErrLocked)
	data, _ := service.StoredJSON(f.item(t, c.Code).State)
	for _, raw := range []string{"troll-device", "anna-device"} {
		if bytes.Contains(data, []byte(raw)) {
			t.Errorf("the stored game holds the device id %q", raw)
		}
	}
}
