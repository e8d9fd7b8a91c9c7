package names

import (
	"maps"
	"slices"
	"testing"

	"citysleeps/shared/names/internal/ucd"
)

// annaLookalikes are the kinds of look-alike of a seated "Anna":
// the first eight got in before names were compared by Unicode's skeletons,
// the others were refused already and must stay so.
var annaLookalikes = map[string]string{
	"𝐀𝐧𝐧𝐚":       "mathematical bold",
	"𝖠𝗇𝗇𝖺":       "mathematical sans-serif",
	"Ꭺnna":       "Cherokee Ꭺ",
	"Annɑ":       "Latin alpha ɑ",
	"Aոոa":       "Armenian ո",
	"ᴀɴɴᴀ":       "small capitals",
	"Ⓐnna":       "circled Ⓐ",
	"Anna.":      "a full stop after it",
	"Аnna":       "Cyrillic А",
	"ANNA":       "another case",
	"Ａｎｎａ":       "fullwidth",
	"An\u200dna": "a zero-width joiner inside",
	"Ánna":       "an accent",
	"Anna\u0301": "an accent typed as a mark",
	"Αnna":       "Greek Alpha",
	"(anna)":     "brackets, small letters",
	"АNNА":       "Cyrillic А twice, capitals",
	"Anna\ua4f8": "a Lisu letter drawn like a full stop after it",
}

func TestLookalikesOfAnna(t *testing.T) {
	for name, kind := range annaLookalikes {
		if got, ok := LookalikeOf(name, []string{"Bob", "Anna", "Аня"}); !ok || got != "Anna" {
			t.Errorf("%s, %q: LookalikeOf = %q, %v; want Anna", kind, name, got, ok)
		}
	}
}

func TestLookalikeOf(t *testing.T) {
	table := []string{"Anna", "Bob", "Oleg 1", "Аня", "Zoë", "Ștefan", "Алёна", "Саша", "Ivan", "Hina", "Guest 1"}
	alike := map[string]string{
		"anna":      "Anna",
		"B0b":       "Bob",
		"Оleg l":    "Oleg 1", // Cyrillic О, l for 1
		"аня":       "Аня",
		"Zoe\u0308": "Zoë", // the same letter typed as e and a mark
		"Zoe":       "Zoë",
		"Stefan":    "Ștefan",
		"Алена":     "Алёна",
		"Сашa":      "Саша", // a Latin a at the end
		"Caшa":      "Саша", // a Latin C at the start
		"lvan":      "Ivan", // a small l for the capital I
		"ivan":      "Ivan",
		"IVAN":      "Ivan",
		"Нina":      "Hina", // a Cyrillic capital Н
		"Guest l":   "Guest 1",
		"GUEST 1":   "Guest 1",
		"Guеst 1":   "Guest 1", // Cyrillic е
		"ɢᴜᴇꜱᴛ 1":   "Guest 1",
		"Guest 1!":  "Guest 1",
	}
	for name, want := range alike {
		if got, ok := LookalikeOf(name, table); !ok || got != want {
			t.Errorf("LookalikeOf(%q) = %q, %v; want %q", name, got, ok, want)
		}
	}
	for _, name := range []string{"Anna", "Annа K.", "Ann", "Ana", "Anne", "Annie", "Bobby", "Oleg 2", "Аня К", "Anya", "Zoя", "Stefania",
		"Маша", "Паша", "Ivana", "Iván K", "Hana", "Guest 2", "Guest 11"} {
		if got, ok := LookalikeOf(name, table); ok {
			t.Errorf("LookalikeOf(%q) = %q: not alike", name, got)
		}
	}
}

// TestDistinctNamesStayDistinct: the usual names of the app's languages, and
// the short forms people go by, are none of them taken for another, except
// the pairs that are one name with an accent more or less.
func TestDistinctNamesStayDistinct(t *testing.T) {
	sameName := map[[2]string]bool{{"Алёна", "Алена"}: true, {"Артём", "Артем"}: true, {"Андрей", "Андреи"}: true}
	groups := [][]string{
		{"Анна", "Аня", "Анн", "Яна", "Алёна", "Алена", "Алина", "Арина", "Ирина", "Марина", "Мария", "Маша", "Даша", "Саша", "Паша", "Наташа",
			"Таня", "Тоня", "Ваня", "Валя", "Галя", "Катя", "Коля", "Толя", "Оля", "Юля", "Юлия", "Лена", "Лера", "Вера", "Нина", "Ника", "Дима",
			"Дина", "Вика", "Вова", "Лёва", "Миша", "Гоша", "Петя", "Женя", "Сеня", "Артём", "Артем", "Андрей", "Андреи", "Сергей", "Олег", "Игорь",
			"Иван", "Іван", "Олена", "Олеся", "Оксана", "Богдан", "Тарас", "Остап", "Софія", "Юрій", "Їжак"},
		{"Anna", "Ana", "Ann", "Anne", "Annie", "Ivan", "Ivana", "Ioan", "Ioana", "Ion", "Andrei", "Andreea", "Mihai", "Mihaela", "Maria", "Marina",
			"Mario", "Elena", "Ilona", "Olga", "Olha", "Oleg", "Bogdan", "Radu", "Rada", "Ștefan", "Ștefania", "Cristi", "Cristina", "Dan", "Dana",
			"Tom", "Tim", "Kim", "Jim", "Lina", "Nina", "Nino", "Ian", "Ivo", "Eva", "Ava", "Max", "Alex", "Alexa", "Sasha", "Masha", "Dasha"},
	}
	for _, names := range groups {
		for i, a := range names {
			for _, b := range names[i+1:] {
				if KeyOf(a).Alike(KeyOf(b)) != sameName[[2]string{a, b}] {
					t.Errorf("%q and %q: alike %v", a, b, KeyOf(a).Alike(KeyOf(b)))
				}
			}
		}
	}
	// Across alphabets, names that only sound alike are not alike.
	for _, pair := range [][2]string{{"Аня", "Anna"}, {"Анна", "Anna"}, {"Иван", "Ivan"}, {"Маша", "Masha"}, {"Саша", "Sasha"}, {"Олег", "Oleg"}} {
		if KeyOf(pair[0]).Alike(KeyOf(pair[1])) {
			t.Errorf("%q and %q: alike", pair[0], pair[1])
		}
	}
}

// TestSmallCapitalsTable: the generated table is what Unicode's character
// names give now (go generate ./shared/names writes it again).
func TestSmallCapitalsTable(t *testing.T) {
	want := ucd.SmallCapitals()
	if !maps.Equal(smallCapitals, want) {
		t.Errorf("capitals_table.go is out of date: run go generate ./shared/names\nhave %v\nwant %v", slices.Sorted(maps.Keys(smallCapitals)), slices.Sorted(maps.Keys(want)))
	}
	if smallCapitals['ᴀ'] != 'A' || smallCapitals['ɴ'] != 'N' || smallCapitals['ᴫ'] != 'Л' {
		t.Errorf("ᴀ, ɴ, ᴫ: %q, %q, %q", smallCapitals['ᴀ'], smallCapitals['ɴ'], smallCapitals['ᴫ'])
	}
}
