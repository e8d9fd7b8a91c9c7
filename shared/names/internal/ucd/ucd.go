// Package ucd derives, from Unicode's own character data, the tables that the
// names package needs and no library gives. It is used by the names package's
// generator and by its tests, never by a server: the character names it reads
// (golang.org/x/text/unicode/runenames) are a large table that a function
// binary has no need to carry.
package ucd

import (
	"strings"
	"unicode"

	"golang.org/x/text/unicode/runenames"
)

// UnicodeVersion is the version of the character names SmallCapitals reads.
const UnicodeVersion = runenames.UnicodeVersion

// SmallCapitals maps each small capital letter to the capital letter it is a
// small form of, as their names say ("LATIN LETTER SMALL CAPITAL A" is a small
// "LATIN CAPITAL LETTER A"; Greek and Cyrillic have a few too). Unicode gives
// small capitals no decomposition and no case mapping, and its confusables
// (UTS #39) keep them apart from capitals, so "ᴀɴɴᴀ" would pass for a name
// other than "Anna" without this. A small capital whose capital has no letter
// of its own ("SMALL CAPITAL REVERSED N") is left out.
func SmallCapitals() map[rune]rune {
	byName := map[string]rune{}
	var small []rune
	for r := rune(0); r <= unicode.MaxRune; r++ {
		name := runenames.Name(r)
		if name == "" || strings.HasPrefix(name, "<") {
			continue
		}
		byName[name] = r
		if strings.Contains(name, " LETTER SMALL CAPITAL ") && !strings.HasPrefix(name, "COMBINING ") && !strings.HasPrefix(name, "MODIFIER ") {
			small = append(small, r)
		}
	}
	out := map[rune]rune{}
	for _, r := range small {
		capital := strings.Replace(runenames.Name(r), " LETTER SMALL CAPITAL ", " CAPITAL LETTER ", 1)
		if c, ok := byName[capital]; ok {
			out[r] = c
		}
	}
	return out
}
