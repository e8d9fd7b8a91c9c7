package e2e

import (
	"encoding/json"
	"fmt"
	"slices"
	"testing"
	"time"

	"citysleeps/shared/rules"
	"citysleeps/shared/service"
	"citysleeps/shared/service/servicetest"
)

// rtlName is a right-to-left name that ends in a seat number of its own, the
// name a player would choose to pass for seat 5 (issue 29).
const rtlName = "אבג #5"

// TestNamesKeepToTheirSeats: a name is laid out apart from the words and the
// seat numbers beside it (bdi, or Unicode's isolates in a sentence), so that
// "אבג #5" at seat 1 neither reads as seat 5 nor moves the seat numbers of
// the players named after it. On the shared screen a vote line names the
// player among others; where the line stands, every label before the name
// is drawn to its left, the name's own "#5" inside the name's box, and what
// follows to its right. The same line without the isolates (drawn beside it
// for the check) is reordered by the name, which is what the isolates stop.
func TestNamesKeepToTheirSeats(t *testing.T) {
	t.Parallel()
	clk := &frozen{t: time.Now().UTC().Truncate(time.Second)}
	srv := startServerAt(t, clk.Now)
	b := startBrowser(t)
	names := append([]string{rtlName}, tableNames[1:7]...)
	// The table plays by bots to a day's vote with seats 1 to 4 alive and
	// candidates (everyone voted out has a last word, so the count stays on
	// the screen a while); then the vote is cast by hand: seats 3 and 4 for
	// seat 1, everyone else for seat 2. The shared screen then shows the line
	// "#1 אבג #5: 2 votes — #3 …, #4 …", where digits follow the name, the
	// case that a bare right-to-left name reorders.
	ready := func(v rules.View) bool {
		if v.Phase.Name != rules.PhaseVote {
			return false
		}
		bySeat := map[int]rules.PlayerView{}
		for _, p := range v.Players {
			bySeat[p.Seat] = p
		}
		for seat := 1; seat <= 4; seat++ {
			if !bySeat[seat].Alive {
				return false
			}
		}
		return slices.Contains(v.Phase.Candidates, bySeat[1].ID) && slices.Contains(v.Phase.Candidates, bySeat[2].ID)
	}
	// Bots choose at random, so a seat may die or the game end first; a new
	// table is dealt then, a few at most.
	var g servicetest.Game
	var vote rules.View
	for try := 1; ; try++ {
		g = table(t, srv.svc, service.CreateRequest{Preset: "classic", Lang: "en", Options: json.RawMessage(`{"lastWords":"all"}`)}, names)
		srv.act(t, g.Code, g.Host, rules.Action{ID: "start", Type: rules.ActStart})
		if vote = servicetest.PlayUntil(t, srv.svc, g, ready); ready(vote) {
			break
		} else if try == 5 {
			t.Fatalf("five games ended before a vote with seats 1 to 4 alive: the last in %s", vote.Phase.Name)
		}
	}
	seatOf := map[string]rules.PlayerView{}
	for _, p := range vote.Players {
		seatOf[p.ID] = p
	}
	idAt := func(seat int) string {
		for _, p := range vote.Players {
			if p.Seat == seat {
				return p.ID
			}
		}
		return ""
	}
	for _, p := range g.Players {
		if !seatOf[p.ID].Alive {
			continue
		}
		target := idAt(2)
		if s := seatOf[p.ID].Seat; s == 3 || s == 4 {
			target = idAt(1)
		}
		srv.act(t, g.Code, p.Token, rules.Action{ID: "bidi-vote", Type: rules.ActVote, Target: target})
	}
	// The count follows a hand-over; the clock here stands still, so the
	// host moves on at once, as the bots do.
	srv.act(t, g.Code, g.Host, rules.Action{ID: "bidi-count", Type: rules.ActAdvance, Now: true})
	screen := b.newPage(t, "shared screen", 1280, 800)
	screen.navigate(srv.URL + "/#screen=" + g.Code)
	// The count's line for seat 1: its seat number, the name, then the votes
	// and their voters; drawn on one line, so that left and right of its
	// parts are comparable.
	line := fmt.Sprintf(`[...document.querySelectorAll('li')].find((li) => {
		if (li.childNodes.length !== 1 || !li.textContent.startsWith(%q)) return false;
		const r = document.createRange();
		r.selectNodeContents(li.firstChild);
		return new Set([...r.getClientRects()].filter((x) => x.width > 0).map((x) => Math.round(x.top))).size === 1;
	})`, "#1 \u2068"+rtlName+"\u2069: ")
	screen.waitFor("a one-line vote line that names "+rtlName, line)
	var got struct {
		Isolated, Bare struct{ Before, Name, After, Number []float64 }
		Text           string
	}
	screen.eval(fmt.Sprintf(`(() => {
		const li = %s;
		// spans: the left and right of the rects of text[from, to) in node.
		const spans = (node, from, to) => {
			const r = document.createRange();
			r.setStart(node, from); r.setEnd(node, to);
			const rs = [...r.getClientRects()].filter((x) => x.width > 0);
			return rs.length ? [Math.min(...rs.map((x) => x.left)), Math.max(...rs.map((x) => x.right))] : [];
		};
		const measure = (node, open, close) => {
			const text = node.textContent;
			const from = text.indexOf(open === '' ? %q : open), to = close === '' ? from + %d : text.indexOf(close) + 1;
			const hash = text.indexOf('#5', from);
			return { Before: spans(node, 0, from), Name: spans(node, from, to), After: spans(node, to, text.length), Number: spans(node, hash, hash + 2) };
		};
		const isolated = measure(li.firstChild, '\u2068', '\u2069');
		// The same words without the isolates, drawn where the line is.
		const bare = li.cloneNode(true);
		bare.textContent = li.textContent.replace(/[\u2068\u2069]/g, '');
		li.after(bare);
		const out = { Isolated: isolated, Bare: measure(bare.firstChild, '', ''), Text: li.textContent };
		bare.remove();
		return out;
	})()`, line, rtlName, len([]rune(rtlName))), &got)
	ordered := func(m struct{ Before, Name, After, Number []float64 }) bool {
		return len(m.Before) == 2 && len(m.Name) == 2 && len(m.After) == 2 && len(m.Number) == 2 &&
			m.Before[1] <= m.Name[0]+0.5 && m.Name[1] <= m.After[0]+0.5 && m.Number[0] >= m.Name[0]-0.5 && m.Number[1] <= m.Name[1]+0.5
	}
	if !ordered(got.Isolated) {
		screen.failed("the line %q is drawn out of order: before %v, the name %v (its #5 at %v), after %v", got.Text, got.Isolated.Before, got.Isolated.Name, got.Isolated.Number, got.Isolated.After)
	}
	if ordered(got.Bare) {
		t.Errorf("without the isolates the line %q is drawn in order too (before %v, name %v, after %v): the check proves nothing", got.Text, got.Bare.Before, got.Bare.Name, got.Bare.After)
	}
	screen.checkErrors()
}
