package names

import (
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// frontend is the app's source, where its words live.
const frontend = "../../frontend/js"

// localeEntry is one plain message of a locale module: `  'key': 'text',`.
var localeEntry = regexp.MustCompile(`(?m)^\s*'([^']+)':\s*'([^'\\]*)',`)

// readLocale returns the plain messages of frontend/js/locales/<lang>.js.
func readLocale(t *testing.T, lang string) map[string]string {
	t.Helper()
	src, err := os.ReadFile(filepath.Join(frontend, "locales", lang+".js"))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, m := range localeEntry.FindAllStringSubmatch(string(src), -1) {
		out[m[1]] = m[2]
	}
	if len(out) < 100 {
		t.Fatalf("%s: only %d messages read: has the locales' form changed?", lang, len(out))
	}
	return out
}

// TestPageWordsAreTheLocales keeps the page's words here equal to the app's:
// the locales are the languages listed, each page word is its locale's
// message, each seat prefix is what a locale's player.label puts before the
// seat, and every mark the page draws for a seat's state (ui.js ICON) is a
// page mark. A word changed in a locale fails here until it is changed in
// pageWords, so the server never refuses yesterday's words only.
func TestPageWordsAreTheLocales(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(frontend, "locales", "*.js"))
	if err != nil {
		t.Fatal(err)
	}
	var have []string
	for _, f := range files {
		have = append(have, strings.TrimSuffix(filepath.Base(f), ".js"))
	}
	if want := slices.Sorted(slices.Values(langs[:])); !slices.Equal(have, want) {
		t.Fatalf("locales %v, names knows %v", have, want)
	}
	var prefixes []string
	for i, lang := range langs {
		msgs := readLocale(t, lang)
		for _, w := range pageWords {
			if got, ok := msgs[w.key]; !ok || got != w.words[i] {
				t.Errorf("%s %s is %q in the locale (found: %v), %q in pageWords", lang, w.key, got, ok, w.words[i])
			}
		}
		label, ok := msgs["player.label"]
		before, _, found := strings.Cut(label, "{seat}")
		if !ok || !found {
			t.Fatalf("%s player.label = %q: no {seat}", lang, label)
		}
		if !slices.Contains(prefixes, before) {
			prefixes = append(prefixes, before)
		}
	}
	if !slices.Equal(prefixes, seatPrefixes) {
		t.Errorf("the locales put %q before a seat, seatPrefixes is %q", prefixes, seatPrefixes)
	}
	ui, err := os.ReadFile(filepath.Join(frontend, "ui.js"))
	if err != nil {
		t.Fatal(err)
	}
	block := regexp.MustCompile(`(?s)export const ICON = \{(.*?)\};`).FindSubmatch(ui)
	if block == nil {
		t.Fatal("ui.js: no ICON")
	}
	icons := regexp.MustCompile(`(\w+): '([^']+)'`).FindAllSubmatch(block[1], -1)
	if len(icons) < 10 {
		t.Fatalf("ui.js: only %d marks in ICON", len(icons))
	}
	for _, m := range icons {
		if !slices.Contains(pageMarks, string(m[2])) {
			t.Errorf("ui.js ICON.%s = %q is not among pageMarks", m[1], m[2])
		}
	}
}

// TestReserved: every page word in every language, and every page mark, is
// refused as a name, and so are the same in another case, in look-alike
// letters, with punctuation around them, and a seat's number before a name;
// names that only hold such a word or start like one are fine.
func TestReserved(t *testing.T) {
	var reserved []string
	for _, w := range pageWords {
		for _, word := range w.words {
			reserved = append(reserved, word, strings.ToUpper(word), strings.ToLower(word), word+"!")
		}
	}
	for _, m := range pageMarks {
		reserved = append(reserved, m, m+" Anna", "Anna "+m)
	}
	reserved = append(reserved,
		"★ You", "★ Вы", "Ви ★", "Tu ★", "★", "★\ufe0f", "►", "Anna ✓", "☠ Boris",
		"N0body", "Nobоdy", "ɴᴏʙᴏᴅʏ", "𝐍𝐨𝐛𝐨𝐝𝐲", "- Nobody", "(Nobody)", "nobody.", "C0nfirm", "Cоnfirm", "Youǃ",
		"Нiкого", "Ни\u00adкого", "НИКОГО", "Никого.", "Подтвердить", "Вы", "вы", "Bы", "Mă abtin", "Ma abțin", "Confirma",
		"#3 Anna", "#3", "# 3 Anna", "#12", "＃3 Anna", "№3 Аня", "№ 3", "No3 Anna", "No 3", "Nо 7", "N0 3", "#З Anna",
	)
	for _, name := range reserved {
		if what, ok := Reserved(name); !ok {
			t.Errorf("Reserved(%q): not reserved", name)
		} else if what == "" {
			t.Errorf("Reserved(%q): says nothing of what it reads as", name)
		}
		var r *Refusal
		if _, err := Clean(name); !errors.As(err, &r) || (r.Code != CodeReserved && r.Code != CodeHidden) {
			t.Errorf("Clean(%q): %v, want %s", name, err, CodeReserved)
		}
	}
	for _, name := range []string{"Nobody Jones", "You Li", "Tudor", "Outis", "Donna", "Gatan", "Anna ❤️", "Аня ☆", "Anna ⭐", "Anna ✔",
		"#Anna", "Nolan", "Noah", "No Olga", "Nora 3", "Anna #3", "Anna 3", "Oleg 1", "Гошa", "Youri", "Вышеслав", "Тина"} {
		if what, ok := Reserved(name); ok {
			t.Errorf("Reserved(%q): reads as %s", name, what)
		}
	}
}
