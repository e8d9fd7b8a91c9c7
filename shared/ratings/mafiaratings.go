package ratings

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"citysleeps/shared/protocol"
	"citysleeps/shared/rules"
)

// The letters of a Game's features (feature_flags_help in mafiaratings'
// include/game.php), in the order the site writes them.
const (
	FeatureDonChecks     = "g" // the Don's checks: players' "don"
	FeatureSheriffChecks = "s" // the Sheriff's checks: players' "sheriff"
	FeatureDeath         = "d" // who left: players' "death"
	FeatureDeathRound    = "u" // death.round
	FeatureDeathType     = "t" // death.type
	FeatureDeathTime     = "c" // death.time of a removal
	FeatureLegacy        = "l" // the best move: players' "legacy"
	FeatureShooting      = "h" // each black player's shots: "shooting"
	FeatureVoting        = "v" // every vote: players' "voting"
	FeatureKillAll       = "k" // "shall all of them leave?": the last of a round's "voting"
	FeatureNominating    = "n" // nominations: players' "nominating"
	FeatureWarnings      = "w" // warnings: players' "warnings"
	FeatureWarningTimes  = "r" // each warning's moment
)

// featureOrder is the order of the letters in Game.Features.
var featureOrder = []string{FeatureDonChecks, FeatureSheriffChecks, FeatureDeath, FeatureDeathRound, FeatureDeathType,
	FeatureDeathTime, FeatureLegacy, FeatureShooting, FeatureVoting, FeatureKillAll, FeatureNominating,
	FeatureWarnings, FeatureWarningTimes}

// MafiaRatings tells the finished game p as mafiaratings' game JSON: the ten
// players in seat order with their names and cards, how and when each one
// left, their warnings, the Don's and the Sheriff's checks, the best move,
// every nomination, every vote round by round (the revote and "shall all of
// them leave?" of the car crash included), each black player's shots, the
// winner, the times, the language, and the site's rules code. The site's ids,
// which only the site knows, are 0 (a player's id left out) unless opts give
// them.
//
// A detail of the game that the format's reading would contradict is left
// out with its features letter, and Game.Omitted says why: shots that killed
// by a majority (the format kills only when every black player shot the same
// seat), votes in which a player abstained or that were held again from the
// start, nominations where the rules have none.
//
// It answers *Unsupported when the game cannot be told at all: it is not
// over, the protocol is not complete, it is not ten players with six
// citizens, the Sheriff, two mafia and the Don, its first night is not a
// meeting, a player left in a way the format has no death for (the Sheriff's
// shot, the double death, the Commissar's testament or reveal), or a night
// act the format does not have was made (the Sheriff's shot, even one that
// killed nobody).
func MafiaRatings(p protocol.Protocol, opts ...Option) (Game, error) {
	var s settings
	for _, o := range opts {
		o(&s)
	}
	if s.loc == nil {
		s.loc = time.UTC
	}
	if err := tellable(p); err != nil {
		return Game{}, err
	}
	t, err := newTimeline(p)
	if err != nil {
		return Game{}, err
	}
	start, end := s.start, s.end
	if start.IsZero() {
		start = p.Created
	}
	if end.IsZero() {
		end = start
	}
	g := Game{
		Version:   FormatVersion,
		ClubID:    s.club,
		EventID:   s.event,
		Rating:    !s.notRated,
		StartTime: start.In(s.loc).Format(time.RFC3339),
		EndTime:   end.In(s.loc).Format(time.RFC3339),
		Timezone:  s.loc.String(),
		Language:  language(p.Lang),
		Rules:     rulesCode(p.Rules),
		Winner:    winners[p.Winner],
		Moderator: Moderator{ID: s.moderator},
		Players:   make([]Player, len(p.Seats)),
	}
	for i, seat := range p.Seats {
		g.Players[i] = Player{Name: seat.Name, Role: roles[seat.Role]}
		if i < len(s.users) && s.users[i] > 0 {
			g.Players[i].ID = s.users[i]
		}
	}
	b := &builder{t: t, g: &g, on: map[string]bool{}}
	b.deaths()
	b.warnings()
	b.checks()
	b.legacy()
	b.shooting()
	b.nominations()
	b.voting()
	b.settle()
	var f strings.Builder
	for _, l := range featureOrder {
		if b.on[l] {
			f.WriteString(l)
		}
	}
	g.Features = f.String()
	return g, nil
}

// roles are the site's names of the cards it knows.
var roles = map[rules.Role]string{rules.Citizen: "civ", rules.Sheriff: "sheriff", rules.Mafia: "maf", rules.Don: "don"}

// winners are the site's names of the sides.
var winners = map[rules.Team]string{rules.Town: "civ", rules.MafiaTeam: "maf"}

// deal is the format's deal: Game::check refuses any other.
var deal = map[rules.Role]int{rules.Citizen: 6, rules.Sheriff: 1, rules.Mafia: 2, rules.Don: 1}

// tellable refuses a game the format cannot tell.
func tellable(p protocol.Protocol) error {
	switch {
	case !p.Over:
		return unsupportedf("the game is not over")
	case !p.Complete:
		return unsupportedf("the protocol tells the game whole only from night %d: its earlier nights were too long to keep", p.WholeFrom)
	case len(p.Seats) != 10:
		return unsupportedf("mafiaratings' games have 10 players, this one has %d", len(p.Seats))
	}
	count := map[rules.Role]int{}
	for i, s := range p.Seats {
		if s.Seat != i+1 {
			return unsupportedf("seat %d of the protocol is numbered %d", i+1, s.Seat)
		}
		count[s.Role]++
	}
	for r, n := range deal {
		if count[r] != n {
			return unsupportedf("mafiaratings' games deal 6 citizens, a sheriff, 2 mafia and a don; this one deals %s", dealt(count))
		}
	}
	if len(count) != len(deal) {
		return unsupportedf("mafiaratings' games deal 6 citizens, a sheriff, 2 mafia and a don; this one deals %s", dealt(count))
	}
	if !p.Rules.FirstNightMeeting {
		return unsupportedf("the first night is not a meeting (firstNightMeeting off): mafiaratings' first night, night 0, has no shots")
	}
	if _, ok := winners[p.Winner]; !ok {
		return unsupportedf("the winner is %q; mafiaratings' winners are the town and the mafia", p.Winner)
	}
	for _, s := range p.Seats {
		if err := leaving(s.Left); err != nil {
			return err
		}
	}
	for _, n := range p.Nights {
		for _, a := range n.Acts {
			if a.Act != rules.ActKill && a.Act != rules.ActCheck {
				return unsupportedf("night %d: seat %d's night act %q, which mafiaratings' game does not have (its night has the black players' shots and the Don's and the Sheriff's checks)", n.Night, a.Seat, a.Act)
			}
		}
	}
	return nil
}

// leaving refuses a departure the format has no death type for.
func leaving(d *protocol.Departure) error {
	if d == nil {
		return nil
	}
	when := fmt.Sprintf("night %d", d.Night)
	if d.Day > 0 {
		when = fmt.Sprintf("day %d", d.Day)
	}
	switch d.How {
	case protocol.LeftVote, protocol.LeftRemoved, protocol.LeftFouls:
		return nil
	case protocol.LeftKilled:
		if d.Cause == "" || d.Cause == rules.CauseMafia {
			return nil
		}
		by, ok := killers[d.Cause]
		if !ok {
			by = fmt.Sprintf("%q", d.Cause)
		}
		return unsupportedf("%s: seat %d was killed by %s (%s); mafiaratings' deaths at night are the mafia's", when, d.Seat, by, d.Rule)
	case protocol.LeftTestament:
		return unsupportedf("%s: seat %d left named in the Commissar's testament (%s); mafiaratings has no such death", when, d.Seat, d.Rule)
	case protocol.LeftReveal:
		return unsupportedf("%s: seat %d left named by the Commissar who showed his card (%s); mafiaratings has no such death", when, d.Seat, d.Rule)
	}
	return unsupportedf("%s: seat %d left by %q, which mafiaratings has no death for", when, d.Seat, d.How)
}

// killers name the night's other deaths (protocol.Departure.Cause).
var killers = map[string]string{rules.CauseSheriff: "the Sheriff's shot", rules.CauseManiac: "the Maniac",
	rules.CauseDoubleDeath: "the double death"}

// dealt names the cards of a deal, for a refusal.
func dealt(count map[rules.Role]int) string {
	order := []rules.Role{rules.Citizen, rules.Sheriff, rules.Mafia, rules.Don, rules.Doctor, rules.Lover,
		rules.Advocate, rules.Cinderella, rules.Maniac}
	for _, r := range slices.Sorted(maps.Keys(count)) {
		if !slices.Contains(order, r) {
			order = append(order, r)
		}
	}
	var parts []string
	for _, r := range order {
		if n := count[r]; n > 0 {
			name := string(r)
			if r == "" {
				name = "no card"
			}
			parts = append(parts, fmt.Sprintf("%s: %d", name, n))
		}
	}
	return strings.Join(parts, ", ")
}

// language is the site's code of a game's language: it says "ua" for
// Ukrainian (get_lang_by_code in mafiaratings' include/languages.php).
func language(lang string) string {
	if lang == "uk" {
		return "ua"
	}
	return lang
}
