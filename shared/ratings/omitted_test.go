package ratings_test

import (
	"slices"
	"strings"
	"testing"

	"citysleeps/shared/protocol"
	"citysleeps/shared/ratings"
	"citysleeps/shared/rules"
)

// TestOmitted: a detail the site would read otherwise than it went is left
// out, its letter with it, and the rest still passes the site's checks.
func TestOmitted(t *testing.T) {
	tests := []struct {
		name    string
		change  func(p *protocol.Protocol)
		omitted []string
		reason  string
	}{
		{"an abstention", func(p *protocol.Protocol) { p.Days[0].Votes[0].Ballots[3].Target = 0 },
			[]string{ratings.FeatureVoting, ratings.FeatureKillAll}, "day 1: seat 4 abstained in vote 1"},
		{"a vote held again from the start", func(p *protocol.Protocol) { p.Days[0].Votes[1].Ballots[0].Target = 9 },
			[]string{ratings.FeatureVoting, ratings.FeatureKillAll}, "vote 2 was held again over seats that were not tied"},
		{"a justification", func(p *protocol.Protocol) { p.Days[0].Votes[2].Kind = protocol.VoteJustify },
			[]string{ratings.FeatureVoting, ratings.FeatureKillAll}, "vote 3 is a justify vote"},
		{"the count says otherwise", func(p *protocol.Protocol) {
			p.Days[0].Votes = p.Days[0].Votes[:2] // the all-leave vote lost: two tied, and both left
		}, []string{ratings.FeatureVoting, ratings.FeatureKillAll}, "seats [5 6] left by the vote, where mafiaratings counts seats [] out"},
		{"a kill by the majority", func(p *protocol.Protocol) { p.Nights[1].Acts[2].Target = 8 },
			[]string{ratings.FeatureShooting}, "night 2: seat 7 was killed, and black seat 3 shot seat 8"},
		{"votes against anyone", func(p *protocol.Protocol) { p.Rules.Voting = rules.VotingAnyone },
			[]string{ratings.FeatureNominating}, "the rules vote against anyone"},
		{"two nominations", func(p *protocol.Protocol) {
			p.Days[0].Nominations = append(p.Days[0].Nominations, protocol.Nomination{At: 5, By: 2, Target: 9})
		}, []string{ratings.FeatureNominating}, "day 1: seat 2 nominated twice"},
		{"nominations out of seat order", func(p *protocol.Protocol) {
			n := p.Days[0].Nominations
			n[0].By, n[1].By = n[1].By, n[0].By
		}, []string{ratings.FeatureNominating}, "seat 1 nominated after a seat that speaks later"},
		{"five warnings", func(p *protocol.Protocol) {
			f := p.Seats[2].Fouls[0]
			for range 4 {
				p.Seats[2].Fouls = append(p.Seats[2].Fouls, f)
			}
		}, []string{ratings.FeatureWarnings, ratings.FeatureWarningTimes}, "seat 3 had 5 warnings"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := clubProtocol(t)
			tt.change(&p)
			g := export(t, p)
			var left []string
			for _, om := range g.Omitted {
				left = append(left, om.Feature)
				if strings.Contains(g.Features, om.Feature) {
					t.Errorf("features %q hold %q, left out", g.Features, om.Feature)
				}
			}
			if !slices.Equal(left, tt.omitted) {
				t.Errorf("left out %+v, want %v", g.Omitted, tt.omitted)
			}
			if len(g.Omitted) == 0 || !strings.Contains(g.Omitted[0].Reason, tt.reason) {
				t.Errorf("reason %+v, want it to say %q", g.Omitted, tt.reason)
			}
		})
	}
}
