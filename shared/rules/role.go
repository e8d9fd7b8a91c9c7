package rules

// Role is the card a player is dealt.
type Role string

// The roles of every rule set (docs/RULES.md, "Words used here").
const (
	Citizen    Role = "citizen"
	Mafia      Role = "mafia"
	Don        Role = "don"
	Sheriff    Role = "sheriff" // the Commissar of the classic and party texts
	Doctor     Role = "doctor"
	Lover      Role = "lover"
	Advocate   Role = "advocate"
	Cinderella Role = "cinderella"
	Maniac     Role = "maniac"
)

// Team is the side a role plays for.
type Team string

// The three sides.
const (
	Town      Team = "town"
	MafiaTeam Team = "mafia"
	Loner     Team = "maniac"
)

// Team returns the side the role plays for. The Maniac is his own team; whether he
// counts with the mafia is a game setting (ManiacSide), not part of the role.
func (r Role) Team() Team {
	switch r {
	case Mafia, Don:
		return MafiaTeam
	case Maniac:
		return Loner
	default:
		return Town
	}
}

// Black reports whether a Sheriff's check shows the role as black (R-SPORT-12: the Don
// shows black; R-MANIAC-05: the Maniac shows as not mafia).
func (r Role) Black() bool { return r.Team() == MafiaTeam }
