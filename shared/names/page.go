package names

import (
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"go.mau.fi/util/confusable"
	"golang.org/x/text/unicode/norm"
)

// langs are the app's languages (its locales), in the order of a pageWord's
// words.
var langs = [...]string{"en", "ru", "uk", "ro"}

// pageWord is a word of the app's pages, in each of langs, under its key in
// frontend/js/locales.
type pageWord struct {
	key   string
	words [len(langs)]string
}

// pageWords are the words the app's pages show next to a player's name or in
// its place, on the seat list (the viewer's own seat, a seat's state), the
// night's and the vote's targets (the choice of nobody, abstaining, the
// buttons of a vote on all) and in the story (an unknown player). A player
// with one of them as a name would pose as the page: "Nobody" among the
// night's targets is a seat, not the choice of nobody. TestPageWordsAreTheLocales
// keeps them equal to the locales, so a word changed there fails the tests
// until it is changed here.
var pageWords = []pageWord{
	{"seat.you", [...]string{"You", "Вы", "Ви", "Tu"}},
	{"player.unknown", [...]string{"someone", "кто-то", "хтось", "cineva"}},
	{"seat.alive", [...]string{"In the game", "В игре", "У грі", "În joc"}},
	{"seat.dead", [...]string{"Out", "Вне игры", "Поза грою", "În afara jocului"}},
	{"seat.removed", [...]string{"Removed", "Удаление", "Вилучення", "Eliminare"}},
	{"seat.speaking", [...]string{"Speaking", "Говорит", "Говорить", "Vorbește"}},
	{"seat.nominated", [...]string{"Nominated", "Кандидатура", "Кандидатура", "Nominalizare"}},
	{"seat.voted", [...]string{"Voted", "Голос отдан", "Голос віддано", "A votat"}},
	{"seat.done", [...]string{"Done", "Готово", "Готово", "Gata"}},
	{"night.nobody", [...]string{"Nobody", "Никого", "Нікого", "Nimeni"}},
	{"night.confirm", [...]string{"Confirm", "Подтвердить", "Підтвердити", "Confirmă"}},
	{"vote.abstain", [...]string{"Abstain", "Воздержаться", "Утриматися", "Mă abțin"}},
	{"vote.all.yes", [...]string{"Yes, leave", "Да, уходят", "Так, ідуть", "Da, să plece"}},
	{"vote.all.no", [...]string{"No, stay", "Нет, остаются", "Ні, лишаються", "Nu, să rămână"}},
	{"vote.previous", [...]string{"your last choice", "ваш прежний выбор", "ваш попередній вибір", "alegerea ta de dinainte"}},
}

// seatPrefixes are what the page puts before a seat's number when it names a
// player ("#3 Anna", "№3 Аня"): the text before {seat} of each locale's
// player.label, as TestPageWordsAreTheLocales checks.
var seatPrefixes = []string{"#", "№"}

// pageMarks are the signs the page draws beside a name: the state of a seat
// and the viewer's own (ICON in frontend/js/ui.js, which
// TestPageWordsAreTheLocales reads), the tag of a choice taken back (↺), the
// vote on all's "no" (✗), and the host's button that removes a seat (✕). A
// name may hold none of them, or any character drawn like one.
var pageMarks = []string{"●", "☠", "⊘", "▶", "⚑", "✓", "⚠", "★", "♠", "♥", "♦", "↺", "✗", "✕"}

// reservedWord is a page word with its key.
type reservedWord struct {
	word string
	key  Key
}

// pageKeys are the keys of the page's words and seat prefixes, and the
// skeletons of its marks (each to its mark) and of the digits 2 to 9 (0 and 1
// are drawn like the letters O and l, which a name may well have after a
// "No").
type pageKeys struct {
	words, prefixes []reservedWord
	marks, digits   map[string]string
}

// page works out the pageKeys on first use: a function that never sees a name
// does not pay for them when it starts.
var page = sync.OnceValue(func() pageKeys {
	var p pageKeys
	for _, w := range pageWords {
		for _, word := range w.words {
			p.words = append(p.words, reservedWord{word, KeyOf(word)})
		}
	}
	for _, prefix := range seatPrefixes {
		p.prefixes = append(p.prefixes, reservedWord{prefix, KeyOf(prefix)})
	}
	p.marks, p.digits = skeletons(pageMarks), skeletons(strings.Split("23456789", ""))
	return p
})

// skeletons maps the skeleton of each of of to it.
func skeletons(of []string) map[string]string {
	m := map[string]string{}
	for _, s := range of {
		m[confusable.Skeleton(s)] = s
	}
	return m
}

// Reserved reports whether name reads as the page's own words or marks, and
// says what it reads as: it is alike (Key.Alike) one of the page's words in
// any of its languages ("Nobody", "N0body", "Nobоdy" with a Cyrillic о,
// "nobody!"), holds a mark the page draws beside names or a character drawn
// like one ("★ You"), or starts with a seat's number as the page writes it
// ("#3 Anna", "№ 3"). A name that only holds a page word among others
// ("Nobody Jones") is a name.
func Reserved(name string) (string, bool) {
	p := page()
	base := []rune(capitals(norm.NFKC.String(name)))
	for _, r := range base {
		if mark, ok := p.marks[confusable.Skeleton(string(r))]; ok {
			return "the sign " + mark, true
		}
	}
	for _, prefix := range p.prefixes {
		n := len([]rune(norm.NFKC.String(prefix.word))) // № is No
		if len(base) <= n || !KeyOf(string(base[:n])).Alike(prefix.key) {
			continue
		}
		rest := strings.TrimLeftFunc(string(base[n:]), unicode.IsSpace)
		if r, _ := utf8.DecodeRuneInString(rest); unicode.IsDigit(r) || p.digits[confusable.Skeleton(string(r))] != "" {
			return "a seat number, as in " + prefix.word + "3", true
		}
	}
	key := KeyOf(name)
	for _, w := range p.words {
		if key.Alike(w.key) {
			return strconv.Quote(w.word), true
		}
	}
	return "", false
}
