package bot_test

import (
	"context"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"testing"

	"citysleeps/shared/bot"
	"citysleeps/shared/rules"
	"citysleeps/shared/service"
	"citysleeps/shared/store"
)

// TestToEndEveryPreset: the bots finish a game of every rule set, with the app
// and with a person moderating, at the smallest table and a larger one.
func TestToEndEveryPreset(t *testing.T) {
	ctx := context.Background()
	for _, preset := range rules.Presets {
		opts, err := rules.Preset(preset)
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range []int{opts.MinPlayers, min(opts.MaxPlayers, 12)} {
			for _, mod := range []string{rules.ModeratorApp, rules.ModeratorHost} {
				t.Run(fmt.Sprintf("%s/%d/%s", preset, n, mod), func(t *testing.T) {
					svc := service.New(store.NewMemory(), service.WithLogger(slog.New(slog.DiscardHandler)))
					c, err := svc.Create(ctx, service.CreateRequest{Preset: preset, Moderator: mod})
					if err != nil {
						t.Fatal(err)
					}
					d := &bot.Driver{Table: svc, Seats: bot.Seats{Code: c.Code, Host: c.HostToken}, Rand: rand.New(rand.NewPCG(uint64(n), 1))}
					for i := range n {
						j, err := svc.Join(ctx, c.Code, service.JoinRequest{Name: fmt.Sprintf("Player %d", i+1)})
						if err != nil {
							t.Fatal(err)
						}
						d.Seats.Players = append(d.Seats.Players, j.Token)
					}
					if _, err := svc.Act(ctx, c.Code, c.HostToken, rules.Action{ID: bot.ActionID(), Type: rules.ActStart}); err != nil {
						t.Fatal(err)
					}
					end, err := d.ToEnd(ctx)
					if err != nil {
						t.Fatal(err)
					}
					if end.Phase.Name != rules.PhaseGameOver || d.Actions == 0 {
						t.Errorf("ended in phase %s after %d actions", end.Phase.Name, d.Actions)
					}
				})
			}
		}
	}
}
