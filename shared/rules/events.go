package rules

// EventType names what an event of the story tells.
type EventType string

// Event types. Each is recorded with its audience; View shows a viewer only what that
// audience allows, and everything once the game is over.
const (
	EvJoined        EventType = "joined"         // target is in the lobby (the line goes when they leave, and all go at the start)
	EvStarted       EventType = "started"        // cards dealt
	EvNightFell     EventType = "night_fell"     // "the city falls asleep"
	EvShot          EventType = "shot"           // actor (mafia) aimed at target; to the mafia, or with eyes closed the shooter only
	EvAct           EventType = "act"            // actor's night act (result holds the type; rule R-MANIAC-03 on a shot too late to count); to the moderator
	EvChecked       EventType = "checked"        // actor checked target: result "black"/"red" or "sheriff"/"not_sheriff"
	EvCommissar     EventType = "commissar"      // result "right" or "wrong", to everyone (R-PARTY-03)
	EvMorning       EventType = "morning"        // "the city wakes up"
	EvKilled        EventType = "killed"         // target died at night; result the cause (Cause…) and rule, told at the end (and to the moderator)
	EvMissed        EventType = "missed"         // nobody died tonight
	EvHealed        EventType = "healed"         // target was saved: by the Doctor (R-CLASSIC-11), or result "protected" by actor, the Lover or Cinderella
	EvTreated       EventType = "treated"        // the Doctor treated target, who was healthy anyway
	EvSheriffMissed EventType = "sheriff_missed" // the Commissar's shot hit a citizen: nobody dies (R-CLASSIC-11)
	EvDayBegan      EventType = "day_began"
	EvMuted         EventType = "muted"       // target loses this monologue (R-SPORT-16)
	EvHand          EventType = "hand"        // target raised a hand for a further speech (R-MANIAC-09)
	EvNominated     EventType = "nominated"   // actor nominated target
	EvVoted         EventType = "vote_result" // the ballots of one vote, after it closed
	EvNotVoted      EventType = "not_voted"   // target has not voted: result "wait" (held open once more) or "lost" (counted without; R-MANIAC-10)
	EvTie           EventType = "tie"         // targets tied; result says what follows
	EvEliminated    EventType = "eliminated"  // target left by the vote; role when cards are open
	EvAcquitted     EventType = "acquitted"   // nobody leaves today; result says why
	EvDefended      EventType = "defended"    // the Advocate's client was sentenced and stays (R-PARTY-06)
	EvTestament     EventType = "testament"   // actor named target as result "mafia"/"honest" (R-CLASSIC-06)
	EvBestMove      EventType = "best_move"   // actor named targets in the first night's last word (Options.BestMove); how many are black is not told
	EvRevealed      EventType = "revealed"    // actor showed the Commissar's card (R-PARTY-04)
	EvWarned        EventType = "warned"      // target got a warning; result is the count, foul the foul named
	EvRemoved       EventType = "removed"     // target removed by warnings (result "fouls") or by the host; foul the foul named
	EvRole          EventType = "role"        // target's card is shown to everyone
	EvPaused        EventType = "paused"      // the host paused; the line goes when the game resumes
	EvManiacSide    EventType = "maniac_side" // the host set the Maniac's side (R-MANIAC-01)
	EvMoved         EventType = "moved"       // target's seat moved to another device (Move); only the latest line of a seat stays
	EvCorrected     EventType = "corrected"   // the host took a decision back (ActCorrect): result its type, target the player it was about
	EvTappedFor     EventType = "tapped_for"  // the moderator made target's night tap, told in the lines after it (ActTapFor); to the moderator
	EvGameOver      EventType = "game_over"   // result is the winning team
)

// Audiences: an event's To field is one of these or a player id.
const (
	ToAll   = ""
	ToMafia = "mafia"
	ToMod   = "mod"
)

// Event is one line of the game's story.
type Event struct {
	Day     int       `json:"day,omitempty"`
	Night   int       `json:"night,omitempty"`
	Type    EventType `json:"type"`
	Actor   string    `json:"actor,omitempty"`
	Target  string    `json:"target,omitempty"`
	Role    Role      `json:"role,omitempty"`
	Result  string    `json:"result,omitempty"`
	Ballots []Ballot  `json:"ballots,omitempty"`
	// Targets are the players a best move names (EvBestMove), in the order
	// named; every other event names one player at most, as Target.
	Targets []string `json:"targets,omitempty"`
	Foul    string   `json:"foul,omitempty"` // the foul a warning or removal was for (R-SPORT-16)
	// Rule is the rule that decided the outcome the event tells: who left and
	// why, a day without a sentence, a save, a late shot, the winner (RuleID).
	// It is empty where a house option and no rule text decided (ties: none).
	Rule RuleID `json:"rule,omitempty"`
	To   string `json:"to,omitempty"`
}

// Causes of a death at night: EvKilled's result.
const (
	CauseMafia       = "mafia"        // the black team's kill (R-SPORT-10, R-CLASSIC-04, R-MANIAC-03)
	CauseSheriff     = "sheriff"      // the Commissar's shot (R-CLASSIC-11, R-MANIAC-05)
	CauseManiac      = "maniac"       // the Maniac's (R-MANIAC-06)
	CauseDoubleDeath = "double_death" // named by the Commissar the mafia killed (R-PARTY-08)
)

// log appends an event for an audience.
func (s *State) log(to string, e Event) {
	e.To, e.Day, e.Night = to, s.Day, s.Night
	s.Events = append(s.Events, e)
}

// visible reports whether viewer v may see event e.
func (s *State) visible(e Event, v Viewer) bool {
	if s.Phase.Name == PhaseGameOver || e.To == ToAll {
		return true
	}
	if v.Host {
		return s.Moderator == ModeratorHost
	}
	if v.Player == "" {
		return false
	}
	switch e.To {
	case ToMod:
		return false
	case ToMafia:
		p := s.player(v.Player)
		if p == nil || p.Role.Team() != MafiaTeam {
			return false
		}
		// R-SPORT-10: a shot made with eyes closed is the shooter's alone.
		return e.Type != EvShot || e.Actor == v.Player || !s.eyesShut(e.Night)
	}
	return e.To == v.Player
}

// eyesShut reports whether the black players shoot with their eyes closed on the
// given night (R-SPORT-10): every night after the first, when the rules say so.
func (s *State) eyesShut(night int) bool { return s.Rules.EyesClosed && night > 1 }
