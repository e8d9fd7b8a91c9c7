// Command server runs the whole game on one machine: the API and the frontend on
// one port, with the games kept on disk in an embedded store, so that a laptop on
// a Wi-Fi network can host a table with no AWS account and no cloud.
//
//	go run ./infra/server        # or: make run
//
// It is configured by the environment:
//
//	PORT          port to listen on, on every interface (default 8080; 0 picks a free one)
//	DATA_DIR      directory of the game store (default .data); games survive a restart
//	PUBLIC_URL    base of the join links and QR codes (default http://<LAN address>:<port>)
//	FRONTEND_DIR  the static site to build and serve (default frontend)
//	RATE_LIMIT    requests per second allowed per client address (default 50; 0 turns it off)
//
// It prints the URL to open, and the one phones on the same network use. SIGINT or
// SIGTERM stops it gracefully: requests in flight finish, and the store is closed.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"os"
	"os/signal"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"citysleeps/infra/server/localserver"
	"citysleeps/infra/server/ratelimit"
	"citysleeps/infra/server/site"
	"citysleeps/shared/httpapi"
	"citysleeps/shared/service"
	"citysleeps/shared/store"
)

// storeFile is the name of the store's file in DATA_DIR.
const storeFile = "games.db"

// shutdownGrace is how long requests in flight get to finish at shutdown.
const shutdownGrace = 5 * time.Second

// sweepEvery is how often games past their expiry are deleted from the file.
const sweepEvery = time.Hour

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Getenv, os.Stdout, nil); err != nil {
		fmt.Fprintln(os.Stderr, "citysleeps:", err)
		os.Exit(1)
	}
}

// run serves until ctx is done. getenv reads the configuration; the URLs to open
// are printed to out; ready, if not nil, receives the local URL once the server
// listens.
func run(ctx context.Context, getenv func(string) string, out io.Writer, ready chan<- string) error {
	cfg, err := configure(getenv)
	if err != nil {
		return err
	}
	logger := slog.New(slog.NewJSONHandler(os.Stderr, &slog.HandlerOptions{Level: cfg.logLevel}))

	st, err := store.OpenBolt(filepath.Join(cfg.dataDir, storeFile))
	if err != nil {
		return err
	}
	defer st.Close()

	ln, err := net.Listen("tcp", ":"+cfg.port)
	if err != nil {
		return fmt.Errorf("listen on port %s: %w (set PORT to use another)", cfg.port, err)
	}
	port := strconv.Itoa(ln.Addr().(*net.TCPAddr).Port)
	local := "http://localhost:" + port
	lan := ""
	if ip, ok := lanAddress(); ok {
		lan = "http://" + net.JoinHostPort(ip.String(), port)
	}
	public := cfg.publicURL
	if public == "" {
		public = lan
	}
	if public == "" {
		public = local
	}

	games := service.New(st, service.WithLogger(logger), service.WithLocalLocks())
	api := httpapi.New(httpapi.Config{Games: games, PublicURL: public, Logger: logger})
	if cfg.rate > 0 {
		api = ratelimit.Wrap(api, ratelimit.Config{PerSecond: cfg.rate, Burst: max(1, int(2*cfg.rate))}, httpapi.TooManyRequests)
	}
	// The site is built (bundled, hashed) once, here, from frontendDir.
	pages, err := site.NewHandler(os.DirFS(cfg.frontendDir))
	if err != nil {
		return err
	}
	srv := localserver.New(router(api, pages), logger)

	fmt.Fprintf(out, "City Sleeps is running.\n  Open on this computer:      %s\n", local)
	if lan != "" {
		fmt.Fprintf(out, "  Phones on the same Wi-Fi:   %s\n", lan)
	} else {
		fmt.Fprintf(out, "  No network address found: phones cannot reach this computer.\n")
	}
	if public != lan && public != local {
		fmt.Fprintf(out, "  Join links and QR codes use %s\n", public)
	}
	fmt.Fprintf(out, "  Games are kept in %s. Stop with Ctrl+C.\n", filepath.Join(cfg.dataDir, storeFile))
	if _, err := os.Stat(filepath.Join(cfg.frontendDir, "index.html")); err != nil {
		fmt.Fprintf(out, "  Warning: no %s: only the API is served.\n", filepath.Join(cfg.frontendDir, "index.html"))
	}

	sweepCtx, stopSweep := context.WithCancel(ctx)
	swept := make(chan struct{})
	go func() { sweep(sweepCtx, st, logger); close(swept) }()
	defer func() { stopSweep(); <-swept }() // before the store closes
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	if ready != nil {
		ready <- local
	}
	select {
	case err := <-served:
		return err
	case <-ctx.Done():
	}
	fmt.Fprintln(out, "Stopping…")
	sctx, cancel := context.WithTimeout(context.Background(), shutdownGrace)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil {
		return fmt.Errorf("shutdown: %w", err)
	}
	if err := <-served; !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

type config struct {
	port, dataDir, publicURL, frontendDir string
	rate                                  float64
	logLevel                              slog.Level
}

func configure(getenv func(string) string) (config, error) {
	or := func(key, def string) string {
		if v := strings.TrimSpace(getenv(key)); v != "" {
			return v
		}
		return def
	}
	c := config{
		port:        or("PORT", "8080"),
		dataDir:     or("DATA_DIR", ".data"),
		publicURL:   strings.TrimRight(or("PUBLIC_URL", ""), "/"),
		frontendDir: or("FRONTEND_DIR", "frontend"),
		logLevel:    slog.LevelWarn,
	}
	if n, err := strconv.Atoi(c.port); err != nil || n < 0 || n > 65535 {
		return c, fmt.Errorf("PORT=%q is not a port number", c.port)
	}
	rate, err := strconv.ParseFloat(or("RATE_LIMIT", strconv.FormatFloat(ratelimit.Default.PerSecond, 'f', -1, 64)), 64)
	if err != nil || rate < 0 {
		return c, fmt.Errorf("RATE_LIMIT=%q is not a number of requests per second", getenv("RATE_LIMIT"))
	}
	c.rate = rate
	if c.publicURL != "" && !strings.HasPrefix(c.publicURL, "http://") && !strings.HasPrefix(c.publicURL, "https://") {
		return c, fmt.Errorf("PUBLIC_URL=%q must start with http:// or https://", c.publicURL)
	}
	if lv := getenv("LOG_LEVEL"); lv != "" {
		if err := c.logLevel.UnmarshalText([]byte(lv)); err != nil {
			return c, fmt.Errorf("LOG_LEVEL=%q: %w", lv, err)
		}
	}
	return c, nil
}

// lanAddress finds the IPv4 address other devices on the local network most
// likely reach this machine at: of an interface that is up and not loopback, a
// private address (RFC 1918) first, skipping the bridges of containers and VMs.
func lanAddress() (netip.Addr, bool) {
	ifaces, err := net.Interfaces()
	if err != nil {
		return netip.Addr{}, false
	}
	var best netip.Addr
	bestScore := -1
	for _, ifc := range ifaces {
		if ifc.Flags&net.FlagUp == 0 || ifc.Flags&net.FlagLoopback != 0 {
			continue
		}
		virtual := false
		for _, p := range []string{"docker", "br-", "veth", "virbr", "vmnet", "vboxnet", "cni", "flannel", "tun", "tap", "utun"} {
			if strings.HasPrefix(ifc.Name, p) {
				virtual = true
			}
		}
		addrs, err := ifc.Addrs()
		if err != nil {
			continue
		}
		for _, a := range addrs {
			pfx, err := netip.ParsePrefix(a.String())
			if err != nil {
				continue
			}
			ip := pfx.Addr()
			if !ip.Is4() || ip.IsLoopback() || ip.IsLinkLocalUnicast() || ip.IsUnspecified() {
				continue
			}
			score := 0
			if ip.IsPrivate() {
				score += 2
			}
			if !virtual {
				score += 4
			}
			if score > bestScore {
				best, bestScore = ip, score
			}
		}
	}
	return best, bestScore >= 0
}

// sweep deletes expired games from the store now and then, so the file does not
// grow without end.
func sweep(ctx context.Context, st *store.Bolt, logger *slog.Logger) {
	t := time.NewTicker(sweepEvery)
	defer t.Stop()
	for {
		if n, err := st.DeleteExpired(ctx); err != nil && ctx.Err() == nil {
			logger.Warn("delete expired games", "err", err.Error())
		} else if n > 0 {
			logger.Info("deleted expired games", "count", n)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// router sends a path under /api/, as it reads once cleaned, to the API and
// the rest to the site. A ServeMux would answer a path written otherwise
// ("//api/games/X", "/api/./games/X") with a redirect of its own, without the
// API's headers; the API answers those as it answers an unknown path.
func router(api, site http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if p := path.Clean("/" + r.URL.Path); p == "/api" || strings.HasPrefix(p, "/api/") {
			api.ServeHTTP(w, r)
			return
		}
		site.ServeHTTP(w, r)
	})
}
