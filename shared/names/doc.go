// Package names decides whether a player's name can be used at a table of
// City Sleeps. A name is what the other players read to know who is who, on
// the seat list, the vote and the night's targets, so a name must not hide
// characters, pass for a name already seated, or read as the page's own words
// and marks ("★ You", "Nobody", "#3 Anna").
//
//	name, err := names.Clean(typed) // NFKC, white space collapsed; a *Refusal if it cannot be used
//	if other, ok := names.LookalikeOf(name, seated); ok {
//		// name would be taken for other, who is at the table
//	}
//
// Two names are alike when they share a key (KeyOf): Unicode's confusable
// skeleton (UTS #39, from Unicode's own confusables.txt through
// go.mau.fi/util/confusable), taken over the NFKC form with accents, case,
// small capitals and punctuation at the ends set aside. The page's words come
// from the app's locales (frontend/js/locales), and a test keeps this
// package's copy of them equal to those.
//
// Of the project's packages it imports only the rules engine (for the longest
// name it allows); the service calls it, and turns a Refusal into the API's
// error.
package names
