package rules

import (
	"slices"
	"strconv"
	"strings"
)

// The past: what Condense takes from the story is kept whole beside it, in a
// form smaller than the story's JSON, so that a game's record (History, and the
// protocol built from it) loses nothing when the stored game has to tell its
// story more briefly. Only when even the past does not fit does Condense cut
// it, oldest nights first, and State.WholeFrom says so.
//
// A game that fits the store as it is (every 10-player game measured: about
// 1.5 KB) has no past and pays nothing. Where the past is kept, it costs about
// what the story's JSON costs after deflate at ten players, and two fifths of
// it at thirty, where the ballots make the most of it: twelve rounds of a
// 30-player table, three votes each, take 493 bytes as the past and 1,206 as
// the story.
//
// The past is written event after event, each ended by ';'. "@day.night"
// gives the day and night of the events after it. An event is its type's
// letter (pastTypes) and its fields, separated by ',', in this order, with the
// trailing empty ones left out:
//
//	actor,target,result,role,foul,to,rule,ballots,targets
//
// A number 0 is written empty; a player id "p7" as "7"; a rule "R-SPORT-05" as
// "S05" (the first letter of its set); the audience, where it is the one its
// type always has (the moderator's night acts and taps for a seat, the black
// team's shots, a check to its asker), not at all. The ballots are separated
// by ' ', each voter[:target][+][*][!] (+ yes, * half, ! missing), and so are
// a best move's targets. A type or a rule set the tables do not know is written
// whole after a '~'. Every value the engine writes is a name, a number or a
// rule ID, none of which holds these signs, and none of them is a sign JSON
// escapes.
//
// The letters are part of the stored format: a letter, once given, keeps its
// type, and a new type takes a new letter.
var pastTypes = map[EventType]string{
	EvJoined: "J", EvStarted: "S", EvNightFell: "N", EvShot: "s", EvAct: "a", EvChecked: "c", EvCommissar: "C",
	EvMorning: "M", EvKilled: "K", EvMissed: "m", EvHealed: "h", EvTreated: "t", EvSheriffMissed: "x", EvDayBegan: "D",
	EvMuted: "u", EvHand: "H", EvNominated: "n", EvVoted: "V", EvNotVoted: "v", EvTie: "T", EvEliminated: "E",
	EvAcquitted: "A", EvDefended: "d", EvTestament: "w", EvRevealed: "R", EvWarned: "W", EvRemoved: "X", EvRole: "r",
	EvPaused: "P", EvManiacSide: "Z", EvGameOver: "G", EvCorrected: "U", EvBestMove: "B", EvTappedFor: "F",
}

// pastSets are the letters of the rule sets in the past's rule IDs.
var pastSets = map[string]string{"CLASSIC": "C", "SPORT": "S", "PARTY": "P", "MANIAC": "M"}

// audience is who an event of type typ by actor is always for, and the past
// leaves out: "" (everyone) for a type whose audience varies.
func audience(typ EventType, actor string) string {
	switch typ {
	case EvAct, EvTappedFor:
		return ToMod
	case EvShot:
		return ToMafia
	case EvChecked:
		return actor
	}
	return ToAll
}

// keepPast writes the story of the nights before the current one that the past
// does not hold yet into it, and moves PastUntil on to the current night.
func (s *State) keepPast() {
	if s.Night <= s.PastUntil {
		return
	}
	events := readPast(s.Past)
	for _, e := range s.Events {
		if e.Night >= s.PastUntil && e.Night < s.Night {
			events = append(events, e)
		}
	}
	s.Past, s.PastUntil = pastOf(events), s.Night
}

// cutPast keeps about the later 1/2^k of the past's events, whole nights of
// them, or none when k is 0, and notes the first night still told whole.
func (s *State) cutPast(k int) {
	events := readPast(s.Past)
	from := s.PastUntil
	if keep := len(events) >> k; k > 0 && keep > 0 {
		from = events[len(events)-keep].Night
	}
	if kept := pastOf(slices.DeleteFunc(events, func(e Event) bool { return e.Night < from })); len(kept) < len(s.Past) {
		s.Past, s.WholeFrom = kept, max(s.WholeFrom, from)
	}
}

// pastOf writes events as the past.
func pastOf(events []Event) string {
	var b strings.Builder
	day, night := 0, 0
	for _, e := range events {
		if e.Day != day || e.Night != night {
			day, night = e.Day, e.Night
			b.WriteString("@" + pastNumber(day) + "." + pastNumber(night) + ";")
		}
		writePast(&b, e)
	}
	return b.String()
}

// History is the whole story of s as far as the store has kept it, oldest
// first: the past Condense keeps beside the story, then the story since. Where
// even the past had to be cut, wholeFrom is the first night told whole; it is
// 0 when nothing is missing.
func History(s State) (events []Event, wholeFrom int) {
	events = readPast(s.Past)
	for _, e := range s.Events {
		if e.Night >= s.PastUntil {
			events = append(events, e)
		}
	}
	return events, s.WholeFrom
}

func writePast(b *strings.Builder, e Event) {
	var ballots strings.Builder
	for i, v := range e.Ballots {
		if i > 0 {
			ballots.WriteByte(' ')
		}
		ballots.WriteString(pastID(v.Voter))
		if v.Target != "" {
			ballots.WriteString(":" + pastID(v.Target))
		}
		for _, f := range []struct {
			on   bool
			sign byte
		}{{v.Yes, '+'}, {v.Half, '*'}, {v.Missing, '!'}} {
			if f.on {
				ballots.WriteByte(f.sign)
			}
		}
	}
	typ, ok := pastTypes[e.Type]
	if !ok {
		typ = "~" + string(e.Type)
	}
	to := e.To
	if to == audience(e.Type, e.Actor) {
		to = ""
	} else if to == ToAll {
		to = "-" // everyone, where the type is usually for fewer
	}
	targets := make([]string, len(e.Targets))
	for i, t := range e.Targets {
		targets[i] = pastID(t)
	}
	fields := []string{pastID(e.Actor), pastID(e.Target), e.Result, string(e.Role), e.Foul, pastID(to), pastRule(e.Rule), ballots.String(),
		strings.Join(targets, " ")}
	for len(fields) > 0 && fields[len(fields)-1] == "" {
		fields = fields[:len(fields)-1]
	}
	b.WriteString(typ)
	for _, f := range fields {
		b.WriteString("," + f)
	}
	b.WriteByte(';')
}

// readPast reads what pastOf wrote.
func readPast(past string) []Event {
	var out []Event
	day, night := 0, 0
	types := map[string]EventType{}
	for t, letter := range pastTypes {
		types[letter] = t
	}
	for line := range strings.SplitSeq(past, ";") {
		if at, ok := strings.CutPrefix(line, "@"); ok {
			d, n, _ := strings.Cut(at, ".")
			day, night = readNumber(d), readNumber(n)
			continue
		}
		if line == "" {
			continue
		}
		f := strings.Split(line, ",")
		f = append(f, make([]string, 10-min(len(f), 10))...)
		typ, ok := types[f[0]]
		if !ok {
			typ = EventType(strings.TrimPrefix(f[0], "~"))
		}
		e := Event{Type: typ, Day: day, Night: night, Actor: readID(f[1]), Target: readID(f[2]),
			Result: f[3], Role: Role(f[4]), Foul: f[5], Rule: readRule(f[7])}
		switch f[6] {
		case "":
			e.To = audience(typ, e.Actor)
		case "-":
			e.To = ToAll
		default:
			e.To = readID(f[6])
		}
		for v := range strings.FieldsSeq(f[8]) {
			var b Ballot
			v, b.Missing = strings.CutSuffix(v, "!")
			v, b.Half = strings.CutSuffix(v, "*")
			v, b.Yes = strings.CutSuffix(v, "+")
			voter, target, _ := strings.Cut(v, ":")
			b.Voter, b.Target = readID(voter), readID(target)
			e.Ballots = append(e.Ballots, b)
		}
		for t := range strings.FieldsSeq(f[9]) {
			e.Targets = append(e.Targets, readID(t))
		}
		out = append(out, e)
	}
	return out
}

// pastRule writes "R-SPORT-05" as "S05".
func pastRule(id RuleID) string {
	set, n, ok := strings.Cut(strings.TrimPrefix(string(id), "R-"), "-")
	if letter, known := pastSets[set]; ok && known {
		return letter + n
	}
	if id == "" {
		return ""
	}
	return "~" + string(id)
}

func readRule(s string) RuleID {
	if s == "" {
		return ""
	}
	if whole, ok := strings.CutPrefix(s, "~"); ok {
		return RuleID(whole)
	}
	for set, letter := range pastSets {
		if n, ok := strings.CutPrefix(s, letter); ok {
			return RuleID("R-" + set + "-" + n)
		}
	}
	return RuleID(s)
}

func pastNumber(n int) string {
	if n == 0 {
		return ""
	}
	return strconv.Itoa(n)
}

func readNumber(s string) int {
	n, _ := strconv.Atoi(s)
	return n
}

// pastID writes a player id "p7" as "7"; any other word as it is.
func pastID(id string) string {
	if n, ok := strings.CutPrefix(id, "p"); ok && n != "" && strings.Trim(n, "0123456789") == "" {
		return n
	}
	return id
}

func readID(s string) string {
	if s != "" && strings.Trim(s, "0123456789") == "" {
		return "p" + s
	}
	return s
}
