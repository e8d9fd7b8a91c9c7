package rules

import (
	"math/rand/v2"
	"slices"
	"strconv"
	"time"
	"unicode/utf8"
)

// New returns a game in its lobby. The options are validated first.
func New(code string, opts Options, moderator, lang string, now time.Time) (State, error) {
	if err := opts.Validate(); err != nil {
		return State{}, err
	}
	if moderator != ModeratorApp && moderator != ModeratorHost {
		return State{}, refusal(ErrBadField, "moderator must be app or host")
	}
	return State{Code: code, Rules: opts, Moderator: moderator, Lang: lang,
		Phase: Phase{Name: PhaseLobby}, Created: now}, nil
}

// MaxName is the longest player name, in characters.
const MaxName = 24

// MaxBanned bounds the devices a lobby remembers as banned; the oldest ban is
// forgotten first. A host who bans more is fighting someone who makes new
// devices at will, and locking the lobby (ActLock) is the answer to that.
const MaxBanned = 16

// Join seats a new player in the lobby and returns the game and the player's id.
// The name must already be trimmed; it must be unique at the table.
func Join(s State, name string, now time.Time) (State, string, error) {
	return JoinFrom(s, name, "", now)
}

// JoinFrom is Join from a device known by its key (any string that names the
// device and nothing else; "" for none): the host may ban that device from the
// lobby (ActBan), and a banned device cannot join again. A locked lobby refuses
// everyone.
//
// The new player takes the lowest free id ("p1", "p2", …), so ids stay short
// however many people come and go in the lobby: nothing in the game refers to a
// player who left it (see unseat).
func JoinFrom(s State, name, device string, now time.Time) (State, string, error) {
	switch {
	case s.Phase.Name != PhaseLobby || s.Phase.Closing:
		return s, "", refusal(ErrWrongPhase, "the game has started; joining is closed")
	case name == "" || utf8.RuneCountInString(name) > MaxName || !utf8.ValidString(name):
		return s, "", refusal(ErrBadField, "a name is 1 to 24 characters")
	case s.seated():
		return s, "", ErrSeated
	case device != "" && slices.Contains(s.Banned, device):
		return s, "", ErrBanned
	case s.Locked:
		return s, "", ErrLocked
	case len(s.Players) >= s.Rules.MaxPlayers:
		return s, "", ErrTableFull
	}
	for _, p := range s.Players {
		if p.Name == name {
			return s, "", ErrNameTaken
		}
	}
	n := s.clone()
	id := n.freeID()
	n.Players = append(n.Players, Player{ID: id, Name: name, Seat: len(n.Players) + 1, Alive: true, Device: device})
	n.log(ToAll, Event{Type: EvJoined, Target: id})
	return n, id, nil
}

// freeID is the lowest player id no one at the table has.
func (s *State) freeID() string {
	for i := 1; ; i++ {
		id := "p" + strconv.Itoa(i)
		if s.player(id) == nil {
			return id
		}
	}
}

// Apply applies one action at time now and returns the next state. Any transition
// that fell due before now is applied first. A refused action returns the state it
// was given, unchanged, and an *Error saying why.
func Apply(s State, actor Actor, a Action, now time.Time) (State, error) {
	n := Advance(s, now)
	if err := n.check(actor, a); err != nil {
		return s, err
	}
	if n.Phase.Name == PhaseGameOver {
		return s, ErrGameOver
	}
	n = n.clone()
	n.decided(actor, a, now)
	if err := n.do(actor, a, now); err != nil {
		return s, err
	}
	return n, nil
}

// check refuses an action that is not among the actor's legal options, naming the
// most helpful reason.
func (s *State) check(actor Actor, a Action) error {
	isHost, isPlayer := hostActions[a.Type], playerActions[a.Type]
	switch {
	case !isHost && !isPlayer:
		return ErrUnknownAction
	case s.Phase.Name == PhaseGameOver:
		return ErrGameOver
	case isHost && !actor.Host:
		return ErrNotHost
	case isPlayer && actor.Host:
		return ErrNotPlayer
	}
	var p *Player
	if isPlayer {
		if p = s.player(actor.Player); p == nil {
			return ErrNotPlayer
		}
		if s.Phase.Paused > 0 {
			return ErrPaused
		}
	}
	opts := Legal(*s, actor)
	i := slices.IndexFunc(opts, func(o Option) bool { return o.Type == a.Type })
	if i < 0 {
		return s.diagnose(p, a)
	}
	o := opts[i]
	switch a.Type {
	case ActVote:
		if a.Target == "" && o.Abstain {
			return nil
		}
		return inTargets(o, a.Target)
	case ActVoteAll:
		if a.Yes == nil {
			return refusal(ErrBadField, "vote_all needs yes: true or false")
		}
	case ActTestament:
		if a.Verdict != VerdictMafia && a.Verdict != VerdictHonest {
			return refusal(ErrBadField, "a testament's verdict is mafia or honest")
		}
		return inTargets(o, a.Target)
	case ActSeat:
		if a.Seat < 1 || a.Seat > len(s.Players) {
			return refusal(ErrBadField, "no such seat")
		}
		return inTargets(o, a.Target)
	case ActManiacSide:
		if a.Side != ManiacAlone && a.Side != ManiacMafia {
			return refusal(ErrBadField, "the Maniac's side is alone or mafia")
		}
	case ActWarn, ActRemove:
		if a.Foul != "" && !slices.Contains(o.Fouls, a.Foul) {
			return s.Rules.foulRefusal(a.Type, a.Foul)
		}
		return inTargets(o, a.Target)
	case ActNominate:
		if a.Target == actor.Player {
			return errSelfNomination
		}
		return inTargets(o, a.Target)
	case ActBestMove:
		return checkBestMove(o, a.Targets, actor.Player)
	case ActTapFor:
		return s.checkTapFor(o, a)
	case ActAdvance:
		if (s.Phase.Closing || s.Phase.Resuming) && !a.Now {
			return refusal(ErrWrongPhase, "this step is already over; the next one opens in a moment")
		}
	case ActConfigure:
		if a.Options == nil {
			return refusal(ErrBadField, "configure needs options")
		}
		return a.Options.Validate()
	default:
		if o.Targets != nil {
			return inTargets(o, a.Target)
		}
	}
	return nil
}

// errSelfNomination refuses a speaker who puts himself up: a nomination is of
// another player (R-SPORT-04, R-PARTY-09).
var errSelfNomination = refusal(ErrBadTarget, "nominate: a player nominates another player, never himself")

func inTargets(o Option, target string) error {
	if !slices.Contains(o.Targets, target) {
		return refusal(ErrBadTarget, string(o.Type)+": that player is not a valid target now")
	}
	return nil
}

// seatedKeeps are the lobby's actions a seated table (State.Table) refuses:
// each would change who sits at it or by which rules.
var seatedKeeps = []ActionType{ActConfigure, ActLock, ActUnlock, ActKick, ActBan, ActLeave}

// diagnose explains why a known action is not legal for p now.
func (s *State) diagnose(p *Player, a Action) error {
	if s.seated() && s.Phase.Name == PhaseLobby && !s.Phase.Closing && slices.Contains(seatedKeeps, a.Type) {
		return ErrSeated
	}
	switch a.Type {
	case ActCorrect:
		return errNoCorrection
	case ActTapFor:
		return s.tapForRefusal(a)
	}
	if p == nil {
		if s.Phase.Paused > 0 && a.Type != ActResume {
			return ErrPaused
		}
		return ErrWrongPhase
	}
	if s.Phase.Closing || s.Phase.Resuming {
		return refusal(ErrWrongPhase, "this step is over; the next one opens in a moment")
	}
	if s.Phase.Name != PhaseLobby && !p.Alive && s.speaker() != p.ID {
		return ErrDead
	}
	switch a.Type {
	case ActKill, ActCheck, ActHeal, ActProtect, ActDefend, ActShoot, ActSleep:
		if s.Phase.Name != PhaseNight {
			return ErrWrongPhase
		}
		if slices.Contains(s.Done, p.ID) || s.chose(p.ID, a.Type) {
			return ErrAlreadyActed
		}
		return ErrNotYourRole
	case ActNominate, ActWithdraw, ActEndSpeech:
		if a.Type == ActWithdraw && (s.Phase.Name == PhaseVote || s.Phase.Name == PhaseVoteAll) {
			if s.Rules.VoteChange {
				return refusal(ErrWrongPhase, "you have no vote to take back")
			}
			return refusal(ErrWrongPhase, "votes are final under these rules")
		}
		if s.speaker() == "" {
			return ErrWrongPhase
		}
		if s.speaker() != p.ID {
			return ErrNotYourTurn
		}
		if a.Type == ActNominate && a.Target == p.ID {
			return errSelfNomination
		}
		return refusal(ErrAlreadyActed, "no nominations left, or none to withdraw")
	case ActVote, ActVoteAll:
		if (a.Type == ActVote) != (s.Phase.Name == PhaseVote) || (s.Phase.Name != PhaseVote && s.Phase.Name != PhaseVoteAll) {
			return ErrWrongPhase
		}
		return ErrAlreadyActed
	case ActTestament, ActReveal:
		return ErrNotYourRole
	case ActBestMove:
		return s.bestMoveRefusal(p)
	case ActRaiseHand:
		if s.Phase.Name == PhaseDay && s.Phase.Reason == ReasonNone && slices.Contains(s.Hands, p.ID) {
			return refusal(ErrAlreadyActed, "your hand is already raised")
		}
	}
	return ErrWrongPhase
}

// do carries out an action that check accepted.
func (s *State) do(actor Actor, a Action, now time.Time) error {
	switch a.Type {
	case ActStart:
		s.start(a.Deal, now)
	case ActKick:
		s.unseat(a.Target)
	case ActBan:
		s.ban(a.Target)
	case ActLock:
		s.Locked = true
	case ActUnlock:
		s.Locked = false
	case ActReseat:
		// Nothing changes until the seat moves (Move): the link is the
		// service's, and the rules know no keys.
	case ActLeave:
		s.unseat(actor.Player)
	case ActSeat:
		s.reseat(a.Target, a.Seat)
	case ActConfigure:
		s.Rules = *a.Options
	case ActCorrect:
		s.correct(now)
	case ActManiacSide:
		// R-MANIAC-01: the host decides the Maniac's side and announces it.
		s.Rules.ManiacSide = a.Side
		s.forget(func(e Event) bool { return e.Type == EvManiacSide }) // only the last word stands
		s.log(ToAll, Event{Type: EvManiacSide, Result: string(a.Side)})
		if s.Phase.Name != PhaseLobby {
			s.checkWin(now)
		}
	case ActAdvance:
		// The moderator's "next" ends the step with a hand-over, like a tap;
		// during one it ends the hand-over now.
		if s.Phase.Closing || s.Phase.Resuming {
			s.timeout(now)
		} else {
			s.complete(now)
		}
	case ActPause:
		left := time.Millisecond
		if !s.Phase.EndsAt.IsZero() {
			left = max(left, s.Phase.EndsAt.Sub(now))
		}
		s.Phase.Paused = left
		s.log(ToAll, Event{Type: EvPaused})
	case ActResume:
		s.resume(now)
		s.resumed()
	case ActWarn:
		s.warn(a.Target, a.Foul, now)
	case ActRemove:
		s.log(ToAll, Event{Type: EvRemoved, Target: a.Target, Foul: a.Foul, Rule: "R-SPORT-16"})
		s.remove(a.Target, now)
	case ActSleep, ActKill, ActCheck, ActHeal, ActProtect, ActDefend, ActShoot:
		s.nightAct(actor.Player, a, now)
	case ActTapFor:
		// The seat's own tap (checkTapFor), told to the moderator as made by
		// the moderator; the line comes first, so that the tap's own lines
		// follow it, as they follow nightfall.
		s.log(ToMod, Event{Type: EvTappedFor, Target: a.Target})
		s.nightAct(a.Target, a.Tap.action(), now)
	case ActNominate:
		s.Nominations = append(s.Nominations, Nomination{By: actor.Player, Target: a.Target})
		s.Phase.Nominated++
		s.log(ToAll, Event{Type: EvNominated, Actor: actor.Player, Target: a.Target})
	case ActWithdraw:
		if s.Phase.Name == PhaseVote || s.Phase.Name == PhaseVoteAll {
			s.unvote(actor.Player)
			break
		}
		s.withdraw(actor.Player)
	case ActEndSpeech:
		s.complete(now)
	case ActRaiseHand:
		s.Hands = append(s.Hands, actor.Player)
		s.log(ToAll, Event{Type: EvHand, Target: actor.Player})
	case ActVote:
		s.Ballots = append(s.Ballots, Ballot{Voter: actor.Player, Target: a.Target, Half: !s.player(actor.Player).Alive})
		s.voteCast(now)
	case ActVoteAll:
		s.Ballots = append(s.Ballots, Ballot{Voter: actor.Player, Yes: *a.Yes})
		s.voteCast(now)
	case ActTestament:
		s.testament(actor.Player, a.Target, a.Verdict, now)
	case ActBestMove:
		s.bestMove(actor.Player, a.Targets)
	case ActReveal:
		s.reveal(actor.Player, now)
	}
	return nil
}

// start deals the cards (R-CLASSIC-01, R-SPORT-01, R-PARTY-01, R-MANIAC-01) with the
// action's random seed, and opens the first night.
func (s *State) start(seed [32]byte, now time.Time) {
	rng := rand.New(rand.NewChaCha8(seed))
	n := len(s.Players)
	if s.Rules.DrawSeats {
		rng.Shuffle(n, func(i, j int) { s.Players[i], s.Players[j] = s.Players[j], s.Players[i] })
		s.renumber()
	}
	deck := s.Rules.Deck(n)
	rng.Shuffle(n, func(i, j int) { deck[i], deck[j] = deck[j], deck[i] })
	for i := range s.Players {
		s.Players[i].Role = deck[i]
	}
	s.closeLobby()
	s.log(ToAll, Event{Type: EvStarted})
	if s.Rules.Maniac {
		// R-MANIAC-01: the host decides the Maniac's side and announces it.
		s.log(ToAll, Event{Type: EvManiacSide, Result: string(s.Rules.ManiacSide)})
	}
	// The cards are dealt; the night falls after the hand-over, as every phone
	// turns to its night task.
	s.complete(now)
}

// Deck returns the cards for a table of n players, in a fixed order.
func (o Options) Deck(n int) []Role {
	black := o.MafiaCount(n)
	deck := make([]Role, 0, n)
	for i := range black {
		if i == 0 && o.Don {
			deck = append(deck, Don)
		} else {
			deck = append(deck, Mafia)
		}
	}
	for _, c := range []struct {
		on   bool
		role Role
	}{{o.Sheriff, Sheriff}, {o.Doctor, Doctor}, {o.Lover, Lover}, {o.Advocate, Advocate}, {o.Cinderella, Cinderella}, {o.Maniac, Maniac}} {
		if c.on {
			deck = append(deck, c.role)
		}
	}
	for len(deck) < n {
		deck = append(deck, Citizen)
	}
	return deck
}

// unseat takes a player out of the lobby (left, kicked or banned) together with
// their "joined" and "moved" lines: a lobby's comings and goings leave no trace
// but the table as it is, so join-and-leave loops cannot grow the game, and the
// id is free for the next player (JoinFrom).
func (s *State) unseat(id string) {
	s.Players = slices.DeleteFunc(s.Players, func(p Player) bool { return p.ID == id })
	s.renumber()
	s.forget(func(e Event) bool { return lobbyLine(e) && e.Target == id })
}

// lobbyLine reports whether e tells of the lobby's comings and goings: a
// player joined, or moved to another device before the deal.
func lobbyLine(e Event) bool { return e.Type == EvJoined || e.Type == EvMoved }

// ban unseats a player and refuses their device from now on (JoinFrom).
func (s *State) ban(id string) {
	if d := s.player(id).Device; d != "" && !slices.Contains(s.Banned, d) {
		s.Banned = append(s.Banned, d)
		if n := len(s.Banned) - MaxBanned; n > 0 {
			s.Banned = slices.Delete(s.Banned, 0, n)
		}
	}
	s.unseat(id)
}

// closeLobby forgets what only the lobby needs once the cards are dealt: the
// lock, the bans, the players' devices and the "joined" and "moved" lines (the
// start says who plays).
func (s *State) closeLobby() {
	s.Locked, s.Banned = false, nil
	for i := range s.Players {
		s.Players[i].Device = ""
	}
	s.forget(lobbyLine)
}

func (s *State) reseat(id string, seat int) {
	i := slices.IndexFunc(s.Players, func(p Player) bool { return p.ID == id })
	p := s.Players[i]
	s.Players = slices.Delete(s.Players, i, i+1)
	s.Players = slices.Insert(s.Players, seat-1, p)
	s.renumber()
}

func (s *State) renumber() {
	for i := range s.Players {
		s.Players[i].Seat = i + 1
	}
}

// warn gives a warning for a foul (R-SPORT-16): the WarningsToMute-th costs the
// next monologue, the WarningsToRemove-th removes the player.
func (s *State) warn(id, foul string, now time.Time) {
	p := s.player(id)
	p.Warnings++
	s.log(ToAll, Event{Type: EvWarned, Target: id, Result: strconv.Itoa(p.Warnings), Foul: foul})
	switch {
	case s.Rules.WarningsToRemove > 0 && p.Warnings >= s.Rules.WarningsToRemove:
		s.log(ToAll, Event{Type: EvRemoved, Target: id, Result: "fouls", Foul: foul, Rule: "R-SPORT-16"})
		s.remove(id, now)
	case s.Rules.WarningsToMute > 0 && p.Warnings == s.Rules.WarningsToMute:
		if s.Phase.Name == PhaseDay && s.Phase.Reason == ReasonNone && s.speaker() == id && !s.Phase.Closing {
			// Text 002 rule 23: the word is lost for one round; given during the
			// player's own monologue, that is this one, and it ends now.
			s.silence(p)
			s.log(ToAll, Event{Type: EvMuted, Target: id})
			s.nextSpeaker(now)
			return
		}
		p.Muted = 1 // the next monologue (after their speech: the next round's)
	}
}

// remove takes a player out at once, with no last word (R-SPORT-16), and lets the
// game go on without them.
func (s *State) remove(id string, now time.Time) {
	p := s.player(id)
	p.Alive, p.Removed = false, true
	s.showCard(p)
	s.Ballots = slices.DeleteFunc(s.Ballots, func(b Ballot) bool { return b.Voter == id })
	s.unnominate(id)
	s.Phase.Candidates = slices.DeleteFunc(s.Phase.Candidates, func(c string) bool { return c == id })
	// A speaker removed mid-speech keeps the head of the queue through the
	// hand-over that ends the speech, so the next speaker opens on every screen
	// at once; later turns of theirs go.
	wasSpeaking := s.speaker() == id
	from := 0
	if wasSpeaking {
		from = 1
	}
	s.Phase.Queue = append(s.Phase.Queue[:from:from], slices.DeleteFunc(s.Phase.Queue[from:], func(c string) bool { return c == id })...)
	if s.checkWin(now) {
		return
	}
	switch s.Phase.Name {
	case PhaseNight:
		// The removed player's tap goes with their choices, so that pending
		// counts only the living who have still to tap.
		s.Choices = slices.DeleteFunc(s.Choices, func(c Choice) bool { return c.Actor == id })
		s.Done = slices.DeleteFunc(s.Done, func(d string) bool { return d == id })
		s.Victims = slices.DeleteFunc(s.Victims, func(v string) bool { return v == id })
		s.nightMaybeOver(now)
	case PhaseVote, PhaseVoteAll:
		if len(s.Phase.Candidates) == 0 {
			s.acquit(AcquitRemoved, now)
			return
		}
		s.voteCast(now)
	default:
		if wasSpeaking {
			s.complete(now)
		}
	}
}

// showCard turns a leaving player's card face up when roles are open (R-CLASSIC-03,
// R-SPORT-15).
func (s *State) showCard(p *Player) {
	if s.Rules.OpenRoles && !p.Shown {
		p.Shown = true
		s.log(ToAll, Event{Type: EvRole, Target: p.ID, Role: p.Role})
	}
}
