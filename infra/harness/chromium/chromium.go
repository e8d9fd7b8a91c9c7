// Package chromium starts the headless Chromium that the browser tests and
// the first-load benchmark drive with chromedp: Debian's chromium, which
// `make test` installs, without a sandbox or a GPU, in a fresh profile, with
// nothing of its own going on the network.
package chromium

import (
	"context"
	"os"
	"testing"

	"github.com/chromedp/chromedp"
)

// Path is Debian's Chromium; the CHROMIUM environment variable names another.
const Path = "/usr/bin/chromium"

// Start starts Chromium for tb and returns the context of its first tab;
// extra options (flags) come after the package's own, and override them. It
// fails tb if Chromium is not installed or does not start, and stops it when
// tb ends.
func Start(tb testing.TB, extra ...chromedp.ExecAllocatorOption) context.Context {
	tb.Helper()
	path := Path
	if p := os.Getenv("CHROMIUM"); p != "" {
		path = p
	}
	if _, err := os.Stat(path); err != nil {
		tb.Fatalf("Chromium is not installed at %s: `make test` installs it (apt-get install -y chromium), or set CHROMIUM to another binary", path)
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(path),
		chromedp.NoSandbox,
		chromedp.Flag("disable-gpu", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("no-first-run", true),
		// chromedp's own list, and the omnibox's popup: headless Chromium
		// otherwise loads it into a renderer of its own for every window,
		// one per phone, which costs a game's CPU and shows no page.
		chromedp.Flag("disable-features", "Translate,BlinkGenPropertyTrees,WebUIOmniboxPopup,WebUIOmniboxFullPopup,WebUIOmniboxAimPopup"),
		chromedp.UserDataDir(tb.TempDir()),
	)
	opts = append(opts, extra...)
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	bctx, cancel := chromedp.NewContext(actx)
	if err := chromedp.Do(bctx); err != nil {
		cancel()
		cancelAlloc()
		tb.Fatalf("start chromium: %v", err)
	}
	tb.Cleanup(func() {
		cancel()
		cancelAlloc()
	})
	return bctx
}
