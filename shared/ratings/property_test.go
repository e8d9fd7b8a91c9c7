package ratings_test

import (
	"slices"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"citysleeps/shared/protocol"
	"citysleeps/shared/ratings"
	"citysleeps/shared/rules"
)

// removedDuringAVote reports whether a player left by a removal on a day
// with votes, before its last vote was counted: the votes cast for them
// before then the site would count (R-SPORT-16).
func removedDuringAVote(p protocol.Protocol) bool {
	for _, d := range p.Days {
		for _, l := range d.Left {
			if (l.How == protocol.LeftRemoved || l.How == protocol.LeftFouls) && len(d.Votes) > 0 && l.At < d.Votes[len(d.Votes)-1].At {
				return true
			}
		}
	}
	return false
}

// TestPropertySportExports: every finished sport game, moderated by the app
// or by a person who warns and removes players at any moment (in the
// speeches, at night, in the votes), with the best move or without, exports,
// and the site's checks find no issue. It holds every detail the format has,
// but for the votes of a day on which a candidate was removed while the
// table voted.
func TestPropertySportExports(t *testing.T) {
	o := withSiteDeal(t, rules.PresetSport)
	rapid.Check(t, func(t *rapid.T) {
		c := o
		c.BestMove = rapid.Bool().Draw(t, "bestMove")
		moderator := rapid.SampledFrom([]string{rules.ModeratorApp, rules.ModeratorHost}).Draw(t, "moderator")
		p := newGame(t, c, moderator).play()
		g := export(t, p)
		for _, om := range g.Omitted {
			if (om.Feature != ratings.FeatureVoting && om.Feature != ratings.FeatureKillAll) || !removedDuringAVote(p) {
				t.Fatalf("sport left out %+v", g.Omitted)
			}
		}
		if want := "gsdutc"; !strings.HasPrefix(g.Features, want) {
			t.Fatalf("features %q, want them to begin %q", g.Features, want)
		}
	})
}

// TestPropertyPresetsExport: a finished game of every other preset with the
// site's deal either exports, and the site's checks find no issue, or is
// refused for something the site has no words for that happened in it
// (refusals). Whatever it leaves out is said in Omitted, and its letter is
// not in the features.
func TestPropertyPresetsExport(t *testing.T) {
	for _, preset := range []string{rules.PresetClassic, rules.PresetParty, rules.PresetManiac} {
		o := withSiteDeal(t, preset)
		t.Run(preset, func(t *testing.T) {
			rapid.Check(t, func(t *rapid.T) {
				c := o
				c.BestMove = c.LastWords != rules.LastWordsNone && rapid.Bool().Draw(t, "bestMove")
				moderator := rapid.SampledFrom([]string{rules.ModeratorApp, rules.ModeratorHost}).Draw(t, "moderator")
				p := newGame(t, c, moderator).play()
				g, err := ratings.MafiaRatings(p)
				if u, ok := ratings.AsUnsupported(err); ok {
					if !slices.ContainsFunc(refusals[preset], func(r string) bool { return strings.Contains(u.Reason, r) }) {
						t.Fatalf("refused: %v", err)
					}
					return
				}
				if err != nil {
					t.Fatal(err)
				}
				mustPass(t, g)
				for _, om := range g.Omitted {
					if strings.Contains(g.Features, om.Feature) || om.Reason == "" {
						t.Fatalf("features %q, left out %+v", g.Features, om)
					}
				}
			})
		})
	}
}

// drawCustom draws a custom rule set with the site's deal: the sport rules
// with the options a club changes drawn, as far as they validate.
func drawCustom(t *rapid.T, base rules.Options) rules.Options {
	for {
		c := base
		c.Preset = rules.PresetCustom
		for _, f := range []*bool{&c.OpenRoles, &c.EyesClosed, &c.FirstNightChecks, &c.Day1SingleNomineeStays,
			&c.FourLeftNoRevote, &c.HalfVote, &c.VoteChange, &c.DonChecks, &c.BestMove, &c.MuteWholeRound, &c.IntroRound} {
			*f = rapid.Bool().Draw(t, "flag")
		}
		c.Win = rapid.SampledFrom([]rules.Win{rules.WinParity, rules.WinElimination}).Draw(t, "win")
		c.MafiaKill = rapid.SampledFrom([]rules.MafiaKill{rules.KillUnanimous, rules.KillDon, rules.KillMajority}).Draw(t, "kill")
		c.MafiaTime = rapid.SampledFrom([]int{0, 30}).Draw(t, "mafiaTime")
		c.Voting = rapid.SampledFrom([]rules.Voting{rules.VotingNominees, rules.VotingAnyone}).Draw(t, "voting")
		c.DayOpener = rapid.SampledFrom([]rules.DayOpener{rules.OpenerNextSeat, rules.OpenerDaySeat}).Draw(t, "opener")
		c.NominationsPerSpeech = rapid.IntRange(1, 2).Draw(t, "perSpeech")
		c.NonVoters = rapid.SampledFrom([]rules.NonVoters{rules.NonVotersLastNominee, rules.NonVotersAbstain, rules.NonVotersCompulsory}).Draw(t, "nonVoters")
		c.Ties = rapid.SampledFrom([]rules.Ties{rules.TiesCarCrash, rules.TiesRevote, rules.TiesJustify, rules.TiesNone}).Draw(t, "ties")
		c.LastWords = rapid.SampledFrom([]rules.LastWords{rules.LastWordsAll, rules.LastWordsTownNight, rules.LastWordsSheriffNight}).Draw(t, "words")
		c.WarningsToMute = rapid.IntRange(0, 3).Draw(t, "mute")
		c.WarningsToRemove = rapid.SampledFrom([]int{0, 3, 4, 5}).Draw(t, "remove")
		c.ForbiddenWords = rapid.SampledFrom([]rules.ForbiddenWords{rules.ForbiddenWarning, rules.ForbiddenRemoval}).Draw(t, "words")
		if c.Validate() == nil {
			return c
		}
	}
}

// TestPropertyCustomExports: a custom game with the site's deal, to rules
// drawn among the options a club changes, exports, and the site's checks
// find no issue; only its details that the site would read otherwise are
// left out.
func TestPropertyCustomExports(t *testing.T) {
	o := withSiteDeal(t, rules.PresetSport)
	rapid.Check(t, func(t *rapid.T) {
		c := drawCustom(t, o)
		moderator := rapid.SampledFrom([]string{rules.ModeratorApp, rules.ModeratorHost}).Draw(t, "moderator")
		g := export(t, newGame(t, c, moderator).play())
		for _, om := range g.Omitted {
			if strings.Contains(g.Features, om.Feature) || om.Reason == "" {
				t.Fatalf("features %q, left out %+v", g.Features, om)
			}
		}
	})
}
