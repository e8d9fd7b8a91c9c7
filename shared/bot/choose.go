// Package bot is a player that is not a person: given what a player sees (a
// rules.View), it decides what they do next (Choose), and it plays whole
// games with one in every seat, in either of two ways:
//
//   - a Driver plays turn by turn through any Table (the service in-process,
//     the HTTP API, the Lambda functions), a Device in every seat taking its
//     turn in joining order, so that a test can stop the game at the moment
//     it looks at;
//   - a Device runs one client, a phone, the shared screen or the console, on
//     a clock of its own, polling and acting as the page does; the load tool
//     runs one for every client of its games, on the wall clock or a virtual
//     one.
//
// Both decide through Choose, so a change to what the views offer is met in
// one place. The bot chooses only among the actions its own view lists, the
// way the frontend draws its buttons; it never looks at state its player may
// not see.
package bot

import (
	crand "crypto/rand"
	"encoding/base64"
	"math/rand/v2"
	"slices"

	"citysleeps/shared/rules"
)

// Choose picks what a sensible player does in view v, among the actions the view
// offers (as the frontend draws its buttons), or reports false when the player
// should wait:
//
//   - at night every task is done before sleeping; the black team agree on one
//     victim (a teammate's shot already made, else the first living player not
//     known to be black), the Don and the Sheriff check players they have not
//     checked, the Doctor and the protecting roles pick at random;
//   - a speaker sometimes nominates (not a known teammate) and then ends the
//     speech at once; last words, defences and introductions end at once;
//   - every vote is cast at once, for a random candidate (the black team spare
//     their own), and a yes/no vote is a coin toss;
//   - a Commissar who may reveal does so half the time, a testament names a
//     checked player, a best move names as many players as it may, at random
//     (not a known teammate); a hand is raised now and then (R-MANIAC-09).
//
// Optional actions that change nothing for a game played by bots (leave,
// withdraw) are never taken.
func Choose(v rules.View, rng *rand.Rand) (rules.Action, bool) {
	has := func(typ rules.ActionType) (rules.Option, bool) { return option(v, typ) }
	me := ""
	black := false
	if v.You != nil {
		me = v.You.ID
		black = v.You.Team == rules.MafiaTeam
	}
	teammate := func(id string) bool {
		for _, p := range v.Players {
			if p.ID == id {
				return p.Team == rules.MafiaTeam && black
			}
		}
		return false
	}
	// others are the targets that are not the player and, for the black team,
	// not a known teammate; all of them if that leaves none.
	others := func(ts []string) []string {
		out := slices.DeleteFunc(slices.Clone(ts), func(t string) bool { return t == me || teammate(t) })
		if len(out) == 0 {
			return ts
		}
		return out
	}
	pick := func(ts []string) string { return ts[rng.IntN(len(ts))] }

	// Night.
	if o, ok := has(rules.ActKill); ok && len(o.Targets) > 0 {
		t := ""
		if black && v.You != nil {
			for _, s := range v.You.Shots {
				if s.Actor != me && slices.Contains(o.Targets, s.Target) {
					t = s.Target // agree with the team
					break
				}
			}
			if t == "" {
				t = others(o.Targets)[0]
			}
		} else {
			t = pick(others(o.Targets))
		}
		return rules.Action{Type: rules.ActKill, Target: t}, true
	}
	if o, ok := has(rules.ActCheck); ok && len(o.Targets) > 0 {
		fresh := slices.DeleteFunc(others(o.Targets), func(t string) bool {
			return v.You != nil && slices.ContainsFunc(v.You.Checks, func(c rules.Check) bool { return c.Target == t })
		})
		if len(fresh) == 0 {
			fresh = o.Targets
		}
		return rules.Action{Type: rules.ActCheck, Target: pick(fresh)}, true
	}
	for _, typ := range []rules.ActionType{rules.ActHeal, rules.ActProtect, rules.ActDefend} {
		if o, ok := has(typ); ok && len(o.Targets) > 0 {
			return rules.Action{Type: typ, Target: pick(o.Targets)}, true
		}
	}
	if o, ok := has(rules.ActShoot); ok && len(o.Targets) > 0 {
		return rules.Action{Type: rules.ActShoot, Target: pick(others(o.Targets))}, true
	}
	if _, ok := has(rules.ActSleep); ok {
		return rules.Action{Type: rules.ActSleep}, true
	}

	// Day.
	if _, ok := has(rules.ActReveal); ok && rng.IntN(2) == 0 {
		return rules.Action{Type: rules.ActReveal}, true
	}
	if o, ok := has(rules.ActBestMove); ok && len(o.Targets) > 0 {
		named := slices.Clone(others(o.Targets))
		rng.Shuffle(len(named), func(i, j int) { named[i], named[j] = named[j], named[i] })
		return rules.Action{Type: rules.ActBestMove, Targets: named[:min(len(named), o.Max)]}, true
	}
	if o, ok := has(rules.ActTestament); ok && len(o.Targets) > 0 {
		return rules.Action{Type: rules.ActTestament, Target: pick(o.Targets), Verdict: "mafia"}, true
	}
	if o, ok := has(rules.ActNominate); ok && len(o.Targets) > 0 && rng.IntN(2) == 0 {
		return rules.Action{Type: rules.ActNominate, Target: pick(others(o.Targets))}, true
	}
	if _, ok := has(rules.ActEndSpeech); ok {
		return rules.Action{Type: rules.ActEndSpeech}, true
	}
	if o, ok := has(rules.ActVote); ok {
		if len(o.Targets) == 0 || (o.Abstain && rng.IntN(10) == 0) {
			return rules.Action{Type: rules.ActVote}, o.Abstain // an abstention
		}
		return rules.Action{Type: rules.ActVote, Target: pick(others(o.Targets))}, true
	}
	if _, ok := has(rules.ActVoteAll); ok {
		yes := rng.IntN(2) == 0
		return rules.Action{Type: rules.ActVoteAll, Yes: &yes}, true
	}
	if _, ok := has(rules.ActRaiseHand); ok && rng.IntN(20) == 0 {
		return rules.Action{Type: rules.ActRaiseHand}, true
	}
	return rules.Action{}, false
}

// option is what v offers of type typ, if anything.
func option(v rules.View, typ rules.ActionType) (rules.Option, bool) {
	i := slices.IndexFunc(v.Actions, func(o rules.Option) bool { return o.Type == typ })
	if i < 0 {
		return rules.Option{}, false
	}
	return v.Actions[i], true
}

// Awaits reports whether the view asks its player to act: any action but the
// optional ones (leave, withdraw, reveal, raise_hand).
func Awaits(v rules.View) bool {
	for _, o := range v.Actions {
		switch o.Type {
		case rules.ActLeave, rules.ActWithdraw, rules.ActReveal, rules.ActRaiseHand:
		default:
			return true
		}
	}
	return false
}

// ActionID returns a fresh random action id, 22 characters like a client's
// 128-bit one, so that stored sizes measured with bots are realistic.
func ActionID() string {
	b := make([]byte, 16)
	crand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}
