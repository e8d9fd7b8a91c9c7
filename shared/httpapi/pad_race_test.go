//go:build race

package httpapi

// Under the race detector a game through the handler takes ten times as
// long: TestPropertyPaddedAnswers plays one, whatever RAPID_CHECKS says
// (make test's race pass asks few examples of every property; this one's
// few is one).
func init() { padGames, padFixed = 1, true }
