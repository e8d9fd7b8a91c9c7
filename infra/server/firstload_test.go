package main

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/network"
	cdppage "github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"citysleeps/infra/harness/chromium"
	"citysleeps/shared/httpapi/apitest"
)

// The first seconds on a phone (issue 28): a phone that scans the QR code of
// a game served by `make run`, on a slow mobile network, until its name field
// is on the page. BenchmarkFirstLoad prints one line per network:
//
//	first_load: rtt_ms=150 kbps=1600 p50_ms=<n> bytes=<n> requests=<n> repeat_ms=<n>
//
// p50_ms is the median time from the navigation's start to the name field on
// a phone that has never seen the site; bytes and requests are what that
// phone fetched until then (bytes as they went over the network, headers and
// compression included, the median of the loads); repeat_ms the median of the
// same page opened again, the site's files in the phone's cache. It measures:
// no duration fails it.

// firstLoadNetworks are the networks measured: round trip and bandwidth.
var firstLoadNetworks = []struct{ rttMS, kbps int }{{150, 1600}, {300, 400}}

// firstLoadSamples is how many phones load each network's page (one each
// with -short).
const firstLoadSamples = 7

// nameFieldJS runs in each page before its own scripts: it notes when the
// name field appears, in milliseconds from the navigation's start.
const nameFieldJS = `(() => {
  const seen = () => {
    if (!window.__nameAt && document.getElementById('name')) window.__nameAt = performance.now();
    return !!window.__nameAt;
  };
  const o = new MutationObserver(() => { if (seen()) o.disconnect(); });
  o.observe(document, { childList: true, subtree: true });
})();`

// emulateNetworkConditions is CDP's Network.emulateNetworkConditions, which
// this cdproto no longer lists (it has the ...ByRule successor).
var emulateNetworkConditions = cdp.Command[networkConditions, cdp.Empty]{Method: "Network.emulateNetworkConditions"}

type networkConditions struct {
	Offline            bool    `json:"offline"`
	Latency            float64 `json:"latency"`
	DownloadThroughput float64 `json:"downloadThroughput"`
	UploadThroughput   float64 `json:"uploadThroughput"`
}

func BenchmarkFirstLoad(b *testing.B) {
	frontend, err := filepath.Abs("../../frontend")
	if err != nil {
		b.Fatal(err)
	}
	url, _, _ := serve(b, map[string]string{"PORT": "0", "DATA_DIR": b.TempDir(), "FRONTEND_DIR": frontend, "RATE_LIMIT": "0"})
	url = strings.Replace(url, "localhost", "127.0.0.1", 1)
	c := &apitest.Client{TB: b, T: apitest.URLTransport(url, nil)}
	code := c.Create(map[string]string{"preset": "classic", "lang": "en"}).Code
	browser := chromium.Start(b)
	samples := firstLoadSamples
	if testing.Short() {
		samples = 1
	}
	for b.Loop() {
		for _, n := range firstLoadNetworks {
			var ms, repeat, bytes, requests []float64
			for range samples {
				l := loadPage(b, browser, url+"/join/"+code, n.rttMS, n.kbps)
				ms, repeat = append(ms, l.ms), append(repeat, l.repeatMS)
				bytes, requests = append(bytes, l.bytes), append(requests, float64(l.requests))
			}
			fmt.Printf("first_load: rtt_ms=%d kbps=%d p50_ms=%.0f bytes=%.0f requests=%.0f repeat_ms=%.0f\n",
				n.rttMS, n.kbps, median(ms), median(bytes), median(requests), median(repeat))
			if n == firstLoadNetworks[0] {
				b.ReportMetric(median(ms), "first_ms")
				b.ReportMetric(median(repeat), "repeat_ms")
				b.ReportMetric(median(bytes), "first_bytes")
			}
		}
	}
}

func median(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	if len(s) == 0 {
		return 0
	}
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// load is one phone's first visit to a page and its second.
type load struct {
	ms, repeatMS float64
	bytes        float64 // over the network until the name field, first visit
	requests     int     // sent until the name field, first visit
}

// loadPage opens url on a new phone (a browser context of its own, with an
// empty cache) on the network given, 390×844 at 3x, then opens it again.
func loadPage(b *testing.B, browser context.Context, url string, rttMS, kbps int) load {
	b.Helper()
	type req struct {
		url   string
		sent  float64 // seconds, CDP's monotonic clock
		bytes float64
		done  bool
	}
	var mu sync.Mutex
	reqs := map[network.RequestID]*req{}
	var order []network.RequestID
	listen := func(ev any) {
		mu.Lock()
		defer mu.Unlock()
		switch e := ev.(type) {
		case *network.EventRequestWillBeSent:
			if strings.HasPrefix(e.Request.URL, "data:") {
				return
			}
			if _, ok := reqs[e.RequestID]; !ok {
				order = append(order, e.RequestID)
			}
			reqs[e.RequestID] = &req{url: e.Request.URL, sent: e.Timestamp.Float64()}
		case *network.EventLoadingFinished:
			if r := reqs[e.RequestID]; r != nil {
				r.bytes, r.done = e.EncodedDataLength, true
			}
		case *network.EventLoadingFailed:
			if r := reqs[e.RequestID]; r != nil {
				r.done = true
			}
		}
	}
	ctx, cancel := chromedp.NewContext(browser, chromedp.WithNewBrowserContext(), chromedp.WithListener(listen))
	defer cancel()
	ctx, cancelTime := context.WithTimeout(ctx, 2*time.Minute)
	defer cancelTime()
	setup := chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		if _, err := cdp.Call(ctx, tg, network.Enable, network.EnableParams{}); err != nil {
			return err
		}
		bps := float64(kbps) * 1000 / 8
		if _, err := cdp.Call(ctx, tg, emulateNetworkConditions, networkConditions{Latency: float64(rttMS), DownloadThroughput: bps, UploadThroughput: bps}); err != nil {
			return fmt.Errorf("Network.emulateNetworkConditions: %w", err)
		}
		_, err := cdp.Call(ctx, tg, cdppage.AddScriptToEvaluateOnNewDocument, cdppage.AddScriptToEvaluateOnNewDocumentParams{Source: nameFieldJS})
		return err
	})
	open := func() float64 {
		if err := chromedp.Do(ctx, chromedp.Navigate(url)); err != nil {
			b.Fatalf("open %s: %v", url, err)
		}
		at, err := chromedp.Run(ctx, chromedp.Poll[float64](`window.__nameAt`, chromedp.WithPollingInterval(20*time.Millisecond)))
		if err != nil {
			b.Fatalf("%s: no name field: %v", url, err)
		}
		return at
	}
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(390, 844, chromedp.EmulateScale(3), chromedp.EmulateMobile), setup); err != nil {
		b.Fatalf("set up the phone: %v", err)
	}
	var l load
	l.ms = open()
	// What was sent before the name field showed, once it has all arrived.
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		mu.Lock()
		pending := false
		if len(order) > 0 {
			start := reqs[order[0]].sent
			l.bytes, l.requests = 0, 0
			for _, id := range order {
				r := reqs[id]
				if (r.sent-start)*1000 > l.ms {
					continue
				}
				l.requests++
				l.bytes += r.bytes

				pending = pending || !r.done
			}
		}
		mu.Unlock()
		if !pending || time.Now().After(deadline) {
			break
		}
	}
	if testing.Verbose() { // go test -v: what was fetched, and when
		mu.Lock()
		for _, id := range order {
			r := reqs[id]
			b.Logf("%5.0f ms %6.0f B %s", (r.sent-reqs[order[0]].sent)*1000, r.bytes, r.url)
		}
		mu.Unlock()
	}
	l.repeatMS = open()
	return l
}
