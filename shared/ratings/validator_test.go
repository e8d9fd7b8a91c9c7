package ratings_test

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

// This file is a Go implementation of the rules mafiaratings' Game::check
// (include/game.php, format version 1.3) applies to a game record, written
// from its description so that the tests can run them with no PHP: validate
// reads an exported game's JSON as the site reads it, and returns every issue
// the site would record, or the error with which it would refuse the game.
//
// The checks, in the order Game::check runs them:
//
//   - check: players set, exactly 10 of them (Game::check);
//   - the features' fields: a field present without its feature is dropped by
//     the site (Game::cleanup_features), so here it is an issue;
//   - the voting table of every round (Game::init_votings);
//   - roles, the deal, data after a death, the best move, shots by red
//     players (Game::check_game_result);
//   - every death's type, round and time, the night's kill against every
//     black player's shot, the day's death against the count
//     (Game::check_deaths);
//   - nominations by and of the dead (Game::check_nominations);
//   - shots by red or dead players (Game::check_shooting);
//   - votes by and for the dead and for players nobody nominated
//     (Game::check_vote), players at the table who did not vote, the voted
//     out who did not leave (Game::check_voting, Game::check_voted_out);
//   - warnings: at most four, each a valid moment (Game::check_warnings,
//     Game::check_gametime);
//   - technical fouls (Game::check_tech_fouls).
//
// The helpers they use are here too: the moments and their order
// (Game::compare_gametimes, Game::gametime_to_int), who opens a day
// (Game::who_speaks_first), when a player left (Game::get_player_death_time),
// the nominees of a vote (Game::get_nominees), when a vote was decided
// (Game::when_voting_is_decided), the night's kill (Game::get_shots,
// Game::get_night_kill) and whether a day's vote counts
// (Game::is_voting_canceled). PHP's loose comparisons are kept where the
// site's code leans on them (a shot at player 1 reads as no shot in
// get_night_kill, as 0 == null). The site runs these checks in a loop that
// stops at the first check that fails, which a cancelled vote makes
// Game::check_voting do: the checks after it then do not run, here neither.
//
// The site's record may take shapes this package never writes (a death as a
// number or a word, warnings as a count); reading one is an error here.

// Feature flags (GAME_FEATURE_FLAG_… in include/game.php).
const (
	flagArrangement     = 0x1
	flagDonChecks       = 0x2
	flagSheriffChecks   = 0x4
	flagDeath           = 0x8
	flagDeathRound      = 0x10
	flagDeathType       = 0x20
	flagDeathTime       = 0x40
	flagLegacy          = 0x80
	flagShooting        = 0x100
	flagVoting          = 0x200
	flagVotingKillAll   = 0x400
	flagNominating      = 0x800
	flagWarnings        = 0x1000
	flagWarningsDetails = 0x2000
	flagOnRecord        = 0x8000
	flagSimpleLegacy    = 0x10000
	maskAll             = 0xbfff
)

var flagLetters = map[byte]int{'a': flagArrangement, 'g': flagDonChecks, 's': flagSheriffChecks, 'd': flagDeath,
	'u': flagDeathRound, 't': flagDeathType, 'c': flagDeathTime, 'l': flagLegacy, 'i': flagSimpleLegacy,
	'h': flagShooting, 'v': flagVoting, 'k': flagVotingKillAll, 'n': flagNominating, 'w': flagWarnings,
	'r': flagWarningsDetails, 'o': flagOnRecord}

// The rules code's options the checks read (include/rules.php).
const (
	ruleRotation           = 0
	ruleFirstDayVoting     = 4
	ruleSplitOrder         = 5
	rotationLast           = 1
	firstDayStandard       = 0
	firstDayBreakingToSelf = 3
	splitOrderReverse      = 1
	defaultRules           = "0002000010000"
)

// Answers of is_voting_canceled.
const (
	gameYes     = 1
	gameNo      = 0
	gameUnknown = -1
)

// gtime is a moment of the game as the site reads one; nil is unset.
type gtime struct {
	Round, Speaker, VotingRound, Nominee, Order *int
	Time                                        *string
}

func (g *gtime) clone() *gtime {
	if g == nil {
		return nil
	}
	c := *g
	return &c
}

func ip(v int) *int       { return &v }
func sp(v string) *string { return &v }

// iv is a PHP number that may be null: null is 0.
func iv(p *int) int {
	if p == nil {
		return 0
	}
	return *p
}

// looseEq is PHP's == between two numbers that may be null: null equals 0.
func looseEq(a, b *int) bool { return iv(a) == iv(b) }

// vote is one element of a player's voting: null, a number, or a bool (the
// vote on all leaving).
type vote struct {
	null, isBool, b bool
	n               int
}

// roundVote is one round of a player's voting: null, a number, or an array.
type roundVote struct {
	null, isArray bool
	n             int
	arr           []vote
}

type death struct {
	Round *int
	Type  *string
	Time  *gtime
}

type sitePlayer struct {
	Role         *string
	Death        *death
	Warnings     []*gtime
	HasWarnings  bool
	Don, Sheriff *int
	Legacy       []int
	HasLegacy    bool
	Nominating   []*int
	HasNominate  bool
	Voting       []roundVote
	HasVoting    bool
	Shooting     []*int
	HasShooting  bool
	other        map[string]bool // fields present, by name
}

// nomEntry is one nominee of a round's voting table (init_votings).
type nomEntry struct {
	nominee *int
	by      *int
	voting  []*cell // nil: unset
	set     bool
}

// cell is an element of a nominee's voting: a voter, or the voters of one
// vote of the day.
type cell struct {
	isArr bool
	n     int
	arr   []int
}

type siteVoting struct {
	nominees     []*nomEntry
	hasNominees  bool
	votedToKill  []int
	hasVotedKill bool
	winner       []int // nil: unset
	winnerArray  bool
	voters       int
	killed       bool
	canceled     bool
}

type siteGame struct {
	flags     int
	rules     string
	startTime string
	winner    string
	players   []*sitePlayer
	votings   []*siteVoting
	issues    []string
}

// fatal is an error the site would throw: the game is refused.
type fatal struct{ msg string }

func (f fatal) Error() string { return f.msg }

// validate runs the site's checks over an exported game's JSON: the issues
// the site would record, or an error when it would refuse the game or when
// the JSON takes a shape these checks do not read.
func validate(data []byte) (issues []string, err error) {
	var raw map[string]any
	dec := json.NewDecoder(strings.NewReader(string(data)))
	dec.UseNumber()
	if err := dec.Decode(&raw); err != nil {
		return nil, err
	}
	g, err := read(raw)
	if err != nil {
		return nil, err
	}
	defer func() {
		if r := recover(); r != nil {
			f, ok := r.(fatal)
			if !ok {
				panic(r)
			}
			err = f
		}
	}()
	g.check()
	return g.issues, nil
}

// read turns decoded JSON into the site's view of the game
// (Game::__construct: the features' letters give the flags).
func read(raw map[string]any) (*siteGame, error) {
	g := &siteGame{flags: maskAll, rules: defaultRules}
	if f, ok := raw["features"].(string); ok {
		g.flags = 0
		for i := range len(f) {
			g.flags |= flagLetters[f[i]]
		}
	}
	if r, ok := raw["rules"].(string); ok {
		g.rules = r
	}
	if w, ok := raw["winner"].(string); ok {
		g.winner = w
	}
	if s, ok := raw["startTime"].(string); ok {
		g.startTime = s
	}
	players, ok := raw["players"].([]any)
	if !ok {
		return nil, fmt.Errorf("players is not an array")
	}
	for i, rp := range players {
		m, ok := rp.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("player %d is not an object", i+1)
		}
		p, err := readPlayer(m)
		if err != nil {
			return nil, fmt.Errorf("player %d: %w", i+1, err)
		}
		g.players = append(g.players, p)
	}
	return g, nil
}

func number(v any) (*int, error) {
	if v == nil {
		return nil, nil
	}
	n, ok := v.(json.Number)
	if !ok {
		return nil, fmt.Errorf("%v is not a number", v)
	}
	i, err := n.Int64()
	if err != nil {
		return nil, err
	}
	return ip(int(i)), nil
}

func readTime(v any) (*gtime, error) {
	m, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("a moment %v is not an object", v)
	}
	g := &gtime{}
	var err error
	for k, f := range map[string]**int{"round": &g.Round, "speaker": &g.Speaker, "votingRound": &g.VotingRound, "nominee": &g.Nominee, "order": &g.Order} {
		if *f, err = number(m[k]); err != nil {
			return nil, err
		}
	}
	if t, ok := m["time"].(string); ok {
		g.Time = &t
	}
	return g, nil
}

func readNumbers(v any) ([]*int, error) {
	a, ok := v.([]any)
	if !ok {
		return nil, fmt.Errorf("%v is not an array", v)
	}
	out := make([]*int, len(a))
	for i, x := range a {
		n, err := number(x)
		if err != nil {
			return nil, err
		}
		out[i] = n
	}
	return out, nil
}

func readPlayer(m map[string]any) (*sitePlayer, error) {
	p := &sitePlayer{other: map[string]bool{}}
	for k := range m {
		p.other[k] = true
	}
	var err error
	if r, ok := m["role"].(string); ok {
		p.Role = &r
	}
	if d, ok := m["death"]; ok && d != nil {
		dm, ok := d.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("death %v is not an object", d)
		}
		p.Death = &death{}
		if p.Death.Round, err = number(dm["round"]); err != nil {
			return nil, err
		}
		if t, ok := dm["type"].(string); ok {
			p.Death.Type = &t
		}
		if t, ok := dm["time"]; ok && t != nil {
			if p.Death.Time, err = readTime(t); err != nil {
				return nil, err
			}
		}
	}
	if w, ok := m["warnings"]; ok && w != nil {
		a, ok := w.([]any)
		if !ok {
			return nil, fmt.Errorf("warnings %v is not an array", w)
		}
		p.HasWarnings = true
		for _, x := range a {
			t, err := readTime(x)
			if err != nil {
				return nil, err
			}
			p.Warnings = append(p.Warnings, t)
		}
	}
	if _, ok := m["techFouls"]; ok {
		return nil, fmt.Errorf("technical fouls are not read here")
	}
	if p.Don, err = number(m["don"]); err != nil {
		return nil, err
	}
	if p.Sheriff, err = number(m["sheriff"]); err != nil {
		return nil, err
	}
	if l, ok := m["legacy"]; ok && l != nil {
		ns, err := readNumbers(l)
		if err != nil {
			return nil, err
		}
		p.HasLegacy = true
		for _, n := range ns {
			p.Legacy = append(p.Legacy, iv(n))
		}
	}
	if n, ok := m["nominating"]; ok && n != nil {
		p.HasNominate = true
		if p.Nominating, err = readNumbers(n); err != nil {
			return nil, err
		}
	}
	if s, ok := m["shooting"]; ok && s != nil {
		p.HasShooting = true
		if p.Shooting, err = readNumbers(s); err != nil {
			return nil, err
		}
	}
	if v, ok := m["voting"]; ok && v != nil {
		a, ok := v.([]any)
		if !ok {
			return nil, fmt.Errorf("voting %v is not an array", v)
		}
		p.HasVoting = true
		for _, x := range a {
			var rv roundVote
			switch x := x.(type) {
			case nil:
				rv.null = true
			case json.Number:
				n, _ := number(x)
				rv.n = *n
			case []any:
				rv.isArray = true
				for _, e := range x {
					switch e := e.(type) {
					case nil:
						rv.arr = append(rv.arr, vote{null: true})
					case bool:
						rv.arr = append(rv.arr, vote{isBool: true, b: e})
					case json.Number:
						n, _ := number(e)
						rv.arr = append(rv.arr, vote{n: *n})
					default:
						return nil, fmt.Errorf("a vote %v", e)
					}
				}
			default:
				return nil, fmt.Errorf("a round's voting %v", x)
			}
			p.Voting = append(p.Voting, rv)
		}
	}
	return p, nil
}

// issue records an issue once (Game::set_issue, not fixing).
func (g *siteGame) issue(text string) {
	if !slices.Contains(g.issues, text) {
		g.issues = append(g.issues, text)
	}
}

func (g *siteGame) rule(index int) int {
	if index >= len(g.rules) {
		return 0
	}
	return int(g.rules[index] - '0')
}

// check mirrors Game::check: the checks in their order, each stopping the
// round of checks when it fails (the && of $done); the site repeats the
// round, which without fixing changes nothing.
func (g *siteGame) check() {
	if len(g.players) != 10 {
		panic(fatal{"Field players must be an array of size 10 in the game."})
	}
	g.cleanupFeatures()
	g.initVotings()
	_ = g.checkGameResult() && g.checkDeaths() && g.checkNominations() && g.checkShooting() &&
		g.checkVoting() && g.checkWarnings() && g.checkTechFouls()
}

// cleanupFeatures mirrors Game::cleanup_features: every field whose feature
// is not set is dropped, and the checks go on without it. A record that
// carries one would lose it on the site, so here each is also an issue.
func (g *siteGame) cleanupFeatures() {
	if g.flags == maskAll {
		return
	}
	fields := []struct {
		flag  int
		field string
		drop  func(p *sitePlayer) bool
	}{
		{flagArrangement, "arranged", func(p *sitePlayer) bool { return p.other["arranged"] }},
		{flagDonChecks, "don", func(p *sitePlayer) bool { had := p.Don != nil; p.Don = nil; return had }},
		{flagSheriffChecks, "sheriff", func(p *sitePlayer) bool { had := p.Sheriff != nil; p.Sheriff = nil; return had }},
		{flagDeath, "death", func(p *sitePlayer) bool { had := p.Death != nil; p.Death = nil; return had }},
		{flagDeathRound, "death.round", func(p *sitePlayer) bool {
			return p.Death != nil && p.Death.Round != nil && g.flags&flagDeathTime == 0
		}},
		{flagDeathType, "death.type", func(p *sitePlayer) bool {
			return p.Death != nil && p.Death.Type != nil && g.flags&flagDeathTime == 0
		}},
		{flagDeathTime, "death.time", func(p *sitePlayer) bool { return p.Death != nil && p.Death.Time != nil }},
		{flagLegacy, "legacy", func(p *sitePlayer) bool { had := p.HasLegacy; p.HasLegacy, p.Legacy = false, nil; return had }},
		{flagShooting, "shooting", func(p *sitePlayer) bool {
			had := p.HasShooting
			p.HasShooting, p.Shooting = false, nil
			return had
		}},
		{flagVoting, "voting", func(p *sitePlayer) bool { had := p.HasVoting; p.HasVoting, p.Voting = false, nil; return had }},
		{flagVotingKillAll, "voting's kill-all vote", func(p *sitePlayer) bool {
			return slices.ContainsFunc(p.Voting, func(v roundVote) bool {
				return v.isArray && len(v.arr) > 0 && v.arr[len(v.arr)-1].isBool
			})
		}},
		{flagNominating, "nominating", func(p *sitePlayer) bool {
			had := p.HasNominate
			p.HasNominate, p.Nominating = false, nil
			return had
		}},
		{flagWarnings, "warnings", func(p *sitePlayer) bool {
			had := p.HasWarnings
			p.HasWarnings, p.Warnings = false, nil
			return had
		}},
		{flagOnRecord, "record", func(p *sitePlayer) bool { return p.other["record"] }},
	}
	for _, f := range fields {
		if g.flags&f.flag != 0 {
			continue
		}
		for i, p := range g.players {
			if f.drop(p) {
				g.issue(fmt.Sprintf("Player %d has %s, which the features do not hold: the site drops it.", i+1, f.field))
			}
		}
	}
}

// gametimeToInt mirrors Game::gametime_to_int.
func gametimeToInt(t string) int {
	switch t {
	case "start":
		return 0
	case "arrangement":
		return 1
	case "relaxed sitting":
		return 2
	case "night start":
		return 3
	case "shooting":
		return 4
	case "don":
		return 5
	case "sheriff":
		return 6
	case "night end":
		return 7
	case "day start":
		return 8
	case "night kill speaking":
		return 9
	case "speaking":
		return 10
	case "voting start":
		return 11
	case "voting":
		return 12
	case "voting kill all":
		return 13
	case "day kill speaking":
		return 14
	}
	return 15
}

// compareGametimes mirrors Game::compare_gametimes: negative when gt1 comes
// first. A nil moment has round 0 and time "start".
func (g *siteGame) compareGametimes(gt1, gt2 *gtime, noOrder bool) int {
	round := func(t *gtime) int {
		if t == nil {
			return 0
		}
		return iv(t.Round)
	}
	timeOf := func(t *gtime) string {
		if t == nil || t.Time == nil {
			return "start"
		}
		return *t.Time
	}
	if r1, r2 := round(gt1), round(gt2); r1 != r2 {
		return r1 - r2
	}
	t1, t2 := timeOf(gt1), timeOf(gt2)
	if t1 != t2 {
		return gametimeToInt(t1) - gametimeToInt(t2)
	}
	result := 0
	switch t1 {
	case "speaking":
		first := g.whoSpeaksFirst(iv(gt1.Round))
		s1, s2 := iv(gt1.Speaker), iv(gt2.Speaker)
		if s1 < first {
			s1 += 10
		}
		if s2 < first {
			s2 += 10
		}
		result = s1 - s2
	case "voting":
		switch {
		case !looseEq(gt1.VotingRound, gt2.VotingRound):
			result = iv(gt1.VotingRound) - iv(gt2.VotingRound)
		case gt1.Speaker != nil:
			switch {
			case gt2.Speaker != nil:
				result = g.whoWasNominatedEarlier(iv(gt1.Round), gt1.Speaker, gt2.Speaker, iv(gt1.VotingRound))
			case gt2.Nominee != nil:
				result = -1
			default:
				result = 1
			}
		case gt1.Nominee != nil:
			if gt2.Nominee != nil {
				result = g.whoWasNominatedEarlier(iv(gt1.Round), gt1.Nominee, gt2.Nominee, iv(gt1.VotingRound))
			} else {
				result = 1
			}
		case gt2.Nominee != nil || gt2.Speaker != nil:
			result = -1
		}
	case "day kill speaking":
		p1 := g.players[iv(gt1.Speaker)-1]
		votingRound := 0
		if r := iv(gt1.Round); p1.HasVoting && r < len(p1.Voting) && p1.Voting[r].isArray {
			votingRound = len(p1.Voting[r].arr)
		}
		result = g.whoWasNominatedEarlier(iv(gt1.Round), gt1.Speaker, gt2.Speaker, votingRound)
	}
	if result == 0 && !noOrder {
		o := func(t *gtime) int {
			if t == nil || t.Order == nil {
				return -1
			}
			return *t.Order
		}
		result = o(gt1) - o(gt2)
	}
	return result
}

// checkGametime mirrors Game::check_gametime: the issue with a moment, or "".
func checkGametime(gt *gtime) string {
	if gt.Round == nil {
		return "round must be set."
	}
	if *gt.Round < 0 {
		return "incorrect round - it must a number greater than 0."
	}
	if gt.Time == nil {
		return "time must be set."
	}
	switch *gt.Time {
	case "start", "arrangement", "relaxed sitting", "day start", "voting start", "night kill speaking",
		"night start", "shooting", "don", "sheriff", "night end", "end":
	case "voting kill all":
		if gt.VotingRound == nil {
			return "votingRound must be set."
		}
	case "voting":
		if gt.VotingRound == nil {
			return "votingRound must be set."
		}
		if *gt.VotingRound < 0 {
			return "incorrect votingRound - it must a number greater than 0."
		}
		if gt.Speaker != nil && (*gt.Speaker < 1 || *gt.Speaker > 10) {
			return fmt.Sprintf("incorect speaker %q - it must be a number from 1 to 10.", fmt.Sprint(*gt.Speaker))
		}
		if gt.Nominee != nil && (*gt.Nominee < 1 || *gt.Nominee > 10) {
			return fmt.Sprintf("incorect nominee %q - it must be a number from 1 to 10.", fmt.Sprint(*gt.Nominee))
		}
	case "speaking", "day kill speaking":
		if gt.Speaker == nil {
			return `speaker must be set when time is "speaking".`
		}
		if *gt.Speaker < 1 || *gt.Speaker > 10 {
			return fmt.Sprintf("incorect speaker %q - it must be a number from 1 to 10.", fmt.Sprint(*gt.Speaker))
		}
	default:
		return "incorrect time " + *gt.Time
	}
	return ""
}

// lastRound mirrors Game::get_last_round: the longest of the players'
// per-round arrays, or the latest check.
func (g *siteGame) lastRound() int {
	last := 0
	for _, p := range g.players {
		if p.HasNominate {
			last = max(last, len(p.Nominating))
		}
		if p.HasVoting {
			last = max(last, len(p.Voting))
		}
		if p.HasShooting {
			last = max(last, len(p.Shooting))
		}
		if p.Don != nil {
			last = max(last, *p.Don)
		}
		if p.Sheriff != nil {
			last = max(last, *p.Sheriff)
		}
	}
	return last
}

// deathTime mirrors Game::get_player_death_time: when player num (1-10)
// left (with the last word, withSpeech), the end of the game for a player at
// the table, nil when unknown.
func (g *siteGame) deathTime(num int, withSpeech bool) *gtime {
	p := g.players[num-1]
	d := p.Death
	switch {
	case d == nil:
		return &gtime{Time: sp("end"), Round: ip(g.lastRound())}
	case d.Time != nil:
		return d.Time.clone()
	case d.Type == nil:
		return nil
	}
	switch *d.Type {
	case "night":
		t := &gtime{Round: d.Round, Time: sp("shooting")}
		if withSpeech {
			t.Time = sp("night kill speaking")
		}
		return t
	case "day":
		t := &gtime{Round: d.Round}
		if withSpeech {
			t.Time, t.Speaker = sp("day kill speaking"), ip(num)
			return t
		}
		t.VotingRound = ip(0)
		for _, o := range g.players {
			if r := iv(t.Round); o.HasVoting && len(o.Voting) > r && o.Voting[r].isArray {
				t.VotingRound = ip(len(o.Voting[r].arr) - 1)
				break
			}
		}
		if *t.VotingRound == 0 {
			t.Time, t.Nominee = sp("voting"), ip(num)
		} else {
			t.Time = sp("voting kill all")
		}
		return t
	case "warnings":
		if p.HasWarnings && len(p.Warnings) > 3 {
			return p.Warnings[3].clone()
		}
	}
	return nil
}

// nextSpeaker and prevSpeaker mirror Game::_next_speaker and
// Game::_prev_speaker: the next (previous) player, 0-9, at the table when
// round's day begins; -1 for none.
func (g *siteGame) nextSpeaker(index, round int) int {
	start := &gtime{Round: ip(round), Time: sp("night kill speaking")}
	end := index
	for k := 0; ; k++ {
		index++
		if index >= 10 {
			index = 0
		}
		if g.compareGametimes(g.deathTime(index+1, false), start, false) > 0 {
			return index
		}
		if index == end {
			return -1
		}
		if k > 10 {
			panic(fatal{"_next_speaker: nobody is at the table, and the site loops for ever"})
		}
	}
}

func (g *siteGame) prevSpeaker(index, round int) int {
	start := &gtime{Round: ip(round), Time: sp("night kill speaking")}
	end := index
	for k := 0; ; k++ {
		index--
		if index < 0 {
			index = 9
		}
		if g.compareGametimes(g.deathTime(index+1, false), start, false) > 0 {
			return index
		}
		if index == end {
			return -1
		}
		if k > 10 {
			panic(fatal{"_prev_speaker: nobody is at the table, and the site loops for ever"})
		}
	}
}

// whoSpeaksFirst mirrors Game::who_speaks_first: the player (1-10) who
// opens round's day.
func (g *siteGame) whoSpeaksFirst(round int) int {
	if round <= 0 {
		return g.nextSpeaker(9, 0) + 1
	}
	prev := g.whoSpeaksFirst(round-1) - 1
	if g.rule(ruleRotation) == rotationLast {
		prev = g.nextSpeaker(g.prevSpeaker(prev, round-1), round)
	}
	return g.nextSpeaker(prev, round) + 1
}

// whoWasNominatedEarlier mirrors Game::who_was_nominated_earlier: -1 when
// num1 was nominated before num2 in round, 1 when after, 0 when neither.
func (g *siteGame) whoWasNominatedEarlier(round int, num1, num2 *int, votingRound int) int {
	if looseEq(num1, num2) {
		return 0
	}
	reverse := 1
	if g.rule(ruleSplitOrder) == splitOrderReverse && votingRound&1 != 0 {
		reverse = -1
	}
	first := g.whoSpeaksFirst(round)
	if first < 1 {
		panic(fatal{"who_was_nominated_earlier: nobody speaks, the site loops for ever"})
	}
	i := first
	for {
		p := g.players[i-1]
		if p.HasNominate && round < len(p.Nominating) {
			n := p.Nominating[round]
			if looseEq(n, num1) {
				return -reverse
			}
			if looseEq(n, num2) {
				return reverse
			}
		}
		i++
		if i > 10 {
			i = 1
		}
		if i == first {
			return 0
		}
	}
}

// nominees mirrors Game::get_nominees: the nominees of round's vote
// votingRound (0 the vote, then the revotes among the leaders), in the order
// nominated.
func (g *siteGame) nominees(round, votingRound int) []int {
	var noms []int
	first := g.whoSpeaksFirst(round) - 1
	if first < 0 {
		panic(fatal{"get_nominees: nobody speaks, the site loops for ever"})
	}
	if votingRound > 0 {
		votes := map[int]int{}
		for _, p := range g.players {
			if p.HasVoting && round < len(p.Voting) && !p.Voting[round].null {
				v := p.Voting[round]
				if v.isArray {
					if votingRound <= len(v.arr) {
						e := v.arr[votingRound-1]
						n := e.n
						if e.isBool && e.b {
							n = 1
						} else if e.isBool || e.null {
							n = 0
						}
						votes[n-1]++
					}
				} else if votingRound == 1 {
					votes[v.n-1]++
				}
			}
		}
		top := 0
		for i := range 10 {
			top = max(top, votes[i]) // the 10 players' counts, each 0 at first
		}
		for _, v := range votes {
			top = max(top, v)
		}
		if top > 0 {
			i := first
			for {
				p := g.players[i]
				if p.HasNominate && round < len(p.Nominating) {
					if n := p.Nominating[round]; n != nil && votes[*n-1] == top {
						noms = append(noms, *n)
					}
				}
				if i++; i >= 10 {
					i = 0
				}
				if i == first {
					break
				}
			}
		}
	} else {
		i := first
		for {
			p := g.players[i]
			if p.HasNominate && round < len(p.Nominating) && p.Nominating[round] != nil {
				noms = append(noms, *p.Nominating[round])
			}
			if i++; i >= 10 {
				i = 0
			}
			if i == first {
				break
			}
		}
	}
	if g.rule(ruleSplitOrder) == splitOrderReverse && votingRound&1 != 0 {
		slices.Reverse(noms)
	}
	return noms
}

// decided is when a round's vote was decided, with its leaders (0-9).
type decided struct {
	at      *gtime
	winners []int
}

// whenVotingIsDecided mirrors Game::when_voting_is_decided: the moment
// round's vote was decided, nil when it was not.
func (g *siteGame) whenVotingIsDecided(round int) *decided {
	var votes [10]int
	killAll, saveAll, top, votingRound := 0, 0, 0, 0
	for _, p := range g.players {
		if !p.HasVoting || len(p.Voting) <= round {
			continue
		}
		v := p.Voting[round]
		var n *int
		switch {
		case v.null:
		case v.isArray:
			last := v.arr[len(v.arr)-1]
			var e vote
			if last.isBool {
				if last.b {
					killAll++
				} else {
					saveAll++
				}
				votingRound = max(votingRound, len(v.arr)-2)
				e = vote{null: true}
				if len(v.arr) >= 2 {
					e = v.arr[len(v.arr)-2]
				}
			} else {
				votingRound = max(votingRound, len(v.arr)-1)
				e = last
			}
			if !e.null && !e.isBool {
				n = ip(e.n)
			}
		default:
			n = ip(v.n)
		}
		if n != nil && *n != 0 {
			votes[*n-1]++
			top = max(top, votes[*n-1])
		}
	}
	var winners []int
	for i := range 10 {
		if votes[i] == top {
			winners = append(winners, i)
		}
	}
	var at *gtime
	if len(winners) == 1 {
		noms := g.nominees(round, votingRound)
		if len(noms) > 0 {
			at = &gtime{Round: ip(round)}
			if len(noms) == 1 {
				at.Time = sp("voting start")
			} else {
				at.VotingRound, at.Time, at.Nominee = ip(votingRound), sp("voting"), ip(noms[len(noms)-2])
				for _, n := range noms[:len(noms)-2] {
					if votes[n-1] == top {
						at.Nominee = ip(n)
						break
					}
				}
			}
		}
	} else if len(winners) > 0 && killAll > saveAll {
		at = &gtime{Round: ip(round), VotingRound: ip(votingRound), Time: sp("voting kill all")}
	}
	if at == nil {
		return nil
	}
	return &decided{at: at, winners: winners}
}

// isMaf mirrors Game::is_maf.
func (g *siteGame) isMaf(num int) bool {
	r := g.players[num-1].Role
	return r != nil && (*r == "don" || *r == "maf")
}

// shots mirrors Game::get_shots: the shots (player indexes 0-9, nil for
// none) of the black players at the table at round's shooting.
func (g *siteGame) shots(round int) []*int {
	var out []*int
	if round <= 0 {
		return out
	}
	at := &gtime{Round: ip(round), Time: sp("shooting")}
	for i := range 10 {
		if !g.isMaf(i+1) || g.compareGametimes(at, g.deathTime(i+1, false), false) > 0 {
			continue
		}
		p := g.players[i]
		var shot *int
		if p.HasShooting && round <= len(p.Shooting) && p.Shooting[round-1] != nil {
			shot = ip(*p.Shooting[round-1] - 1)
		}
		out = append(out, shot)
	}
	return out
}

// nightKill mirrors Game::get_night_kill: the player (0-9) every black
// player shot, or -1. As in PHP, a shot at player 1 (index 0 == null) reads
// as no shot.
func (g *siteGame) nightKill(round int) int {
	killed := -1
	for _, s := range g.shots(round) {
		if s == nil || *s == 0 {
			return -1
		}
		if killed < 0 {
			killed = *s
		} else if killed != *s {
			return -1
		}
	}
	return killed
}

// isVotingCanceled mirrors Game::is_voting_canceled: the site cancels a
// day's vote when a player is removed that day before it is decided (unless
// the night's kill is the one removed), or after the day before's vote was
// decided without sending them away.
func (g *siteGame) isVotingCanceled(round int) int {
	for i, p := range g.players {
		d := p.Death
		if d == nil {
			continue
		}
		r := -2
		typ := ""
		if d.Type != nil {
			typ = *d.Type
		}
		switch typ {
		case "warnings":
			switch {
			case d.Round != nil:
				r = *d.Round
			case d.Time != nil && d.Time.Round != nil:
				r = *d.Time.Round
			case p.HasWarnings && len(p.Warnings) > 3:
				r = iv(p.Warnings[3].Round)
			default:
				return gameUnknown
			}
		case "giveUp", "kickOut", "teamKickOut":
			switch {
			case d.Round != nil:
				r = *d.Round
			case d.Time != nil && d.Time.Round != nil:
				r = *d.Time.Round
			default:
				return gameUnknown
			}
		}
		switch r {
		case round:
			dd := g.whenVotingIsDecided(r)
			if dd == nil || g.compareGametimes(dd.at, g.deathTime(i+1, false), true) >= 0 && i != g.nightKill(r) {
				return gameYes
			}
		case round - 1:
			dd := g.whenVotingIsDecided(r)
			if dd != nil && g.compareGametimes(dd.at, g.deathTime(i+1, false), true) < 0 && !slices.Contains(dd.winners, i) {
				return gameYes
			}
		}
	}
	return gameNo
}

// initVotings mirrors Game::init_votings: for every round, its nominees
// with who nominated them and who voted for them in each vote, the leaders,
// the votes on all leaving, whether the leaders left, and whether the vote
// counts.
func (g *siteGame) initVotings() {
	rounds := 0
	for _, p := range g.players {
		if p.HasNominate {
			rounds = max(rounds, len(p.Nominating))
		}
		if p.HasVoting {
			rounds = max(rounds, len(p.Voting))
		}
	}
	g.votings = nil
	for round := range rounds {
		v := &siteVoting{}
		first := g.whoSpeaksFirst(round)
		nominate := func(i int) {
			p := g.players[i-1]
			if p.HasNominate && round < len(p.Nominating) && iv(p.Nominating[round]) != 0 {
				v.nominees = append(v.nominees, &nomEntry{nominee: p.Nominating[round], by: ip(i)})
				v.hasNominees = true
			}
		}
		for i := first; i <= 10; i++ {
			nominate(i)
		}
		for i := 1; i < first; i++ {
			nominate(i)
		}
		find := func(n *int) *nomEntry {
			for _, e := range v.nominees {
				if looseEq(e.nominee, n) {
					return e
				}
			}
			e := &nomEntry{nominee: n}
			v.nominees = append(v.nominees, e)
			return e
		}
		for i, p := range g.players {
			if !p.HasVoting || round >= len(p.Voting) {
				continue
			}
			rv := p.Voting[round]
			if rv.null || (rv.isArray && len(rv.arr) == 0) || (!rv.isArray && rv.n == 0) {
				continue // null, an empty array and 0 are == null
			}
			v.hasNominees = true
			if rv.isArray {
				n := len(rv.arr)
				if rv.arr[n-1].isBool {
					n--
					v.hasVotedKill = true
					if rv.arr[n].b {
						v.votedToKill = append(v.votedToKill, i+1)
					}
				}
				for j := range n {
					e := rv.arr[j]
					var num *int
					if !e.null && !e.isBool {
						num = ip(e.n)
					}
					nom := find(num)
					if !nom.set {
						nom.voting, nom.set = []*cell{}, true
					}
					if len(nom.voting) < j {
						for range j {
							nom.voting = append(nom.voting, &cell{isArr: true})
						}
					}
					if j == len(nom.voting) {
						nom.voting = append(nom.voting, &cell{isArr: true})
					}
					c := nom.voting[j]
					if !c.isArr {
						panic(fatal{"init_votings: Cannot use a scalar value as an array"})
					}
					c.arr = append(c.arr, i+1)
				}
			} else {
				nom := find(ip(rv.n))
				switch {
				case !nom.set:
					nom.voting, nom.set = []*cell{{n: i + 1}}, true
				case len(nom.voting) > 0 && nom.voting[0].isArr:
					nom.voting[0].arr = append(nom.voting[0].arr, i+1)
				default:
					nom.voting = append(nom.voting, &cell{n: i + 1})
				}
			}
		}
		if v.hasNominees {
			top, voters, votingRounds := 0, 0, 0
			for _, nom := range v.nominees {
				if !nom.set || len(nom.voting) == 0 {
					continue
				}
				count := len(nom.voting)
				if last := nom.voting[count-1]; last.isArr {
					if votingRounds > count {
						count = 0
					} else {
						if votingRounds < count {
							votingRounds, top, voters = count, 0, 0
						}
						count = len(last.arr)
					}
				}
				top = max(top, count)
				voters += count
			}
			v.voters = voters
			for _, nom := range v.nominees {
				if !nom.set || len(nom.voting) == 0 {
					continue
				}
				count := len(nom.voting)
				if last := nom.voting[count-1]; last.isArr {
					count = len(last.arr)
				}
				if count == top {
					if v.winner != nil {
						v.winnerArray = true
					}
					v.winner = append(v.winner, iv(nom.nominee))
				}
			}
			if v.hasVotedKill {
				v.killed = len(v.votedToKill)*2 > voters
			} else if len(v.winner) > 0 {
				if num := v.winner[0]; num > 0 {
					p := g.players[num-1]
					if d := p.Death; d != nil {
						typ := ""
						if d.Type != nil {
							typ = *d.Type
						}
						switch {
						case iv(d.Round) == round && typ == "day":
							v.killed = true
						case d.Time != nil && typ != "day" && typ != "night":
							speech := &gtime{Time: sp("day kill speaking"), Round: ip(round), Speaker: ip(num), Order: ip(1000000000)}
							v.killed = g.compareGametimes(d.Time, speech, false) < 0
						}
					}
				}
			}
		}
		if g.isVotingCanceled(round) == gameYes {
			v.canceled = true
		}
		g.votings = append(g.votings, v)
	}
}

// checkGameResult mirrors Game::check_game_result: the cards (the site
// refuses any deal but 6 citizens, the Sheriff, 2 mafia and the Don), no
// nominations, votes or shots after a player's death round, the best move
// only of a player killed at night by round 1, no shots by red players.
func (g *siteGame) checkGameResult() bool {
	count := map[string]int{}
	for i, p := range g.players {
		role := "civ"
		if p.Role != nil {
			role = *p.Role
		}
		switch role {
		case "sheriff", "don", "maf", "civ":
			count[role]++
		default:
			panic(fatal{fmt.Sprintf(`Player %d has invalid role "%s". Role must be one of: "civ", "sheriff", "maf", or "don".`, i+1, role)})
		}
		if d := p.Death; d != nil {
			deathRound := -1
			if d.Round != nil {
				deathRound = *d.Round
			} else {
				g.issue(fmt.Sprintf("Death round is not set for player %d.", i+1))
			}
			if deathRound >= 0 {
				deathRound++
				if p.HasNominate && len(p.Nominating) > deathRound {
					g.issue(fmt.Sprintf("Player %d is nominating someone after he/she is dead.", i+1))
				}
				if p.HasVoting && len(p.Voting) > deathRound {
					g.issue(fmt.Sprintf("Player %d is voting for someone after he/she is dead.", i+1))
				}
				if p.HasShooting && len(p.Shooting) > deathRound {
					g.issue(fmt.Sprintf("Player %d is shooting someone after he/she is dead.", i+1))
				}
			}
		}
		if p.HasLegacy {
			g.flags &^= flagSimpleLegacy
			if g.flags&(flagDeath|flagDeathRound) != 0 {
				if d := p.Death; d != nil {
					if d.Type != nil && *d.Type != "night" {
						g.issue(fmt.Sprintf("Player %d was not killed in night. he/she can not leave legacy.", i+1))
					}
					if iv(d.Round) > 1 && d.Round != nil {
						g.issue(fmt.Sprintf("Player %d was killed in round %d he/she can not leave legacy.", i+1, *d.Round))
					}
				}
			} else {
				g.issue(fmt.Sprintf("Player %d has to be dead to leave a legacy.", i+1))
			}
		}
		if p.HasShooting && (role == "civ" || role == "sheriff") {
			g.issue(fmt.Sprintf("Player %d can not shoot because he/she is red.", i+1))
		}
	}
	for _, c := range []struct {
		role, name string
		want       int
	}{{"civ", "civilians", 6}, {"sheriff", "sheriffs", 1}, {"maf", "mafs", 2}, {"don", "dons", 1}} {
		if count[c.role] != c.want {
			panic(fatal{fmt.Sprintf("This game has %d %s. Must be %d.", count[c.role], c.name, c.want)})
		}
	}
	return true
}

// checkDeaths mirrors Game::check_deaths.
func (g *siteGame) checkDeaths() bool {
	if g.flags&flagDeath == 0 {
		return true
	}
	// j is the PHP loop variable of the night's shots, which the message of
	// a death on night 0 names: unset (null, so player 1) until a night's
	// loop has run, 10 after.
	j := 0
	for i, p := range g.players {
		d := p.Death
		if d == nil {
			continue
		}
		typ, round := "", -1
		if d.Type != nil {
			typ = *d.Type
		}
		if d.Round != nil {
			round = *d.Round
		}
		// Death type and round set (with their features).
		if typ == "" && g.flags&flagDeathType != 0 {
			g.issue(fmt.Sprintf("Death type is not set for player %d.", i+1))
		}
		if round < 0 && g.flags&flagDeathRound != 0 {
			g.issue(fmt.Sprintf("Death round is not set for player %d.", i+1))
		}
		switch typ {
		case "", "warnings", "techFouls":
		case "giveUp", "kickOut", "teamKickOut":
			// A removal's moment: set, and valid.
			if d.Time != nil {
				if issue := checkGametime(d.Time); issue != "" {
					g.issue(fmt.Sprintf("Player %d death time is incorect: %s", i+1, issue))
				}
			} else if g.flags&flagDeathTime != 0 {
				g.issue(fmt.Sprintf("Death time is not set for player %d.", i+1))
			}
		case "night":
			// Nobody dies on night 0; every black player at the table after
			// the shots shot the killed.
			if round == 0 {
				g.issue(fmt.Sprintf("Player %d was shot in night 0. This is not possible.", j+1))
			} else if round > 0 && g.flags&flagShooting != 0 {
				at := &gtime{Time: sp("shooting"), Round: ip(round)}
				j = 10
				for j, q := range g.players {
					if q.Role == nil || (*q.Role != "don" && *q.Role != "maf") {
						continue
					}
					if g.compareGametimes(at, g.deathTime(j+1, false), false) >= 0 {
						continue
					}
					switch {
					case !q.HasShooting:
						g.issue(fmt.Sprintf("Shooting is not set for player %d.", j+1))
					case len(q.Shooting) < round:
						g.issue(fmt.Sprintf("No shooting for player %d in round %d.", j+1, round))
					case iv(q.Shooting[round-1]) != i+1:
						g.issue(fmt.Sprintf("Wrong shooting to player %d in round %d for player %d. Because player %dwas shot in night %d.", i+1, round, j+1, i+1, round))
					}
				}
			}
		case "day":
			// The day's count sent the player away.
			if round >= 0 && round < len(g.votings) {
				v := g.votings[round]
				if v.killed {
					if v.winner != nil && !slices.Contains(v.winner, i+1) {
						g.issue(fmt.Sprintf("Player %d is specified as voted out in round %d. But accordiong to the voting info, another player was voted out.", i+1, round))
					}
				} else if g.flags&flagVoting != 0 {
					g.issue(fmt.Sprintf("Player %d is specified as voted out in round %d. But accordiong to the voting info, no one was voted out in this round.", i+1, round))
				}
			}
		default:
			panic(fatal{fmt.Sprintf(`Player %d has invalid death type "%s". Death type must be one of: "day", "night", "warnings", "techFouls", "kickOut", "teamKickOut", or "giveUp".`, i+1, typ)})
		}
	}
	return true
}

// checkNominations mirrors Game::check_nominations: no nomination by a
// player who had left, nor of one.
func (g *siteGame) checkNominations() bool {
	if g.flags&flagNominating == 0 {
		return true
	}
	speech := &gtime{Time: sp("speaking")}
	for i, p := range g.players {
		if !p.HasNominate {
			continue
		}
		dt := g.deathTime(i+1, true)
		speech.Round, speech.Speaker = ip(len(p.Nominating)-1), ip(i+1)
		if dt != nil && *speech.Round >= 0 && g.compareGametimes(dt, speech, false) < 0 {
			// The site let the night's killed nominate in games before 2015
			// only; PHP compares an ISO start time with the number as strings.
			if g.startTime > "1420070400" || dt.Time == nil || *dt.Time != "night kill speaking" {
				g.issue(fmt.Sprintf("Player %d was dead when they nominated player %d in round %d.", i+1, iv(p.Nominating[*speech.Round]), *speech.Round))
			}
		}
		for r := range len(p.Nominating) {
			speech.Round = ip(r)
			nom := p.Nominating[r]
			if iv(nom) == 0 {
				continue
			}
			if ndt := g.deathTime(*nom, false); ndt != nil && g.compareGametimes(ndt, speech, false) < 0 {
				g.issue(fmt.Sprintf("Player %d nominated dead player %d in round %d.", i+1, *nom, r))
			}
		}
	}
	return true
}

// checkShooting mirrors Game::check_shooting: shots by black players only,
// none after the shooter left. As on the site, the last shot's round is
// read as the length of the shots less one.
func (g *siteGame) checkShooting() bool {
	if g.flags&flagShooting == 0 {
		return true
	}
	for i, p := range g.players {
		if !p.HasShooting {
			continue
		}
		if p.Role == nil || (*p.Role != "maf" && *p.Role != "don") {
			g.issue(fmt.Sprintf("Player %d is not mafia but they were shooting .", i+1))
		}
		if dt := g.deathTime(i+1, false); dt != nil {
			at := &gtime{Time: sp("shooting"), Round: ip(len(p.Shooting) - 1)}
			if *at.Round >= 0 && g.compareGametimes(dt, at, false) < 0 {
				g.issue(fmt.Sprintf("Player %d was dead when they shot player %d in round %d.", i+1, iv(p.Shooting[*at.Round]), *at.Round))
			}
		}
	}
	return true
}

// checkVote mirrors Game::check_vote: the voter and the voted for at the
// table, the voted for nominated. It answers false where the site's answers
// null, for a cancelled vote, which stops check_voting.
func (g *siteGame) checkVote(voter int, voterDeath *gtime, voted int, at *gtime) bool {
	if g.isVotingCanceled(iv(at.Round)) == gameYes {
		return false
	}
	at.Nominee = ip(voted)
	if voterDeath != nil && g.compareGametimes(voterDeath, at, false) < 0 {
		g.issue(fmt.Sprintf("Player %d was dead when they were voting for %d in round %d.", voter, voted, iv(at.Round)))
	}
	if vdt := g.deathTime(voted, false); vdt != nil && g.compareGametimes(vdt, at, false) < 0 {
		g.issue(fmt.Sprintf("Player %d voted for dead player %d in round %d.", voter, voted, iv(at.Round)))
	}
	if g.flags&flagNominating != 0 {
		nominated := slices.ContainsFunc(g.players, func(p *sitePlayer) bool {
			r := iv(at.Round)
			return p.HasNominate && r < len(p.Nominating) && looseEq(p.Nominating[r], ip(voted))
		})
		if !nominated {
			g.issue(fmt.Sprintf("Player %d voted for player %d, who is not nominated in round %d.", voter, voted, iv(at.Round)))
		}
	}
	return true
}

// checkVotedOut mirrors Game::check_voted_out: a voted out player left in
// that round, not at night.
func (g *siteGame) checkVotedOut(num, round int) bool {
	d := g.players[num-1].Death
	switch {
	case d == nil:
		g.issue(fmt.Sprintf("Player was voted out in round %d but is not dead.", round))
	default:
		if iv(d.Round) != round {
			g.issue(fmt.Sprintf("Player was voted out in round %d but was dead in round %d.", round, iv(d.Round)))
		}
		if d.Type != nil && *d.Type == "night" {
			g.issue(fmt.Sprintf("Player was voted out in round %d but was dead by night.", round))
		}
	}
	return true
}

// checkVoting mirrors Game::check_voting: every vote of a player at the
// table checked (check_vote), every player at the table voting where a vote
// was held, and the voted out gone.
func (g *siteGame) checkVoting() bool {
	if g.flags&flagVoting == 0 {
		return true
	}
	for i, p := range g.players {
		dt := g.deathTime(i+1, true)
		at := &gtime{Time: sp("voting"), VotingRound: ip(0)}
		for round := 0; ; round++ {
			at.Round = ip(round)
			if g.compareGametimes(dt, at, false) < 0 {
				break
			}
			if round > 1000 {
				panic(fatal{"check_voting does not end"})
			}
			if p.HasVoting && round < len(p.Voting) && !p.Voting[round].null && !(p.Voting[round].isArray && len(p.Voting[round].arr) == 0) {
				v := p.Voting[round]
				at.VotingRound = ip(0)
				if v.isArray {
					for ; *at.VotingRound < len(v.arr); at.VotingRound = ip(*at.VotingRound + 1) {
						e := v.arr[*at.VotingRound]
						if !e.null && !e.isBool && !g.checkVote(i+1, dt, e.n, at) {
							return false
						}
					}
				} else if !g.checkVote(i+1, dt, v.n, at) {
					return false
				}
			} else if round < len(g.votings) && g.isVotingCanceled(round) == gameNo {
				if noms := len(g.nominees(round, 0)); noms > 0 && (round > 0 || noms > 1) {
					g.issue(fmt.Sprintf("Player %d did not vote in round %d. Although they were alive and voting was not canceled.", i+1, round))
				}
			}
		}
	}
	if g.flags&flagDeath != 0 {
		for round, v := range g.votings {
			switch {
			case v.canceled, v.winner == nil:
			case !v.winnerArray:
				if v.killed {
					g.checkVotedOut(v.winner[0], round)
					continue
				}
				should := round != 0
				if !should {
					switch g.rule(ruleFirstDayVoting) {
					case firstDayStandard:
						should = true
					case firstDayBreakingToSelf:
						w := g.players[v.winner[0]-1]
						if w.HasVoting && len(w.Voting) > round {
							rv := w.Voting[round]
							last := rv.n
							if rv.isArray {
								last = rv.arr[len(rv.arr)-1].n
							}
							should = last == v.winner[0]
						}
					}
				}
				if should {
					w := g.players[v.winner[0]-1]
					if w.Death == nil || iv(w.Death.Round) != round || (w.Death.Type != nil && (*w.Death.Type == "day" || *w.Death.Type == "night")) {
						g.issue(fmt.Sprintf("Player %d was voted out in round %d but did not die.", v.winner[0], round))
					}
				}
			case v.killed:
				for _, w := range v.winner {
					g.checkVotedOut(w, round)
				}
			}
		}
	}
	return true
}

// checkWarnings mirrors Game::check_warnings with warning details (the
// moments): at most 4, each a valid moment. Warnings as a bare count are
// not read here.
func (g *siteGame) checkWarnings() bool {
	if g.flags&flagWarnings == 0 {
		return true
	}
	if g.flags&flagWarningsDetails == 0 {
		panic(fatal{"warnings without their moments are not read here"})
	}
	for i, p := range g.players {
		if !p.HasWarnings {
			continue
		}
		if len(p.Warnings) > 4 {
			g.issue(fmt.Sprintf("Player %d has %d warnings.", i+1, len(p.Warnings)))
		}
		for j, w := range p.Warnings {
			if issue := checkGametime(w); issue != "" {
				g.issue(fmt.Sprintf("Player %d warning %d is incorect: %s", i+1, j+1, issue))
				break
			}
		}
	}
	return true
}

// checkTechFouls mirrors Game::check_tech_fouls; the records here have no
// technical fouls (read refuses them).
func (g *siteGame) checkTechFouls() bool { return true }
