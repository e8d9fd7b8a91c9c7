package rules

import (
	"reflect"
	"slices"
	"strings"
)

// OptionKind is what values an option takes.
type OptionKind string

const (
	KindBool   OptionKind = "bool"
	KindInt    OptionKind = "int"
	KindChoice OptionKind = "choice"
)

// OptionSpec describes one field of Options for whoever offers or checks it:
// Validate checks a game's options by these specs, and the HTTP API serves
// them (with the presets) to the page that lets a host change the rules, so
// that the ranges and choices are written down once, here.
type OptionSpec struct {
	Key     string     `json:"key"` // the field's JSON name
	Kind    OptionKind `json:"type"`
	Min     int        `json:"min"`               // KindInt: the least value
	Max     int        `json:"max"`               // KindInt: the greatest value
	Choices []string   `json:"choices,omitempty"` // KindChoice: the allowed values
	// Group is the part of the rules the option belongs to, for grouping the
	// options on a form: one of OptionGroups.
	Group string `json:"group"`
}

// OptionGroups lists the groups of OptionSpecs in the order a form shows them.
var OptionGroups = []string{"table", "roles", "win", "night", "day", "fouls", "timers"}

// OptionSpecs lists every field of Options but Preset, in the order a form
// shows them.
var OptionSpecs = []OptionSpec{
	integer("minPlayers", 3, 30, "table"),
	integer("maxPlayers", 3, 30, "table"),
	integer("mafia", 0, 10, "table"),
	oneOf("mafiaFormula", "table", FormulaClassic, FormulaParty),
	toggle("drawSeats", "table"),
	toggle("don", "roles"),
	toggle("sheriff", "roles"),
	toggle("doctor", "roles"),
	toggle("lover", "roles"),
	toggle("advocate", "roles"),
	toggle("cinderella", "roles"),
	toggle("maniac", "roles"),
	oneOf("maniacSide", "roles", ManiacAlone, ManiacMafia),
	oneOf("loneManiac", "roles", LoneLastTwo, LoneTown),
	toggle("openRoles", "win"),
	oneOf("win", "win", WinParity, WinElimination),
	toggle("lastPairMafia", "win"),
	toggle("loneManiacApart", "win"),
	toggle("firstNightMeeting", "night"),
	toggle("firstNightChecks", "night"),
	oneOf("mafiaKill", "night", KillUnanimous, KillDon, KillMajority),
	toggle("eyesClosed", "night"),
	toggle("donChecks", "night"),
	oneOf("commissar", "night", CommissarCheck, CommissarPublic, CommissarShoot, CommissarCheckOrShoot),
	toggle("doctorVictims", "night"),
	toggle("doctorOncePerPlayer", "night"),
	toggle("doctorNamesPatient", "night"),
	toggle("doubleDeath", "night"),
	toggle("introRound", "day"),
	oneOf("dayOpener", "day", OpenerNextSeat, OpenerDaySeat),
	oneOf("voting", "day", VotingNominees, VotingAnyone),
	integer("nominationsPerSpeech", 1, 3, "day"),
	integer("maxNominees", 0, 30, "day"),
	toggle("nomineeDefence", "day"),
	toggle("day1SingleNomineeStays", "day"),
	oneOf("nonVoters", "day", NonVotersLastNominee, NonVotersAbstain, NonVotersCompulsory),
	oneOf("ties", "day", TiesCarCrash, TiesRevote, TiesJustify, TiesNone),
	integer("tieRepeats", 0, 5, "day"),
	toggle("justifiedLeaves", "day"),
	toggle("fourLeftNoRevote", "day"),
	toggle("halfVote", "day"),
	toggle("voteChange", "day"),
	oneOf("lastWords", "day", LastWordsAll, LastWordsTownNight, LastWordsSheriffNight, LastWordsNone),
	toggle("testament", "day"),
	toggle("testamentKills", "day"),
	toggle("bestMove", "day"),
	integer("revealAfter", 0, 5, "day"),
	integer("warningsToMute", 0, 10, "fouls"),
	integer("warningsToRemove", 0, 10, "fouls"),
	toggle("muteWholeRound", "fouls"),
	oneOf("forbiddenWords", "fouls", ForbiddenWarning, ForbiddenRemoval),
	integer("speech", 5, 600, "timers"),
	integer("defence", 5, 600, "timers"),
	integer("lastWord", 5, 600, "timers"),
	integer("intro", 5, 600, "timers"),
	integer("extraSpeech", 0, 600, "timers"),
	integer("night", 10, 1800, "timers"),
	integer("mafiaTime", 0, 600, "timers"),
	integer("vote", 5, 600, "timers"),
	integer("handOver", 0, 10, "timers"),
}

func toggle(key, group string) OptionSpec { return OptionSpec{Key: key, Kind: KindBool, Group: group} }

func integer(key string, lo, hi int, group string) OptionSpec {
	return OptionSpec{Key: key, Kind: KindInt, Min: lo, Max: hi, Group: group}
}

func oneOf[T choice](key, group string, values ...T) OptionSpec {
	return OptionSpec{Key: key, Kind: KindChoice, Choices: names(values...), Group: group}
}

// optionFields maps each option's JSON name to its field's index in Options.
var optionFields = func() map[string]int {
	m := map[string]int{}
	t := reflect.TypeFor[Options]()
	for i := range t.NumField() {
		name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
		m[name] = i
	}
	return m
}()

// check refuses a value of o outside the spec.
func (spec OptionSpec) check(o Options) error {
	v := reflect.ValueOf(o).Field(optionFields[spec.Key])
	switch spec.Kind {
	case KindChoice:
		if !slices.Contains(spec.Choices, v.String()) {
			return refusef(ErrInvalidOptions, "%s must be one of %v, not %q", spec.Key, spec.Choices, v.String())
		}
	case KindInt:
		if n := int(v.Int()); n < spec.Min || n > spec.Max {
			return refusef(ErrInvalidOptions, "%s must be between %d and %d, not %d", spec.Key, spec.Min, spec.Max, n)
		}
	}
	return nil
}

// Schema is what a page needs to offer the rules: the presets in the order a
// host is offered them, each preset's options, and every option's spec.
type Schema struct {
	Presets  []string           `json:"presets"`
	Defaults map[string]Options `json:"defaults"`
	Options  []OptionSpec       `json:"options"`
	Groups   []string           `json:"groups"`
}

// OptionSchema returns the rules' schema.
func OptionSchema() Schema {
	s := Schema{Presets: Presets, Defaults: map[string]Options{}, Options: OptionSpecs, Groups: OptionGroups}
	for _, p := range Presets {
		s.Defaults[p], _ = Preset(p) // every name in Presets is a preset
	}
	return s
}
