package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	cdppage "github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"citysleeps/shared/protocol"
	"citysleeps/shared/rules"
	"citysleeps/shared/service"
	"citysleeps/shared/service/servicetest"
)

// club plays a scripted game through the service as its moderator would: the
// host token moves it on, and the players' tokens act.
type club struct {
	t   *testing.T
	svc *service.Service
	g   servicetest.Game
}

func (c *club) view() rules.View { return servicetest.MustRead(c.t, c.svc, c.g.Code, c.g.Host) }

func (c *club) act(id string, a rules.Action) {
	c.t.Helper()
	token := c.g.Host
	if id != "" {
		token = playerOf(c.g, id).Token
	}
	a.ID = servicetest.ActionID()
	if _, err := c.svc.Act(context.Background(), c.g.Code, token, a); err != nil {
		c.t.Fatalf("%s %s by %q: %v", a.Type, a.Target, id, err)
	}
}

// next is the moderator's "next": the step ends, then its hand-over.
func (c *club) next() {
	c.t.Helper()
	if !c.view().Phase.Closing {
		c.act("", rules.Action{Type: rules.ActAdvance})
	}
	c.act("", rules.Action{Type: rules.ActAdvance, Now: true})
}

// until moves on to the phase.
func (c *club) until(phase rules.PhaseName) {
	c.t.Helper()
	for i := 0; c.view().Phase.Name != phase || c.view().Phase.Closing; i++ {
		if i > 60 {
			c.t.Fatalf("no %s: %s", phase, c.view().Phase.Name)
		}
		c.next()
	}
}

// night: each shooter shoots his target, the Sheriff and the Don check theirs
// where they are alive, and the night ends.
func (c *club) night(shots map[string]string, sheriffCheck, donCheck string) {
	c.t.Helper()
	c.until(rules.PhaseNight)
	for _, id := range slices.Sorted(mapKeys(shots)) {
		c.act(id, rules.Action{Type: rules.ActKill, Target: shots[id]})
	}
	if s := c.role(rules.Sheriff); s != "" && sheriffCheck != "" {
		c.act(s, rules.Action{Type: rules.ActCheck, Target: sheriffCheck})
	}
	c.next()
	if d := c.role(rules.Don); d != "" && donCheck != "" {
		c.act(d, rules.Action{Type: rules.ActCheck, Target: donCheck})
	}
}

// day: the speakers nominate in turn, one each; then the living vote, voter
// by voter, as vote says.
func (c *club) day(nominees []string, vote func(voter string, i int) string) {
	c.t.Helper()
	c.until(rules.PhaseDay)
	for v := c.view(); v.Phase.Name == rules.PhaseDay; v = c.view() {
		if len(nominees) > 0 && v.Phase.Speaker != nil && *v.Phase.Speaker != nominees[0] && !v.Phase.Closing {
			c.act(*v.Phase.Speaker, rules.Action{Type: rules.ActNominate, Target: nominees[0]})
			nominees = nominees[1:]
		}
		c.next()
	}
	c.votes(vote)
}

func (c *club) votes(vote func(voter string, i int) string) {
	c.t.Helper()
	c.until(rules.PhaseVote)
	for i, p := range c.living() {
		c.act(p, rules.Action{Type: rules.ActVote, Target: vote(p, i)})
	}
}

func (c *club) living() []string {
	var out []string
	for _, p := range c.view().Players {
		if p.Alive {
			out = append(out, p.ID)
		}
	}
	return out
}

// role is the living player with the card, or "".
func (c *club) role(r rules.Role) string {
	for _, p := range c.view().Players {
		if p.Alive && p.Role == r {
			return p.ID
		}
	}
	return ""
}

func mapKeys(m map[string]string) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

// printPDF prints the page as the browser's "Save as PDF" does on A4, and
// returns the PDF and its number of pages.
func (p *page) printPDF() ([]byte, int) {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, cdpLimit)
	defer cancel()
	css := true
	pdf, err := chromedp.Run(ctx, chromedp.Action[[]byte](func(ctx context.Context, tg *chromedp.Target) ([]byte, error) {
		r, err := cdp.Call(ctx, tg, cdppage.PrintToPDF, cdppage.PrintToPDFParams{PaperWidth: 8.27, PaperHeight: 11.69, PreferCSSPageSize: &css})
		return r.Data, err
	}))
	if err != nil {
		p.fatalf("print: %v", err)
	}
	return pdf, len(regexp.MustCompile(`/Type\s*/Page[^s]`).FindAll(pdf, -1))
}

// printPreview saves the page as print lays it out on A4 (190 mm of text
// width, as 718 CSS px) to ARTIFACTS_DIR/screens, for a person to look at,
// and puts the screen back as it was.
func (p *page) printPreview(name string) {
	p.t.Helper()
	if !reviewShots() {
		return
	}
	media := func(m string, width, height int64) chromedp.Action[chromedp.Void] {
		return chromedp.Steps(chromedp.EmulateViewport(width, height), chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
			_, err := cdp.Call(ctx, tg, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{Media: m})
			return err
		}))
	}
	ctx, cancel := context.WithTimeout(p.ctx, cdpLimit)
	defer cancel()
	if err := chromedp.Do(ctx, media("print", 718, 1047)); err != nil {
		p.fatalf("print media: %v", err)
	}
	png, err := fullScreenshot(ctx)
	if err == nil {
		err = os.WriteFile(filepath.Join(artifactsDir(p.t), "screens", name+".png"), png, 0o644)
	}
	if err != nil {
		p.fatalf("print preview: %v", err)
	}
	if err := chromedp.Do(ctx, media("", 1280, 800)); err != nil {
		p.fatalf("screen media: %v", err)
	}
}

// TestProtocolPage plays a long club game (sport, ten players, a human
// moderator: five nights and days, two car crashes, a miss, fouls) and opens
// its protocol. While the game goes on the moderator reads it live from the
// console's link, and anyone else gets the page that says it opens at the end,
// which then opens by itself. At the end it is everyone's: on a 390×844 phone
// and a 1280×800 screen, in every language, audited (no overflow, no word
// broken, tap targets, contrast, the page's language), it prints on one A4
// page, and its download is the JSON of GET …/protocol, named after the code.
func TestProtocolPage(t *testing.T) {
	t.Parallel()
	clk := &frozen{t: time.Now().UTC().Truncate(time.Second)}
	srv := startServerAt(t, clk.Now)
	b := startBrowser(t)
	s := newStudio(t, srv, b)
	g := table(t, srv.svc, service.CreateRequest{Preset: "sport", Moderator: "host", Lang: "ru"}, tableNames)
	s.allow = append(append([]string{}, tableNames...), g.Code)
	servicetest.MustAct(t, srv.svc, g.Code, g.Host, rules.Action{ID: "start", Type: rules.ActStart})
	c := &club{t: t, svc: srv.svc, g: g}
	var reds, blacks []string
	for _, p := range c.view().Players {
		if p.Team == rules.MafiaTeam {
			blacks = append(blacks, p.ID)
		} else {
			reds = append(reds, p.ID)
		}
	}
	split := func(a, b string) func(string, int) string {
		return func(_ string, i int) string {
			if i%2 == 0 {
				return a
			}
			return b
		}
	}
	// Night 1 meets; day 1: a car crash, and the table keeps both (R-SPORT-07).
	c.until(rules.PhaseDay)
	c.act("", rules.Action{Type: rules.ActWarn, Target: reds[3], Foul: rules.FoulWords})
	c.day([]string{reds[0], reds[1]}, split(reds[0], reds[1]))
	c.until(rules.PhaseVote)
	c.votes(split(reds[0], reds[1]))
	c.until(rules.PhaseVoteAll)
	for i, p := range c.living() {
		yes := i < 4
		c.act(p, rules.Action{Type: rules.ActVoteAll, Yes: &yes})
	}
	// Night 2 misses; day 2 sends reds[0] away.
	c.night(map[string]string{blacks[0]: reds[2], blacks[1]: reds[3], blacks[2]: reds[2]}, blacks[0], reds[4])
	c.until(rules.PhaseDay)
	c.act("", rules.Action{Type: rules.ActWarn, Target: blacks[1], Foul: rules.FoulSpeech})
	c.day([]string{reds[0], blacks[0], reds[2]}, func(_ string, i int) string { return []string{reds[0], reds[0], blacks[0], reds[2]}[i%4] })

	// The game goes on: the moderator's console links to the live record, and
	// nobody else may read it yet.
	s.open(s.screen, "/#host="+g.Code+"&t="+g.Host, nil, `document.querySelector('main.console [data-action=protocol]')`)
	var link struct{ Href, Target string }
	s.screen.eval(`(() => { const a = document.querySelector('[data-action=protocol]'); return { href: a.getAttribute('href'), target: a.target }; })()`, &link)
	if link.Href != "/#protocol="+g.Code || link.Target != "_blank" {
		t.Errorf("the console's protocol link: %+v", link)
	}
	host := map[string]any{"cs.host." + g.Code: g.Host}
	s.open(s.screen, "/#protocol="+g.Code, host, `document.querySelector('main[data-status="200"] .proto-note')`)
	s.capture(s.screen, "protocol-live", `document.querySelector('main[data-status="200"] .seat-row .c-card')`)
	s.open(s.phone, "/#protocol="+g.Code, nil, `document.querySelector('[data-end=not_over]')`)
	s.capture(s.phone, "protocol-not-over", `document.querySelector('[data-end=not_over]')`)

	// Night 3 kills reds[1]; day 3's car crash sends blacks[0] away.
	c.night(map[string]string{blacks[0]: reds[1], blacks[1]: reds[1], blacks[2]: reds[1]}, blacks[1], reds[3])
	c.day([]string{blacks[0], reds[2]}, split(blacks[0], reds[2]))
	c.until(rules.PhaseVote)
	c.votes(func(_ string, i int) string { return []string{blacks[0], blacks[0], reds[2]}[i%3] })
	// Night 4 kills reds[2]; day 4 sends blacks[1] away.
	c.night(map[string]string{blacks[1]: reds[2], blacks[2]: reds[2]}, blacks[2], reds[5])
	c.day([]string{blacks[1], reds[3]}, func(_ string, i int) string { return []string{blacks[1], blacks[1], reds[3]}[i%3] })
	// Night 5 kills reds[3]; day 5's single nominee takes every vote: the town wins.
	c.night(map[string]string{blacks[2]: reds[3]}, "", reds[4])
	c.day([]string{blacks[2]}, func(string, int) string { return blacks[2] })
	c.until(rules.PhaseGameOver)
	want, err := srv.svc.Protocol(context.Background(), g.Code, "")
	if err != nil {
		t.Fatal(err)
	}
	if want.Winner != rules.Town || len(want.Days) != 5 || len(want.Nights) != 5 {
		t.Fatalf("the game: %s won, %d nights and %d days", want.Winner, len(want.Nights), len(want.Days))
	}

	// The page that waited for the end shows the record by itself.
	s.phone.waitFor("the protocol after the end", `document.querySelector('main[data-status="200"] .proto-winner[data-winner=town]')`)
	ready := `document.querySelector('main[data-status="200"] .proto-winner[data-winner=town]')`
	s.capture(s.phone, "protocol", ready)
	var wide int
	s.phone.eval(`document.documentElement.scrollWidth`, &wide)
	if wide > 390 {
		t.Errorf("the protocol on a 390 px phone is %d px wide", wide)
	}
	s.open(s.screen, "/#protocol="+g.Code, nil, ready)
	s.capture(s.screen, "protocol", ready)

	// One A4 page, in every language; the PDFs go with the screenshots.
	for _, lang := range langs {
		s.screen.eval(fmt.Sprintf(`(() => { const s = document.querySelector('select.lang'); s.value = %q; s.dispatchEvent(new Event('change')); return true; })()`, lang), nil)
		s.screen.waitFor("the protocol in "+lang, fmt.Sprintf(`document.documentElement.lang === %q && %s`, lang, ready))
		pdf, pages := s.screen.printPDF()
		if err := os.WriteFile(filepath.Join(s.dir, "protocol-"+lang+".pdf"), pdf, 0o644); err != nil {
			t.Fatal(err)
		}
		if pages != 1 {
			t.Errorf("the protocol of a ten-player game prints on %d A4 pages in %s, want 1", pages, lang)
		}
	}
	s.screen.printPreview("protocol-print")

	// The download: the protocol's JSON, named after the room code.
	var file struct {
		Name string
		Body string
	}
	s.screen.eval(`(() => { const a = document.querySelector('[data-action=download]'); return { name: a.download, body: decodeURIComponent(a.href.slice(a.href.indexOf(',') + 1)) }; })()`, &file)
	var got protocol.Protocol
	if err := json.Unmarshal([]byte(file.Body), &got); err != nil {
		t.Fatalf("the download is not JSON: %v", err)
	}
	wantJS, _ := json.Marshal(want)
	gotJS, _ := json.Marshal(got)
	if file.Name != g.Code+".json" || string(gotJS) != string(wantJS) {
		t.Errorf("the download %q differs from GET /api/games/%s/protocol", file.Name, g.Code)
	}

	// Every game-over page leads to it.
	s.open(s.phone, "/join/"+g.Code, seat(g.Code, g.Players[0]), phase("game_over")+` && document.querySelector('[data-action=protocol]')`)
	s.open(s.screen, "/#screen="+g.Code, nil, phase("game_over")+` && document.querySelector('[data-action=protocol]')`)
	s.screen.mustTap(`[data-action=protocol]`)
	s.screen.waitFor("the protocol from the end", ready)
}
