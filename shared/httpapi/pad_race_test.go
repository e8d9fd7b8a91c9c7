//go:build race

package httpapi

// Under the race detector a game through the handler takes ten times as
// long: TestPropertyPaddedAnswers plays one.
func init() { padGames = 1 }
