package ratings_test

import (
	"encoding/json"
	"fmt"
	"time"

	"citysleeps/shared/protocol"
	"citysleeps/shared/ratings"
	"citysleeps/shared/rules"
)

// The example game of docs/PROTOCOL.md, told to mafiaratings: seat 1, the
// Don, shot seat 7 on night 2, the first night of shots (round 1), and the
// Sheriff checked him then; seat 5 left by the car crash of day 1 (round 0),
// whose two votes and "shall they all leave?" the array tells; seat 7, killed
// on night 2, named seats 1, 2 and 9 in the best move.
func Example() {
	var p protocol.Protocol
	if err := json.Unmarshal([]byte(clubGame), &p); err != nil {
		panic(err)
	}
	p.Rules, _ = rules.Preset(rules.PresetSport)
	p.Rules.BestMove = true

	g, err := ratings.MafiaRatings(p, ratings.ClubID(42), ratings.Times(p.Created, p.Created.Add(50*time.Minute)))
	if u, ok := ratings.AsUnsupported(err); ok {
		fmt.Println("422:", u.Reason)
		return
	}
	fmt.Println(g.Features, g.Rules, g.Winner, g.StartTime, g.EndTime)
	for _, n := range []int{1, 5, 7} {
		data, _ := json.Marshal(g.Players[n-1])
		fmt.Println(string(data))
	}
	// Output:
	// gsdutclhvknwr 0000000100100 maf 2026-11-29T20:00:00Z 2026-11-29T20:50:00Z
	// {"name":"Player 1","role":"don","sheriff":1,"nominating":[5],"voting":[[6,6,true]],"shooting":[7]}
	// {"name":"Player 5","role":"civ","death":{"round":0,"type":"day"},"voting":[[5,5,true]]}
	// {"name":"Player 7","role":"civ","death":{"round":1,"type":"night"},"legacy":[1,2,9],"voting":[[5,5,false]]}
}
