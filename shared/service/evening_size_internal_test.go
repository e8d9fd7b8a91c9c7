package service

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"citysleeps/shared/evening"
	"citysleeps/shared/names"
	"citysleeps/shared/rules"
	"citysleeps/shared/scoring"
	"citysleeps/shared/store"
)

// TestWorstEveningFitsItsItem: the largest evening the bounds allow, stored as
// the service stores it, fits DynamoDB's item with room to spare (issue 47):
// ten sport tables for twelve rounds (evening.MaxTables, MaxRounds: 120 games,
// 1,200 seats, each seat's result with its name, card, best move, worst move
// and points), 100 players present and 100 who left (evening.MaxNames), every
// name at its longest in bytes (names.MaxBytes) in letters drawn at random,
// which deflate cannot shrink, an extra at every seat with all the evening's
// reasons at their bound (evening.MaxReasons) in such letters too, a token
// for every name, a link open for every player, every place moved once, and
// the longest record of actions.
func TestWorstEveningFitsItsItem(t *testing.T) {
	rng := rand.New(rand.NewPCG(47, 47))
	letters := []rune("абвгдежзийклмнопрстуфхцчшщыэюяАБВГДЕЖЗИКЛМНОПРСТУФХЦЧШЩЭЮЯ")
	text := func(bytes int) string {
		var b strings.Builder
		for b.Len()+2 <= bytes {
			b.WriteRune(letters[rng.IntN(len(letters))])
		}
		return b.String()
	}
	opts, err := rules.Preset(rules.PresetSport)
	if err != nil {
		t.Fatal(err)
	}
	roster := make([]string, evening.MaxRoster)
	for i := range roster {
		roster[i] = text(names.MaxBytes)
	}
	st, err := evening.New("WORST1", evening.Settings{Rules: opts, Moderator: rules.ModeratorHost, Lang: "ru",
		Tables: evening.MaxTables, Rounds: evening.MaxRounds, Names: roster, Seed: 47})
	if err != nil {
		t.Fatal(err)
	}
	if st, err = evening.Draw(st); err != nil {
		t.Fatal(err)
	}
	for len(st.Players) < evening.MaxNames { // those who left keep their names
		st.Players = append(st.Players, evening.Player{ID: fmt.Sprintf("p%d", len(st.Players)+1), Name: text(names.MaxBytes), Absent: true})
	}
	seats := 0
	for r := range st.Rounds {
		seated, err := evening.Seated(st, r)
		if err != nil {
			t.Fatal(err)
		}
		codes := make([]string, len(seated))
		for table, players := range seated {
			codes[table] = fmt.Sprintf("G%02d%03d", r, table)
			res := scoring.Result{Code: codes[table], Winner: rules.MafiaTeam}
			for k, p := range players {
				res.Seats = append(res.Seats, scoring.SeatResult{Seat: k + 1, Player: fmt.Sprintf("p%d", k+1), Name: st.Name(p),
					Role: rules.Don, Team: rules.MafiaTeam, Won: true, Left: "killed", FirstKilled: true,
					BestMove: &scoring.BestMove{Targets: []int{1, 2, 3}, Black: 3}, Reason: text(40), WorstMove: true,
					Points: scoring.Parts{Win: 100, BestMove: 40, Extra: -70, AutoBonus: 30, Penalty: -50, Compensation: 40, Total: 90}})
				seats++
			}
			st.Results = append(st.Results, scoring.GameResult{Number: r*st.Tables + table + 1, Players: players, Result: res})
		}
		st.Played = append(st.Played, codes)
	}
	for _, g := range st.Results {
		for _, p := range g.Players {
			st.Extras = append(st.Extras, evening.Extra{Game: g.Result.Code, Player: p, Points: -70, WorstMove: true,
				Reason: text(evening.MaxReasons / seats)})
		}
	}
	it := &eveningItem{State: st, Organizer: hashToken("organiser"), Tokens: map[string][]byte{}, Key: make([]byte, gameKeyLen),
		Moving: seatLinks{}, Moved: map[string]int{}, Referees: make([]int, st.Tables)}
	now := time.Unix(1_800_000_000, 0)
	for i, p := range st.Players {
		it.Tokens[p.ID] = hashToken(fmt.Sprintf("token-%d", i))
		it.Moving.open(p.ID, fmt.Sprintf("key-%d", i), now, 0)
		it.Moved[p.ID] = 1
		it.Acted = rememberIn(it.Acted, rules.Actor{Host: true}, fmt.Sprintf("action-%d", i))
	}
	b, err := encodeEvening(it)
	if err != nil {
		t.Fatal(err)
	}
	size := store.ItemSize(store.Item{Code: eveningKey(st.Code), State: b, Version: 1, ExpiresAt: now})
	t.Logf("the largest evening: %d tables, %d rounds, %d seats, %d names, %d extras: %d bytes stored (%.0f%% of %d)",
		st.Tables, st.Rounds, seats, len(st.Players), len(st.Extras), size, 100*float64(size)/store.MaxItemSize, store.MaxItemSize)
	if size > store.MaxItemSize/2 {
		t.Errorf("the largest evening takes %d bytes, over half the item's %d", size, store.MaxItemSize)
	}
}
