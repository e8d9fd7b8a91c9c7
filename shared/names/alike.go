package names

import (
	"strings"
	"unicode"

	"go.mau.fi/util/confusable"
	"golang.org/x/text/cases"
	"golang.org/x/text/unicode/norm"
)

// Key is what two names share when one would be taken for the other. It has
// two forms, and two names are alike when either form is the same (Alike):
//
//   - folded: the skeleton of the name in Unicode's case folding, so a name
//     in another case, or in look-alike letters of another script or style,
//     is the same ("ANNA", "Аnna" with a Cyrillic А, "Annɑ", "Aոոa");
//   - cased: the skeleton of the name as written, for the letters that pass
//     for others only in one case: a capital I for a small l ("Ivan",
//     "lvan"), a Cyrillic capital Н for a Latin H, which in small letters (н,
//     h) look nothing alike.
//
// A skeleton is UTS #39's: each character mapped to the one it is drawn like
// by Unicode's confusables.txt (0 to O, 1 and I to l, m to rn, Cyrillic а to
// Latin a), over the decomposed form. Both forms are taken over the name's
// NFKC form (bold, fullwidth and circled letters are plain letters), with
// small capitals made capitals (ᴀɴɴᴀ is ANNA), punctuation and white space at
// the ends set aside, before the skeleton and after it ("Anna." is Anna, and
// so is Anna with a Lisu letter drawn like a full stop after it), and the
// accents of the Latin, Greek and Cyrillic alphabets dropped (Алёна is
// Алена, Ștefan is Stefan, Zoë is Zoe): a name with an accent more or less is
// the same name to the people at the table.
type Key struct {
	folded, cased string
}

// KeyOf returns the key of a name.
func KeyOf(name string) Key {
	base := capitals(trimEnds(norm.NFKC.String(name)))
	fold := cases.Fold() // a Caser keeps state: one per call, never shared
	return Key{
		folded: unmarked(fold.String(trimEnds(confusable.Skeleton(fold.String(base))))),
		cased:  unmarked(trimEnds(confusable.Skeleton(base))),
	}
}

// Alike reports whether the names of k and o would be taken for each other.
func (k Key) Alike(o Key) bool {
	return k.folded == o.folded || k.cased == o.cased
}

// LookalikeOf returns the first of seated that name would be taken for, other
// than name itself (that name is taken, which the rules engine tells).
func LookalikeOf(name string, seated []string) (string, bool) {
	key := KeyOf(name)
	for _, other := range seated {
		if other != name && key.Alike(KeyOf(other)) {
			return other, true
		}
	}
	return "", false
}

// trimEnds drops the punctuation and white space at both ends of a name,
// and only the white space if nothing else would be left: "Anna." and
// "(Anna)" read as Anna, while "..." stays what it is.
func trimEnds(s string) string {
	if t := strings.TrimFunc(s, func(r rune) bool { return unicode.IsPunct(r) || unicode.IsSpace(r) }); t != "" {
		return t
	}
	return strings.TrimSpace(s)
}

//go:generate go run gen_capitals.go

// capitals makes each small capital letter the capital it is a small form of
// (smallCapitals, generated from Unicode's character names).
func capitals(s string) string {
	return strings.Map(func(r rune) rune {
		if c, ok := smallCapitals[r]; ok {
			return c
		}
		return r
	}, s)
}

// unmarked drops the accents of a decomposed string (a skeleton is one): the
// combining marks on letters of the Latin, Greek and Cyrillic alphabets, so
// that the letters under them are left. In other scripts a mark may be a
// letter of its own (a Thai or Devanagari vowel sign), and it stays.
func unmarked(s string) string {
	var b strings.Builder
	accented := false // the last letter takes accents that may be dropped
	for _, r := range s {
		if !unicode.In(r, unicode.Mn, unicode.Me) {
			accented = unicode.In(r, unicode.Latin, unicode.Greek, unicode.Cyrillic)
		} else if accented {
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}
