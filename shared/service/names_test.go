package service

import (
	"errors"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"citysleeps/shared/rules"
)

func TestCleanName(t *testing.T) {
	good := map[string]string{
		"Аня":                               "Аня",
		"  Anya  ":                          "Anya",
		"Anya \t\n  Karenina":               "Anya Karenina",
		"\u00a0Nbsp\u00a0":                  "Nbsp",
		"a\u0085b":                          "a b",
		"Ștefan Țurcanu":                    "Ștefan Țurcanu",
		"Ye\u0301":                          "Ye\u0301", // an accent typed as a mark
		"Nguyễn Thị":                        "Nguyễn Thị",
		"ปู่":                               "ปู่", // a vowel and a tone mark on one letter
		"👨‍👩‍👧 family":                      "👨‍👩‍👧 family",
		"Аня ❤️":                            "Аня ❤️",
		"李小龙":                               "李小龙",
		strings.Repeat("ж", 24):             strings.Repeat("ж", 24),
		" " + strings.Repeat("a", 24) + " ": strings.Repeat("a", 24),
		strings.Repeat("龙", 16):             strings.Repeat("龙", 16),
	}
	for in, want := range good {
		got, err := cleanName(in)
		if err != nil || got != want {
			t.Errorf("cleanName(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	bad := map[string]string{
		"":                                CodeNameEmpty,
		"   ":                             CodeNameEmpty,
		"\t\n":                            CodeNameEmpty,
		strings.Repeat("ж", 25):           CodeNameTooLong,
		strings.Repeat("龙", 17):           CodeNameTooLong, // 51 bytes
		"\u200b":                          CodeNameInvisible,
		"\ufeff\u2060":                    CodeNameInvisible,
		"\u3164":                          CodeNameInvisible, // Hangul filler
		"\u2800\u2800":                    CodeNameInvisible, // blank Braille
		"\u115f\u1160 \uffa0":             CodeNameInvisible,
		"\u0301\u0301":                    CodeNameInvisible, // marks on nothing
		"Bob\u200b":                       CodeNameHidden,
		"B\u200do\u200cb":                 CodeNameHidden,
		"Anna\u2800":                      CodeNameHidden,
		"Bob\u034f":                       CodeNameHidden, // combining grapheme joiner
		"Bob\ufe0f":                       CodeNameHidden, // a variation selector on a letter
		"a\x00b":                          CodeNameHidden,
		"a\x7fb":                          CodeNameHidden,
		"evil\u202Eeman":                  CodeNameHidden,
		"a\u2066b":                        CodeNameHidden,
		"Z\u0351\u0352\u0353algo":         CodeNameMarks,
		"e\u0301\u0302\u0303\u0304\u0305": CodeNameMarks,
		"\xff\xfe":                        CodeNameEncoding,
	}
	for in, code := range bad {
		got, err := cleanName(in)
		var e *Error
		if !errors.As(err, &e) || e.Code != code || !errors.Is(err, ErrInvalid) || e.Message == "" {
			t.Errorf("cleanName(%q) = %q, %v; want a 400 %s", in, got, err, code)
		}
	}
}

func TestLookalike(t *testing.T) {
	table := []rules.Player{{Name: "Anna"}, {Name: "Bob"}, {Name: "Oleg 1"}, {Name: "Аня"}, {Name: "Zoë"}, {Name: "Ștefan"}, {Name: "Алёна"}}
	alike := map[string]string{
		"Аnna":      "Anna", // Cyrillic А
		"АNNA":      "Anna", // Cyrillic А, another case
		"anna":      "Anna",
		"Αnna":      "Anna", // Greek Alpha
		"Ａｎｎａ":      "Anna", // fullwidth
		"B0b":       "Bob",
		"Оleg l":    "Oleg 1", // Cyrillic О, l for 1
		"аня":       "Аня",
		"Zoe\u0308": "Zoë", // the same letter typed as e and a mark
		"Zoe":       "Zoë",
		"Stefan":    "Ștefan",
		"Алена":     "Алёна",
	}
	for name, want := range alike {
		if got, ok := lookalike(name, table); !ok || got != want {
			t.Errorf("lookalike(%q) = %q, %v; want %q", name, got, ok, want)
		}
	}
	for _, name := range []string{"Anna", "Annа K.", "Ann", "Bobby", "Oleg 2", "Аня К", "Anya", "Zoя", "Stefania"} {
		if got, ok := lookalike(name, table); ok {
			t.Errorf("lookalike(%q) = %q: not alike", name, got)
		}
	}
}

// FuzzCleanName: whatever a client sends as a name is refused with a 400 of
// its own code, or comes back trimmed, within both lengths, with
// something visible and nothing hidden, and the same when cleaned again.
func FuzzCleanName(f *testing.F) {
	for _, s := range []string{"Аня", "  a  ", "", "a\u0007", strings.Repeat("я", 25), "Bob\u200b", "\u3164", "Z\u0351\u0352\u0353", "👨‍👩‍👧", "\xff"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		name, err := cleanName(in)
		if err != nil {
			var e *Error
			if !errors.As(err, &e) || e.Code == "" || !errors.Is(err, ErrInvalid) {
				t.Fatalf("cleanName(%q): %v", in, err)
			}
			return
		}
		if name == "" || name != strings.TrimSpace(name) || !utf8.ValidString(name) ||
			utf8.RuneCountInString(name) > rules.MaxName || len(name) > MaxNameBytes || strings.Contains(name, "  ") {
			t.Fatalf("cleanName(%q) = %q", in, name)
		}
		for _, r := range name {
			if unicode.IsControl(r) || r == 0x202E || r == 0x200B || r == 0x3164 {
				t.Fatalf("cleanName(%q) = %q holds %U", in, name, r)
			}
		}
		if again, err := cleanName(name); err != nil || again != name {
			t.Fatalf("cleanName(%q) = %q, then %q, %v", in, name, again, err)
		}
	})
}
