package rules

// Event types. Each is recorded with its audience; View shows a viewer only what that
// audience allows, and everything once the game is over.
const (
	EvJoined        = "joined"         // target is in the lobby (the line goes when they leave, and all go at the start)
	EvStarted       = "started"        // cards dealt
	EvNightFell     = "night_fell"     // "the city falls asleep"
	EvShot          = "shot"           // actor (mafia) aimed at target; to the mafia, or with eyes closed the shooter only
	EvAct           = "act"            // actor's night act (result holds the type); to the moderator
	EvChecked       = "checked"        // actor checked target: result "black"/"red" or "sheriff"/"not_sheriff"
	EvCommissar     = "commissar"      // result "right" or "wrong", to everyone (R-PARTY-03)
	EvMorning       = "morning"        // "the city wakes up"
	EvKilled        = "killed"         // target died at night; role when cards are open
	EvMissed        = "missed"         // nobody died tonight
	EvHealed        = "healed"         // the Doctor saved target from the mafia (R-CLASSIC-11)
	EvTreated       = "treated"        // the Doctor treated target, who was healthy anyway
	EvSheriffMissed = "sheriff_missed" // the Commissar's shot hit a citizen: nobody dies (R-CLASSIC-11)
	EvDayBegan      = "day_began"
	EvMuted         = "muted"       // target loses this monologue (R-SPORT-16)
	EvHand          = "hand"        // target raised a hand for a further speech (R-MANIAC-09)
	EvNominated     = "nominated"   // actor nominated target
	EvVoted         = "vote_result" // the ballots of one vote, after it closed
	EvNotVoted      = "not_voted"   // target has not voted: result "wait" (held open once more) or "lost" (counted without; R-MANIAC-10)
	EvTie           = "tie"         // targets tied; result says what follows
	EvEliminated    = "eliminated"  // target left by the vote; role when cards are open
	EvAcquitted     = "acquitted"   // nobody leaves today; result says why
	EvDefended      = "defended"    // the Advocate's client was sentenced and stays (R-PARTY-06)
	EvTestament     = "testament"   // actor named target as result "mafia"/"honest" (R-CLASSIC-06)
	EvRevealed      = "revealed"    // actor showed the Commissar's card (R-PARTY-04)
	EvWarned        = "warned"      // target got a warning; result is the count, foul the foul named
	EvRemoved       = "removed"     // target removed by warnings (result "fouls") or by the host; foul the foul named
	EvRole          = "role"        // target's card is shown to everyone
	EvPaused        = "paused"      // the host paused; the line goes when the game resumes
	EvManiacSide    = "maniac_side" // the host set the Maniac's side (R-MANIAC-01)
	EvGameOver      = "game_over"   // result is the winning team
)

// Audiences: an event's To field is one of these or a player id.
const (
	ToAll   = ""
	ToMafia = "mafia"
	ToMod   = "mod"
)

// Event is one line of the game's story.
type Event struct {
	Day     int      `json:"day,omitempty"`
	Night   int      `json:"night,omitempty"`
	Type    string   `json:"type"`
	Actor   string   `json:"actor,omitempty"`
	Target  string   `json:"target,omitempty"`
	Role    Role     `json:"role,omitempty"`
	Result  string   `json:"result,omitempty"`
	Ballots []Ballot `json:"ballots,omitempty"`
	Foul    string   `json:"foul,omitempty"` // the foul a warning or removal was for (R-SPORT-16)
	To      string   `json:"to,omitempty"`
}

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
