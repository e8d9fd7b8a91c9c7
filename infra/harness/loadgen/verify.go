package loadgen

import (
	"fmt"
	"strconv"
	"strings"

	"citysleeps/shared/rules"
)

// Ack is an action the API acknowledged (200), as the bot that sent it saw the
// game when it chose it.
type Ack struct {
	ID      string           `json:"id"`
	Type    rules.ActionType `json:"type"`
	Target  string           `json:"target,omitempty"`
	Targets []string         `json:"targets,omitempty"`
	Yes     *bool            `json:"yes,omitempty"`
	Verdict rules.Verdict    `json:"verdict,omitempty"`
	Day     int              `json:"day"`
	Night   int              `json:"night"`
	Phase   rules.PhaseName  `json:"phase"`
	Version int64            `json:"version"` // of the view that answered it
}

// ackOf describes action a, chosen in view v.
func ackOf(a rules.Action, v View) Ack {
	return Ack{ID: a.ID, Type: a.Type, Target: a.Target, Targets: a.Targets, Yes: a.Yes, Verdict: a.Verdict,
		Day: v.Phase.Day, Night: v.Phase.Night, Phase: v.Phase.Name}
}

// Check is the outcome of comparing what a client was told with a game's final
// event log.
type Check struct {
	// Acked is the number of acknowledged actions; Checked of them have an event
	// in the log that proves they were applied; NoEvent are of types that leave
	// none (sleep, end_speech, advance), which the bots check by watching their
	// views instead (a task offered again, a speech begun again, a version going back).
	Acked, Checked, NoEvent int
	// Lost are acknowledged actions missing from the log (must be 0); Doubled are
	// actions in the log more often than they were sent (must be 0).
	Lost, Doubled int
	// Unacked are applied actions whose sender got no acknowledgement (it gave
	// up, or the rules filled in a missing vote): not an error.
	Unacked int
	// Misreported are actions that were applied although the answer to a
	// retry of the same request (same id) was a refusal: the client was told
	// "not possible" for an action that counted (must be 0).
	Misreported int
	// Problems describe every lost or doubled action.
	Problems []string
}

// Add adds o to c.
func (c *Check) Add(o Check) {
	c.Acked += o.Acked
	c.Checked += o.Checked
	c.NoEvent += o.NoEvent
	c.Lost += o.Lost
	c.Doubled += o.Doubled
	c.Unacked += o.Unacked
	c.Misreported += o.Misreported
	c.Problems = append(c.Problems, o.Problems...)
}

// keyOf is the log key of an acknowledged action, or "" for a type that leaves no event.
func keyOf(actor string, a Ack) string {
	switch a.Type {
	case rules.ActKill, rules.ActCheck, rules.ActHeal, rules.ActProtect, rules.ActDefend, rules.ActShoot:
		return fmt.Sprintf("night %d: %s %s %s", a.Night, actor, a.Type, a.Target)
	case rules.ActNominate:
		return fmt.Sprintf("day %d: %s nominate %s", a.Day, actor, a.Target)
	case rules.ActVote:
		return fmt.Sprintf("day %d: %s vote %q", a.Day, actor, a.Target)
	case rules.ActVoteAll:
		return fmt.Sprintf("day %d: %s vote_all %v", a.Day, actor, a.Yes != nil && *a.Yes)
	case rules.ActTestament:
		return fmt.Sprintf("day %d: %s testament %s %s", a.Day, actor, a.Target, a.Verdict)
	case rules.ActBestMove:
		return fmt.Sprintf("night %d: %s best_move %s", a.Night, actor, strings.Join(a.Targets, " "))
	case rules.ActReveal:
		return fmt.Sprintf("%s reveal", actor)
	case rules.ActRaiseHand:
		return fmt.Sprintf("day %d: %s raise_hand", a.Day, actor)
	case rules.ActStart:
		return "start"
	}
	return ""
}

// eventKeys lists the keys of everything actor did according to the log.
// Events of day d carry Day d; night acts carry the night's number.
func eventKeys(events []rules.Event, actor string) map[string]int {
	out := map[string]int{}
	for _, e := range events {
		switch e.Type {
		case rules.EvAct:
			if e.Actor == actor {
				out[fmt.Sprintf("night %d: %s %s %s", e.Night, actor, e.Result, e.Target)]++
			}
		case rules.EvNominated:
			if e.Actor == actor {
				out[fmt.Sprintf("day %d: %s nominate %s", e.Day, actor, e.Target)]++
			}
		case rules.EvVoted:
			for _, b := range e.Ballots {
				if b.Voter != actor {
					continue
				}
				if e.Result != "" || b.Yes {
					out[fmt.Sprintf("day %d: %s vote_all %v", e.Day, actor, b.Yes)]++
				} else {
					out[fmt.Sprintf("day %d: %s vote %q", e.Day, actor, b.Target)]++
				}
			}
		case rules.EvTestament:
			if e.Actor == actor {
				out[fmt.Sprintf("day %d: %s testament %s %s", e.Day, actor, e.Target, e.Result)]++
			}
		case rules.EvBestMove:
			if e.Actor == actor {
				out[fmt.Sprintf("night %d: %s best_move %s", e.Night, actor, strings.Join(e.Targets, " "))]++
			}
		case rules.EvRevealed:
			if e.Actor == actor {
				out[actor+" reveal"]++
			}
		case rules.EvHand:
			if e.Target == actor {
				out[fmt.Sprintf("day %d: %s raise_hand", e.Day, actor)]++
			}
		case rules.EvStarted:
			if actor == "host" {
				out["start"]++
			}
		}
	}
	return out
}

// Verify checks the acknowledged actions of actor ("host" for the host) against
// the game's full event log (as the game-over view shows it): each must be there
// exactly once. unknown counts, by the same keys, actions that were sent but got
// no final answer, which may or may not have been applied; refusedRetry those
// whose final answer, to a retry, was a refusal. autofill says that the rules
// cast missing votes themselves (R-SPORT-05), so a ballot the player did not
// send is not a doubled one.
func Verify(events []rules.Event, actor string, acks []Ack, unknown, refusedRetry map[string]int, autofill bool) Check {
	var c Check
	want := map[string]int{}
	for _, a := range acks {
		c.Acked++
		k := keyOf(actor, a)
		if k == "" {
			c.NoEvent++
			continue
		}
		want[k]++
	}
	got := eventKeys(events, actor)
	for k, n := range want {
		g := got[k]
		c.Checked += min(n, g)
		if g < n {
			c.Lost += n - g
			c.Problems = append(c.Problems, "lost: "+k+" acknowledged "+strconv.Itoa(n)+"×, in the log "+strconv.Itoa(g)+"×")
		}
	}
	for k, g := range got {
		n := want[k]
		if g <= n {
			continue
		}
		extra := g - n
		if u := unknown[k]; u > 0 {
			c.Unacked += min(extra, u)
			extra -= min(extra, u)
		}
		if u := refusedRetry[k]; u > 0 && extra > 0 {
			c.Misreported += min(extra, u)
			c.Problems = append(c.Problems, "applied but refused on a retry: "+k)
			extra -= min(extra, u)
		}
		if extra > 0 && autofill && isVoteKey(k) {
			c.Unacked += extra
			extra = 0
		}
		if extra > 0 {
			c.Doubled += extra
			c.Problems = append(c.Problems, "doubled: "+k+" acknowledged "+strconv.Itoa(n)+"×, in the log "+strconv.Itoa(g)+"×")
		}
	}
	return c
}

func isVoteKey(k string) bool { return strings.Contains(k, " vote ") }
