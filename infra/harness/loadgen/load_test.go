package loadgen

import (
	"context"
	"testing"

	"citysleeps/shared/rules"
)

// TestLoadBolt plays a game of every rule set at once through the HTTP API of
// the local server's wiring on the embedded store, bots polling at the server's
// cadence (sped up), and checks every acknowledged action against the final logs.
func TestLoadBolt(t *testing.T) {
	t.Parallel()
	target, err := Start(context.Background(), TargetOptions{Store: StoreBolt, Dir: t.TempDir(), RateLimit: true})
	if err != nil {
		t.Fatal(err)
	}
	defer target.Close()
	rep := play(t, target.URL, target, Config{Games: scale(4, 40), Presets: AllPresets})
	requireIntact(t, rep)
	for _, p := range AllPresets {
		if rep.ByPreset[p] == 0 {
			t.Errorf("no %s game finished", p)
		}
	}
	if rep.Kinds[KindPoll304].StoreCalls == 0 || rep.Share304 == 0 {
		t.Errorf("no poll was answered 304 (share %.3f)", rep.Share304)
	}
	if rep.ItemMax == 0 || rep.ReadUnitsGame == 0 || rep.WriteUnitsGame == 0 {
		t.Errorf("store figures missing: item %d B, %.1f RRU, %.1f WRU per game", rep.ItemMax, rep.ReadUnitsGame, rep.WriteUnitsGame)
	}
}

// TestLoadDynamo plays games on the DynamoDB store, served by dynalite on
// loopback, and checks the capacity DynamoDB reports against the units the
// meter works out from the item sizes.
func TestLoadDynamo(t *testing.T) {
	t.Parallel()
	target, err := Start(context.Background(), TargetOptions{Store: StoreDynamo, RateLimit: true})
	if err != nil {
		t.Fatalf("dynalite is needed (npm ci at the repository root): %v", err)
	}
	defer target.Close()
	rep := play(t, target.URL, target, Config{Games: scale(2, 20), Presets: []string{rules.PresetSport, rules.PresetManiac}, FirstSource: 5000})
	requireIntact(t, rep)
	if rep.HookRead == 0 || rep.HookWrite == 0 {
		t.Fatalf("the DynamoDB store reported no capacity (read %.1f, write %.1f per game)", rep.HookRead, rep.HookWrite)
	}
	// DynamoDB's own count and the meter's should be close; the store also reads
	// after a refused write to tell a conflict from a missing game, which the
	// meter does not count, so reads may be a little higher.
	if r := rep.HookWrite / rep.WriteUnitsGame; r < 0.8 || r > 1.25 {
		t.Errorf("write units: DynamoDB reported %.1f per game, the meter %.1f", rep.HookWrite, rep.WriteUnitsGame)
	}
	if r := rep.HookRead / rep.ReadUnitsGame; r < 0.8 || r > 1.5 {
		t.Errorf("read units: DynamoDB reported %.1f per game, the meter %.1f", rep.HookRead, rep.ReadUnitsGame)
	}
}
