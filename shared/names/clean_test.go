package names

import (
	"errors"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"

	"citysleeps/shared/rules"
)

func TestClean(t *testing.T) {
	good := map[string]string{
		"Аня":                               "Аня",
		"  Anya  ":                          "Anya",
		"Anya \t\n  Karenina":               "Anya Karenina",
		"\u00a0Nbsp\u00a0":                  "Nbsp",
		"a\u0085b":                          "a b",
		"Ștefan Țurcanu":                    "Ștefan Țurcanu",
		"Ye\u0301":                          "Yé", // an accent typed as a mark is one letter
		"Nguyễn Thị":                        "Nguyễn Thị",
		"Nguye\u0323\u0302n":                "Nguyện", // a letter with two marks, typed as marks
		"ปู่":                               "ปู่",    // a vowel and a tone mark on one letter
		"👨‍👩‍👧 family":                      "👨‍👩‍👧 family",
		"Аня ❤️":                            "Аня ❤️",
		"李小龙":                               "李小龙",
		"𝐁𝐨𝐛":                               "Bob", // styled letters are stored as the letters they show
		"Ｍａｘ":                               "Max",
		"Ⓜax":                               "Max",
		"ﬁona":                              "fiona",
		"Nobody Jones":                      "Nobody Jones", // a page word among others is a name
		"Nolan":                             "Nolan",        // "No" and a letter, not a seat
		"#Anna":                             "#Anna",
		strings.Repeat("ж", 24):             strings.Repeat("ж", 24),
		" " + strings.Repeat("a", 24) + " ": strings.Repeat("a", 24),
		strings.Repeat("龙", 16):             strings.Repeat("龙", 16),
		strings.Repeat("𝐀", 24):             strings.Repeat("A", 24), // 96 bytes as typed
		strings.Repeat(" ", 1000) + "Bob":   "Bob",
	}
	for in, want := range good {
		got, err := Clean(in)
		if err != nil || got != want {
			t.Errorf("Clean(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	bad := map[string]string{
		"":                                CodeEmpty,
		"   ":                             CodeEmpty,
		"\t\n":                            CodeEmpty,
		strings.Repeat("ж", 25):           CodeTooLong,
		strings.Repeat("龙", 17):           CodeTooLong, // 51 bytes
		strings.Repeat("ﬀ", 13):           CodeTooLong, // 26 letters once normalized
		strings.Repeat("ﷺ", 2):            CodeTooLong, // 36 letters once normalized
		strings.Repeat("ﷺ", 200):          CodeTooLong, // refused before it is normalized
		"\u200b":                          CodeInvisible,
		"\ufeff\u2060":                    CodeInvisible,
		"\u3164":                          CodeInvisible, // Hangul filler
		"\u2800\u2800":                    CodeInvisible, // blank Braille
		"\u115f\u1160 \uffa0":             CodeInvisible,
		"\u0301\u0301":                    CodeInvisible, // marks on nothing
		"\u00a8":                          CodeInvisible, // a diaeresis alone is a space and a mark
		"Bob\u200b":                       CodeHidden,
		"B\u200do\u200cb":                 CodeHidden,
		"Anna\u2800":                      CodeHidden,
		"Bob\u034f":                       CodeHidden, // combining grapheme joiner
		"Bob\ufe0f":                       CodeHidden, // a variation selector on a letter
		"a\x00b":                          CodeHidden,
		"a\x7fb":                          CodeHidden,
		"evil\u202Eeman":                  CodeHidden,
		"a\u2066b":                        CodeHidden,
		"Z\u0351\u0352\u0353algo":         CodeMarks,
		"e\u0301\u0302\u0303\u0304\u0305": CodeMarks,
		"Zo\u0301\u0302\u0303e":           CodeMarks, // three marks, though ó is one letter
		"ệ\u0301":                         CodeMarks,
		"★ You":                           CodeReserved,
		"Nobody":                          CodeReserved,
		"#3 Anna":                         CodeReserved,
		"\xff\xfe":                        CodeEncoding,
	}
	for in, code := range bad {
		got, err := Clean(in)
		var r *Refusal
		if !errors.As(err, &r) || r.Code != code || r.Message == "" {
			t.Errorf("Clean(%q) = %q, %v; want a refusal %s", in, got, err, code)
		}
	}
}

// FuzzClean: whatever a client sends as a name is refused with a code of its
// own, or comes back in NFKC, trimmed, within both lengths, with something
// visible and nothing hidden, reading as no page word, the same when cleaned
// again and alike what was typed; and no name makes KeyOf or LookalikeOf
// panic.
func FuzzClean(f *testing.F) {
	for _, s := range []string{"Аня", "  a  ", "", "a\u0007", strings.Repeat("я", 25), "Bob\u200b", "\u3164", "Z\u0351\u0352\u0353",
		"👨‍👩‍👧", "\xff", "𝐀𝐧𝐧𝐚", "ᴀɴɴᴀ", "Nobоdy", "№3", "ﷺ", "Anna."} {
		f.Add(s)
	}
	codes := map[string]bool{CodeEmpty: true, CodeTooLong: true, CodeInvisible: true, CodeHidden: true, CodeMarks: true, CodeReserved: true, CodeEncoding: true}
	f.Fuzz(func(t *testing.T, in string) {
		LookalikeOf(in, []string{"Anna", in, "Аня"})
		name, err := Clean(in)
		if err != nil {
			var r *Refusal
			if !errors.As(err, &r) || !codes[r.Code] || r.Message == "" {
				t.Fatalf("Clean(%q): %v", in, err)
			}
			return
		}
		if name == "" || name != strings.TrimSpace(name) || !utf8.ValidString(name) || !norm.NFKC.IsNormalString(name) ||
			utf8.RuneCountInString(name) > rules.MaxName || len(name) > MaxBytes || strings.Contains(name, "  ") {
			t.Fatalf("Clean(%q) = %q", in, name)
		}
		for _, r := range name {
			if unicode.IsControl(r) || r == 0x202E || r == 0x200B || r == 0x3164 {
				t.Fatalf("Clean(%q) = %q holds %U", in, name, r)
			}
		}
		if what, ok := Reserved(name); ok {
			t.Fatalf("Clean(%q) = %q, which reads as %s", in, name, what)
		}
		if again, err := Clean(name); err != nil || again != name {
			t.Fatalf("Clean(%q) = %q, then %q, %v", in, name, again, err)
		}
		if typed := strings.Join(strings.Fields(in), " "); !KeyOf(name).Alike(KeyOf(typed)) {
			t.Fatalf("Clean(%q) = %q, a name not alike what was typed", in, name)
		}
	})
}
