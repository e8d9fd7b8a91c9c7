package loadgen

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"slices"
	"sync"
	"testing"

	"citysleeps/shared/bot"
	"citysleeps/shared/rules"
)

// table is a game set up through the API for a test: the host's client and
// token, and each player's.
type table struct {
	code    string
	host    *Client
	hostTok string
	ids     []string
	clients map[string]*Client
	tokens  map[string]string
}

// newTable creates a game of preset with n players through the API and starts it.
func newTable(t testing.TB, base string, preset string, n, firstSource int) *table {
	t.Helper()
	tb := newLobby(t, base, preset, n, firstSource)
	if r := tb.act(t, tb.host, tb.hostTok, rules.Action{ID: "start", Type: rules.ActStart}); r.Status != http.StatusOK {
		t.Fatalf("start: %d %s", r.Status, r.Body)
	}
	return tb
}

// view reads the game as token's holder sees it.
func (tb *table) view(t testing.TB, c *Client, token string) View {
	t.Helper()
	r, err := c.Do(context.Background(), "", http.MethodGet, "/api/games/"+tb.code, token, nil, "")
	if err != nil || r.Status != http.StatusOK {
		t.Fatalf("read %s: %v %d %s", tb.code, err, r.Status, r.Body)
	}
	var v View
	if err := json.Unmarshal(r.Body, &v); err != nil {
		t.Fatal(err)
	}
	return v
}

// driver returns a bot.Driver of the game through the players' own clients,
// its bots choosing with rng.
func (tb *table) driver(rng *rand.Rand) *bot.Driver {
	d := &bot.Driver{Table: tb, Seats: bot.Seats{Code: tb.code, Host: tb.hostTok}, Rand: rng}
	for _, id := range tb.ids {
		d.Seats.Players = append(d.Seats.Players, tb.tokens[id])
	}
	return d
}

// Read is bot.Table's: the view of token's holder, through their own client.
func (tb *table) Read(ctx context.Context, code, token string) (rules.View, error) {
	r, err := tb.client(token).Do(ctx, "", http.MethodGet, "/api/games/"+code, token, nil, "")
	return decodeAnswer(r, err)
}

// Act is bot.Table's: one action, through the player's own client.
func (tb *table) Act(ctx context.Context, code, token string, a rules.Action) (rules.View, error) {
	r, err := tb.client(token).JSON(ctx, "", http.MethodPost, "/api/games/"+code+"/actions", token, a)
	return decodeAnswer(r, err)
}

// client is the client of token's holder.
func (tb *table) client(token string) *Client {
	for id, t := range tb.tokens {
		if t == token {
			return tb.clients[id]
		}
	}
	return tb.host
}

// decodeAnswer is the view a 200 carries; any other answer is an error.
func decodeAnswer(r Response, err error) (rules.View, error) {
	var v View
	if err == nil && r.Status != http.StatusOK {
		err = fmt.Errorf("status %d: %s", r.Status, r.Body)
	}
	if err == nil {
		err = json.Unmarshal(r.Body, &v)
	}
	return v.View, err
}

// act sends one action.
func (tb *table) act(t testing.TB, c *Client, token string, a rules.Action) Response {
	t.Helper()
	r, err := c.JSON(context.Background(), "", http.MethodPost, "/api/games/"+tb.code+"/actions", token, a)
	if err != nil {
		t.Fatalf("act %+v: %v", a, err)
	}
	return r
}

// TestFaultDuplicateRequests plays a whole game in which every action is sent
// twice at the same instant with the same id (as a phone does whose first
// request seemed lost), and now and then an action already applied a few
// steps before is sent again late (a retry overtaken by later actions). Each
// must be applied once: the game's version moves by exactly one per action,
// the late copies change nothing, and at the end the log holds each action once.
func TestFaultDuplicateRequests(t *testing.T) {
	t.Parallel()
	target, err := Start(context.Background(), TargetOptions{Store: StoreBolt, Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer target.Close()
	presets := []string{rules.PresetSport}
	if *long {
		presets = AllPresets
	}
	for _, preset := range presets {
		t.Run(preset, func(t *testing.T) {
			dupGame(t, target.URL, preset, 30000+20*slices.Index(AllPresets, preset))
		})
	}
}

func dupGame(t *testing.T, base, preset string, firstSource int) {
	tb := newTable(t, base, preset, 10, firstSource)
	rng := rand.New(rand.NewPCG(9, 9))
	d := tb.driver(rng)
	type sent struct {
		player string
		a      rules.Action
	}
	var history []sent
	acks := map[string][]Ack{}
	pairs, late, both200 := 0, 0, 0
	for step := 0; step < 600; step++ {
		before := tb.view(t, tb.host, tb.hostTok)
		if before.Winner != nil {
			break
		}
		// The first player, from a random seat, whose view offers something.
		m, found, err := d.Next(context.Background(), rng.IntN(len(tb.ids)))
		if err != nil {
			t.Fatal(err)
		}
		if !found {
			// Everybody waits on a deadline: the host moves on.
			if r := tb.act(t, tb.host, tb.hostTok, rules.Action{ID: fmt.Sprintf("adv-%d", step), Type: rules.ActAdvance, Now: true}); r.Status != http.StatusOK {
				t.Fatalf("advance: %d %s", r.Status, r.Body)
			}
			continue
		}
		who, a, chosenIn := tb.ids[m.Player], m.Action, View{View: m.View}
		a.ID = fmt.Sprintf("s%d-%s", step, who)
		// The same request twice, at the same instant.
		var wg sync.WaitGroup
		var res [2]Response
		var errs [2]error
		release := make(chan struct{})
		for i := range 2 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-release
				res[i], errs[i] = tb.clients[who].JSON(context.Background(), "", http.MethodPost, "/api/games/"+tb.code+"/actions", tb.tokens[who], a)
			}()
		}
		close(release)
		wg.Wait()
		pairs++
		ok := 0
		for i := range 2 {
			if errs[i] != nil {
				t.Fatalf("step %d: %v", step, errs[i])
			}
			if res[i].Status == http.StatusOK {
				ok++
			}
		}
		after := tb.view(t, tb.host, tb.hostTok)
		switch {
		case ok == 0:
			t.Fatalf("step %d: %s %+v: neither copy applied: %d %s / %d %s", step, who, a, res[0].Status, res[0].Body, res[1].Status, res[1].Body)
		case ok == 1:
			t.Errorf("step %d: %s %+v: one copy answered %d %s / %d %s: a retry of an applied action must get its view, not a refusal",
				step, who, a, res[0].Status, res[0].ErrorCode(), res[1].Status, res[1].ErrorCode())
		default:
			both200++
		}
		if after.Version != before.Version+1 {
			t.Fatalf("step %d: %s %+v sent twice moved the version from %d to %d", step, who, a, before.Version, after.Version)
		}
		ack := ackOf(a, chosenIn)
		acks[who] = append(acks[who], ack)
		history = append(history, sent{who, a})
		// Now and then a late copy of an action applied a few steps ago.
		if len(history) > 3 && rng.IntN(4) == 0 {
			old := history[len(history)-2-rng.IntN(3)]
			r := tb.act(t, tb.clients[old.player], tb.tokens[old.player], old.a)
			again := tb.view(t, tb.host, tb.hostTok)
			if r.Status != http.StatusOK || again.Version != after.Version {
				t.Fatalf("late copy of %s %+v: %d %s, version %d → %d", old.player, old.a, r.Status, r.Body, after.Version, again.Version)
			}
			late++
		}
	}
	end := tb.view(t, tb.host, tb.hostTok)
	if end.Winner == nil {
		t.Fatalf("game %s not over after 600 steps (phase %s)", tb.code, end.Phase.Name)
	}
	var c Check
	autofill := end.Rules.MissingVotesToLastNominee()
	for id, as := range acks {
		c.Add(Verify(end.Events, id, as, nil, nil, autofill))
	}
	if c.Lost != 0 || c.Doubled != 0 {
		t.Errorf("final log: %d lost, %d doubled: %v", c.Lost, c.Doubled, c.Problems)
	}
	t.Logf("%s game %s: %d actions sent twice at once (%d answered 200 both times), %d late copies; %d of %d acknowledged actions proven in the log",
		preset, tb.code, pairs, both200, late, c.Checked, c.Acked)
}
