package service

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"citysleeps/shared/rules"
)

// Name refusals: the codes a client sees (docs/API.md), each with its message.
// A name is checked here and nowhere else: the HTTP layer only decodes it, and
// the rules engine only refuses a name that is exactly one already seated.
const (
	CodeNameEmpty     = "name_empty"            // nothing but white space
	CodeNameTooLong   = "name_too_long"         // over rules.MaxName characters or MaxNameBytes bytes
	CodeNameInvisible = "name_invisible"        // nothing anyone would see
	CodeNameHidden    = "name_invisible_chars"  // invisible or control characters among visible ones
	CodeNameMarks     = "name_marks"            // a stack of combining marks
	CodeNameLookalike = "name_lookalike"        // looks like a name at the table
	CodeNameEncoding  = "name_invalid_encoding" // not UTF-8
)

// MaxNameBytes bounds a name's UTF-8 bytes besides its rules.MaxName characters:
// 24 letters of Cyrillic, Greek, Latin with accents and every other alphabet of
// two bytes fit, as do 16 Chinese characters or 12 emoji. The stored game must
// fit one read unit with a full table of the longest names (see storedBudget).
const MaxNameBytes = 48

// maxMarks is the most combining marks allowed in a row on one letter: a
// letter typed with its accents as marks needs two at most (Vietnamese ệ is e,
// a dot below and a circumflex), Thai stacks a vowel and a tone mark; more is
// decoration that spills over the lines around it.
const maxMarks = 2

// cleanName normalizes a player's name and refuses one that would mislead at
// the table: the white space is trimmed and every inner run of it becomes one
// space, and then it must be
// 1 to rules.MaxName characters and MaxNameBytes bytes, show at least one visible
// character, and hold no invisible or control character (zero-width spaces,
// joiners, byte order marks, bidirectional controls, Hangul fillers, the blank
// Braille pattern) and no stack of combining marks. A zero-width joiner between
// two symbols (an emoji sequence) and an emoji variation selector after a symbol
// are part of what is seen, and allowed.
func cleanName(name string) (string, error) {
	if !utf8.ValidString(name) {
		return "", nameError(CodeNameEncoding, "a name must be UTF-8 text")
	}
	name = strings.Join(strings.Fields(name), " ")
	if name == "" {
		return "", nameError(CodeNameEmpty, "a name is needed")
	}
	if utf8.RuneCountInString(name) > rules.MaxName || len(name) > MaxNameBytes {
		return "", nameError(CodeNameTooLong, "a name is at most 24 characters (12 to 24, depending on the alphabet)")
	}
	marks := 0
	for _, r := range name {
		if !unicode.In(r, unicode.Mn, unicode.Me) {
			marks = 0
		} else if marks++; marks > maxMarks {
			return "", nameError(CodeNameMarks, "a name may not stack more than two accents on a letter")
		}
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
		return "", nameError(CodeNameInvisible, "a name must have something to see in it")
	case hidden:
		return "", nameError(CodeNameHidden, "a name may not hold invisible or control characters")
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
	case 0xFE0E, 0xFE0F:
		return symbol(i - 1)
	}
	return false
}

// lookalike returns the name at the table that name could be mistaken for, if
// any, other than itself: the same letters in another case, with other
// accents or none (a letter typed whole or as a letter and its marks), or in
// another script that draws them alike (Latin "Anna", Cyrillic "Аnna"), or in
// fullwidth forms, or with the digits and letters that pass for each other
// (0 and O, 1, I and l).
func lookalike(name string, table []rules.Player) (string, bool) {
	key := skeleton(name)
	for _, p := range table {
		if p.Name != name && skeleton(p.Name) == key {
			return p.Name, true
		}
	}
	return "", false
}

// skeleton is the form two names share when they look alike: invisible
// characters and combining marks dropped, fullwidth forms and accented
// letters taken to their plain letter, each look-alike letter mapped to the
// Latin one it passes for, and lower case.
func skeleton(name string) string {
	var b strings.Builder
	for _, r := range name {
		if invisible(r) || unicode.In(r, unicode.Mn, unicode.Me) {
			continue
		}
		if r >= 0xFF01 && r <= 0xFF5E { // fullwidth ASCII
			r -= 0xFEE0
		}
		if l, ok := plain[r]; ok {
			r = l
		}
		if l, ok := confusable[r]; ok {
			r = l
		}
		b.WriteRune(unicode.ToLower(r))
	}
	return b.String()
}

// plain maps the accented letters of the Latin, Cyrillic and Greek alphabets
// to the letter under the accent, as Unicode's decompositions do for them.
var plain = func() map[rune]rune {
	m := map[rune]rune{}
	for base, accented := range map[rune]string{
		'A': "ÀÁÂÃÄÅĀĂĄǍǺȀȂȦẠẢẤẦẨẪẬẮẰẲẴẶ", 'a': "àáâãäåāăąǎǻȁȃȧạảấầẩẫậắằẳẵặ",
		'C': "ÇĆĈĊČ", 'c': "çćĉċč", 'D': "ĎḌ", 'd': "ďḍ",
		'E': "ÈÉÊËĒĔĖĘĚȄȆẸẺẼẾỀỂỄỆ", 'e': "èéêëēĕėęěȅȇẹẻẽếềểễệ",
		'G': "ĜĞĠĢǦ", 'g': "ĝğġģǧ", 'H': "ĤḤ", 'h': "ĥḥ",
		'I': "ÌÍÎÏĨĪĬĮİǏȈȊỈỊ", 'i': "ìíîïĩīĭįǐȉȋỉị", 'J': "Ĵ", 'j': "ĵǰ",
		'K': "ĶǨ", 'k': "ķǩ", 'L': "ĹĻĽ", 'l': "ĺļľ", 'N': "ÑŃŅŇǸ", 'n': "ñńņňǹ",
		'O': "ÒÓÔÕÖŌŎŐƠǑȌȎȮỌỎỐỒỔỖỘỚỜỞỠỢ", 'o': "òóôõöōŏőơǒȍȏȯọỏốồổỗộớờởỡợ",
		'R': "ŔŖŘȐȒ", 'r': "ŕŗřȑȓ", 'S': "ŚŜŞŠȘṢ", 's': "śŝşšșṣ", 'T': "ŢŤȚṬ", 't': "ţťțṭ",
		'U': "ÙÚÛÜŨŪŬŮŰŲƯǓǕǗǙǛȔȖỤỦỨỪỬỮỰ", 'u': "ùúûüũūŭůűųưǔǖǘǚǜȕȗụủứừửữự",
		'W': "ŴẀẂẄ", 'w': "ŵẁẃẅ", 'Y': "ÝŶŸỲỴỶỸ", 'y': "ýÿŷỳỵỷỹ", 'Z': "ŹŻŽ", 'z': "źżž",
		'Е': "ЀЁ", 'е': "ѐё", 'И': "ЍЙ", 'и': "ѝй", 'І': "Ї", 'і': "ї", 'Г': "ЃҐ", 'г': "ѓґ",
		'К': "Ќ", 'к': "ќ", 'У': "ЎӮ", 'у': "ўӯ",
		'Α': "Ά", 'α': "ά", 'Ε': "Έ", 'ε': "έ", 'Η': "Ή", 'η': "ή", 'Ι': "ΊΪ", 'ι': "ίϊΐ",
		'Ο': "Ό", 'ο': "ό", 'Υ': "ΎΫ", 'υ': "ύϋΰ", 'Ω': "Ώ", 'ω': "ώ",
	} {
		for _, r := range accented {
			m[r] = base
		}
	}
	return m
}()

// confusable maps letters of other scripts, and digits, to the Latin letter
// they are drawn like in the usual fonts (after the common entries of Unicode's
// confusables.txt, UTS #39). Case is folded afterwards.
var confusable = map[rune]rune{
	// Cyrillic.
	'А': 'A', 'В': 'B', 'Е': 'E', 'К': 'K', 'М': 'M', 'Н': 'H', 'О': 'O', 'Р': 'P', 'С': 'C', 'Т': 'T',
	'Х': 'X', 'У': 'Y', 'Ү': 'Y', 'Ѕ': 'S', 'І': 'l', 'Ј': 'J', 'Ԛ': 'Q', 'Ԝ': 'W', 'Ӏ': 'l',
	'а': 'a', 'е': 'e', 'о': 'o', 'р': 'p', 'с': 'c', 'у': 'y', 'х': 'x', 'ѕ': 's', 'і': 'i', 'ј': 'j',
	'ԁ': 'd', 'ԛ': 'q', 'ԝ': 'w', 'һ': 'h', 'ӏ': 'l', 'ү': 'y',
	// Greek.
	'Α': 'A', 'Β': 'B', 'Ε': 'E', 'Ζ': 'Z', 'Η': 'H', 'Ι': 'l', 'Κ': 'K', 'Μ': 'M', 'Ν': 'N', 'Ο': 'O',
	'Ρ': 'P', 'Τ': 'T', 'Υ': 'Y', 'Χ': 'X', 'ο': 'o', 'ν': 'v', 'ι': 'i', 'α': 'a', 'κ': 'k', 'ρ': 'p',
	'τ': 't', 'υ': 'u', 'χ': 'x',
	// Latin and digits that pass for each other.
	'I': 'l', '1': 'l', '|': 'l', '0': 'O',
}

// nameError is a refused name: 400 with its own code, except a look-alike,
// which, like a name already taken, is a 409.
func nameError(code, msg string) *Error {
	kind := ErrInvalid
	if code == CodeNameLookalike {
		kind = ErrConflict
	}
	return &Error{Kind: kind, Code: code, Message: msg}
}
