package rules

import "strings"

// RuleID names one rule of docs/RULES.md, such as "R-SPORT-05". Every event
// that tells an outcome carries the rule that decided it (Event.Rule): a player
// leaving, a day without a sentence, a save, a shot that came too late, the end
// of the game. So a record of the game (its protocol) names the rule as the
// engine applied it, and never works it out again from the options.
type RuleID string

// cite returns, of the rules that tell one thing in different rule sets, the
// one of this game's own rule set (its preset's; a custom game starts from
// sport, R-SPORT), or else the first of them.
func (o Options) cite(ids ...RuleID) RuleID {
	set := o.Preset
	if set == PresetCustom {
		set = PresetSport
	}
	prefix := "R-" + strings.ToUpper(set) + "-"
	for _, id := range ids {
		if strings.HasPrefix(string(id), prefix) {
			return id
		}
	}
	return ids[0]
}

// voteRule is the rule by which the most votes send a player away: the vote on
// the nominees (R-SPORT-05, R-PARTY-09) or against anyone (R-CLASSIC-03,
// R-MANIAC-10).
func (o Options) voteRule() RuleID {
	if o.Voting == VotingAnyone {
		return o.cite("R-CLASSIC-03", "R-MANIAC-10")
	}
	return o.cite("R-SPORT-05", "R-PARTY-09")
}
