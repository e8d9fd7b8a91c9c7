package ratings

import (
	"strconv"

	"citysleeps/shared/rules"
)

// rulesCode is the site's rules code nearest to the game's rules: one digit
// for each of the 13 options of mafiaratings' include/rules.php, in its
// order. What the code cannot say (a kill by the majority, votes against
// anyone) the record itself tells, or leaves out (Game.Omitted).
func rulesCode(o rules.Options) string {
	var code [13]int
	// 0 rotation "first": a day opens after the day before's opener
	// (R-SPORT-03). 1-2 onRecord "no", 0 of them: the app keeps no colours
	// left "on record". 3 withdraw "allowed": a nomination is taken back in
	// its own monologue (R-SPORT-04).
	// 4 firstVoting "standard": a single nominee of the first day stays
	// (R-SPORT-06). 5 splitOrder "same": the revote goes in nomination order
	// (R-SPORT-07). 6 killAll "no". 8 splitOnNine "yes": nine at the table
	// vote as any other.
	// 7 splitOnFour: four at the table and a tie, nobody leaves (R-SPORT-08).
	if o.FourLeftNoRevote {
		code[7] = 1
	}
	// 9 legacy: the first night's killed makes the best move, or nobody does.
	if !o.BestMove {
		code[9] = 1
	}
	// 10 gameEndSpeech "no": the game ends as soon as a side has won, with no
	// last word.
	code[10] = 1
	// 11 threeFouls: the warnings that mute cost the next monologue
	// (R-SPORT-16), or the rules count no fouls.
	if o.WarningsToMute == 0 {
		code[11] = 2
	}
	// 12 techFouls "no".
	b := make([]byte, 0, len(code))
	for _, d := range code {
		b = strconv.AppendInt(b, int64(d), 10)
	}
	return string(b)
}
