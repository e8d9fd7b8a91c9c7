package names

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"

	"citysleeps/shared/rules"
)

// The codes of a refused name, as a client sees them (docs/API.md). All but
// CodeLookalike are the name's own fault, whatever the table (400); a
// look-alike depends on who is seated (the service answers it with 409).
const (
	CodeEmpty     = "name_empty"            // nothing but white space
	CodeTooLong   = "name_too_long"         // over rules.MaxName characters or MaxBytes bytes
	CodeInvisible = "name_invisible"        // nothing anyone would see
	CodeHidden    = "name_invisible_chars"  // invisible or control characters among visible ones
	CodeMarks     = "name_marks"            // a stack of combining marks
	CodeReserved  = "name_reserved"         // reads as the page's own words or marks
	CodeLookalike = "name_lookalike"        // looks like a name at the table
	CodeEncoding  = "name_invalid_encoding" // not UTF-8
)

// MaxBytes bounds a name's UTF-8 bytes besides its rules.MaxName characters: 24
// letters of Cyrillic, Greek, Latin with accents and every other alphabet of
// two bytes fit, as do 16 Chinese characters or 12 emoji. The stored game must
// fit one read unit with a full table of the longest names (the service's
// storedBudget).
const MaxBytes = 48

// maxTyped bounds a name as typed, before it is normalized: NFKC makes a text
// at most four times shorter (a styled letter of four bytes, 𝐀, becomes A), so
// no name that fits MaxBytes once normalized is longer than this, and the
// work of normalizing stays small whatever a client sends (one character may
// become eighteen).
const maxTyped = 8 * MaxBytes

const tooLong = "a name is at most 24 characters (12 to 24, depending on the alphabet)"

// maxMarks is the most combining marks allowed in a row on one letter, its
// accents counted as marks however it was typed: a letter needs two at most
// (Vietnamese ệ is e, a dot below and a circumflex), Thai stacks a vowel and a
// tone mark; more is decoration that spills over the lines around it.
const maxMarks = 2

// Stacked reports whether text stacks more than maxMarks combining marks on
// a letter, its accents counted as marks however it was typed: decoration
// ("zalgo") that spills over the lines around it, and grows the text without
// showing more of it. A player's name and a referee's reason are refused for it.
func Stacked(text string) bool {
	marks := 0
	for _, r := range norm.NFD.String(text) {
		if !unicode.In(r, unicode.Mn, unicode.Me) {
			marks = 0
		} else if marks++; marks > maxMarks {
			return true
		}
	}
	return false
}

// Refusal is a name that cannot be used: Code is what a client is shown
// (docs/API.md), Message a sentence for the player.
type Refusal struct {
	Code    string
	Message string
}

func (r *Refusal) Error() string { return "names: " + r.Message }

func refuse(code, msg string) *Refusal { return &Refusal{Code: code, Message: msg} }

// Clean normalizes a player's name as typed and refuses one that would mislead
// at the table, with a *Refusal. The name is taken to Unicode's compatibility
// form, NFKC, so that bold, fullwidth, circled and other styled letters are
// stored as the plain letters they show (𝐀𝐧𝐧𝐚 is Anna) and a letter typed with
// its accent as a mark is one character; its white space is trimmed and every
// inner run of it becomes one space. Then it must be 1 to rules.MaxName characters
// and MaxBytes bytes, show at least one visible character, hold no invisible
// or control character (zero-width spaces, joiners, byte order marks,
// bidirectional controls, Hangul fillers, the blank Braille pattern) and no
// stack of combining marks, and not read as the page's own words or marks
// (Reserved). A zero-width joiner between two symbols (an emoji sequence) and
// an emoji variation selector after a symbol are part of what is seen, and
// allowed.
//
// Clean of a cleaned name is that name.
func Clean(name string) (string, error) {
	if !utf8.ValidString(name) {
		return "", refuse(CodeEncoding, "a name must be UTF-8 text")
	}
	name = strings.Join(strings.Fields(name), " ")
	if len(name) > maxTyped {
		return "", refuse(CodeTooLong, tooLong)
	}
	name = strings.Join(strings.Fields(norm.NFKC.String(name)), " ")
	if name == "" {
		return "", refuse(CodeEmpty, "a name is needed")
	}
	if utf8.RuneCountInString(name) > rules.MaxName || len(name) > MaxBytes {
		return "", refuse(CodeTooLong, tooLong)
	}
	if Stacked(name) {
		return "", refuse(CodeMarks, "a name may not stack more than two accents on a letter")
	}
	runes := []rune(name)
	visible, hidden := false, false
	for i, r := range runes {
		switch {
		case invisible(r):
			hidden = hidden || !partOfSymbol(runes, i)
		case unicode.In(r, unicode.Mn, unicode.Me), r == ' ':
		default:
			visible = true
		}
	}
	switch {
	case !visible:
		return "", refuse(CodeInvisible, "a name must have something to see in it")
	case hidden:
		return "", refuse(CodeHidden, "a name may not hold invisible or control characters")
	}
	if what, ok := Reserved(name); ok {
		return "", refuse(CodeReserved, "a name may not read as the app's own words or signs: this one reads as "+what)
	}
	return name, nil
}

// invisible reports the characters that show nothing or change the text around
// them: controls, format characters (zero-width spaces and joiners, the byte
// order mark, bidirectional controls, soft hyphens), the default-ignorable
// fillers (Hangul fillers U+115F, U+1160, U+3164, U+FFA0), variation selectors,
// and the blank Braille pattern U+2800, which is drawn as nothing.
func invisible(r rune) bool {
	return unicode.IsControl(r) || unicode.In(r, unicode.Cf, unicode.Other_Default_Ignorable_Code_Point, unicode.Variation_Selector) ||
		r == 0x2800 || r == utf8.RuneError
}

// partOfSymbol allows what draws emoji: a zero-width joiner between two
// symbols, and an emoji or text variation selector right after one.
func partOfSymbol(runes []rune, i int) bool {
	symbol := func(j int) bool { return j >= 0 && j < len(runes) && unicode.IsSymbol(runes[j]) }
	switch runes[i] {
	case 0x200D:
		return symbol(i-1) && symbol(i+1) || symbol(i-2) && runes[i-1] == 0xFE0F && symbol(i+1)
	case 0xFE0F, 0xFE0E:
		return symbol(i - 1)
	}
	return false
}
