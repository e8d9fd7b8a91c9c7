package deploytest

import (
	"bytes"
	"crypto/sha256"
	"debug/elf"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/aws/aws-lambda-go/events"

	"citysleeps/infra/harness/localdynamo"
	"citysleeps/infra/harness/localdynamo/localdynamotest"
	"citysleeps/infra/harness/ports"
	"citysleeps/infra/harness/samlocal"
	"citysleeps/shared/httpapi"
	"citysleeps/shared/httpapi/apitest"
	"citysleeps/shared/rules"
)

// siteHost is the host CloudFront would pass on in X-Forwarded-Host.
const siteHost = "mafia.example.test"

// coldStarts is how many fresh processes each function's init time is taken
// over: one with -short (make test), where the figures are not read, nine in
// make bench, which prints them.
func coldStarts() int {
	if testing.Short() {
		return 1
	}
	return 9
}

// TestLambdaRuntime builds every function with its Makefile target (sam build's
// way) for this machine, runs each under AWS's Lambda Runtime Interface Emulator
// with the store on dynalite, in exactly the environment `make sam-local` gives
// it through SAM CLI (the template's variables, set by the env-vars file), and plays a whole game by invoking them as
// deployed: each request sent to the function the distribution's behaviours
// route it to (template.yaml), as the function URL event CloudFront makes of
// it (the viewer's token moved aside, CloudFront's signature in
// Authorization): create, ten joins, start, nights, votes, 304s, errors. The
// errors go through API Gateway's events too, as `sam local start-api` sends
// them. It reports each function's binary size (also built for arm64, as
// deployed) and init time, read from the emulator's INIT REPORT line, beside
// the bare function's (infra/harness/bare), as a log, not an assertion.
func TestLambdaRuntime(t *testing.T) {
	root := repoRoot(t)
	rie := installRIE(t, root)
	db := localdynamotest.MustStart(t)

	dir := t.TempDir()
	bins := map[string]string{} // function → bootstrap for this machine
	for _, fn := range httpapi.Functions {
		bins[fn] = makeBootstrap(t, root, fn, filepath.Join(dir, runtime.GOARCH, fn), runtime.GOARCH)
	}
	bins["bare"] = buildBare(t, root, filepath.Join(dir, runtime.GOARCH, "bare"), runtime.GOARCH)
	// The environment `make sam-local` gives them through SAM CLI: what the
	// template declares, set by its env-vars file, and what Lambda adds.
	env := append(samlocal.Local(db.Endpoint, db.Table, "").Environment(declaredEnv(t)),
		"AWS_REGION="+localdynamo.Region, "AWS_ACCESS_KEY_ID=local", "AWS_SECRET_ACCESS_KEY=local")

	// Init time: fresh processes, the functions taken in turn so that drift in
	// the machine's load falls on all alike.
	inits := map[string][]float64{}
	firsts := map[string][]float64{}
	names := append([]string{"bare"}, httpapi.Functions...)
	for range coldStarts() {
		for _, fn := range names {
			f := startFunction(t, rie, bins[fn], fn, env)
			res := f.invoke(t, apitest.Request{Method: "GET", Path: httpapi.PathHealth})
			if fn == "bare" && res.Status != 200 || fn == httpapi.FuncRead && res.Status != 200 {
				t.Fatalf("%s: health status %d: %s", fn, res.Status, res.Body)
			}
			init, first := f.report(t)
			inits[fn] = append(inits[fn], init)
			firsts[fn] = append(firsts[fn], first)
			f.stop()
		}
	}

	// A whole game through the four functions.
	fns := map[string]*function{}
	for _, fn := range httpapi.Functions {
		fns[fn] = startFunction(t, rie, bins[fn], fn, env)
		defer fns[fn].stop()
	}
	deployed := viaCloudFront(t, fns)
	res := apitest.Play(t, deployed, apitest.Game{Preset: "sport", Players: 10, Seed: 7})
	t.Logf("through CloudFront's routes to the functions' URLs: %v", res)
	if res.Requests < 100 || res.NotMod == 0 {
		t.Errorf("the game took %d requests and %d 304s", res.Requests, res.NotMod)
	}
	checkErrorsThroughLambda(t, deployed)
	checkErrorsThroughLambda(t, viaSAMLocal(t, fns))

	// Sizes as deployed: arm64, a build of every package for another
	// architecture, which make bench and make soak make and make test
	// (-short) leaves to them.
	if testing.Short() {
		return
	}
	sizes := map[string][2]int64{}
	for _, fn := range names {
		var arm string
		if fn == "bare" {
			arm = buildBare(t, root, filepath.Join(dir, "arm64", fn), "arm64")
		} else {
			arm = makeBootstrap(t, root, fn, filepath.Join(dir, "arm64", fn), "arm64")
		}
		sizes[fn] = [2]int64{fileSize(t, bins[fn]), fileSize(t, arm)}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Lambda functions (median of %d cold starts under the Runtime Interface Emulator on %s):\n", coldStarts(), runtime.GOARCH)
	fmt.Fprintf(&b, "  %-8s %12s %12s %10s %8s %12s\n", "function", "arm64 size", runtime.GOARCH+" size", "init ms", "× bare", "1st req ms")
	bare := median(inits["bare"])
	for _, fn := range names {
		in := median(inits[fn])
		fmt.Fprintf(&b, "  %-8s %9.2f MiB %9.2f MiB %10.2f %8.2f %12.2f\n", fn,
			float64(sizes[fn][1])/(1<<20), float64(sizes[fn][0])/(1<<20), in, in/bare, median(firsts[fn]))
	}
	t.Log(b.String())
	// The AWS SDK's client is most of a function (the bare one is 7.5 MiB);
	// Unicode's tables for names (NFKC, case folding, the confusables) add
	// about 0.6 MiB.
	for _, fn := range httpapi.Functions {
		if sizes[fn][1] > 12<<20 {
			t.Errorf("%s is %d bytes for arm64, over 12 MiB", fn, sizes[fn][1])
		}
	}
}

// checkErrorsThroughLambda sends refused requests through the functions and
// checks their statuses and that the game's version stays as it was.
func checkErrorsThroughLambda(t *testing.T, tr apitest.Transport) {
	c := &apitest.Client{TB: t, T: tr}
	cr := c.Create(map[string]string{"preset": "classic"})
	if want := "https://" + siteHost + "/join/" + cr.Code; cr.JoinURL != want {
		t.Errorf("joinUrl %q, want %q (from X-Forwarded-Host)", cr.JoinURL, want)
	}
	var tokens []string
	for i := range 5 {
		tokens = append(tokens, c.Join(cr.Code, "Seat "+strconv.Itoa(i+1)).Token)
	}
	version := func() int64 { v, _ := c.Read(cr.Code, ""); return v.Version }
	before := version()
	game := "/api/games/" + cr.Code
	for _, tc := range []struct {
		name   string
		req    apitest.Request
		status int
		code   string
	}{
		{"no such game", apitest.Request{Method: "GET", Path: "/api/games/ZZZZZZ"}, 404, httpapi.CodeNotFound},
		{"malformed", apitest.Request{Method: "POST", Path: game + "/players", Body: []byte(`{"name":`)}, 400, httpapi.CodeMalformed},
		{"too large", apitest.Request{Method: "POST", Path: game + "/players", Body: []byte(`{"name":"` + strings.Repeat("x", httpapi.MaxBody) + `"}`)}, 413, httpapi.CodeTooLarge},
		{"no token", apitest.Request{Method: "POST", Path: game + "/actions", Body: []byte(`{"id":"a","type":"start"}`)}, 401, httpapi.CodeUnauthorized},
		{"not the host", apitest.Request{Method: "POST", Path: game + "/actions", Token: tokens[0], Body: []byte(`{"id":"a","type":"start"}`)}, 403, "not_host"},
		{"wrong phase", apitest.Request{Method: "POST", Path: game + "/actions", Token: tokens[0], Body: []byte(`{"id":"a","type":"sleep"}`)}, 409, "wrong_phase"},
		{"unknown action", apitest.Request{Method: "POST", Path: game + "/actions", Token: cr.HostToken, Body: []byte(`{"id":"a","type":"fly"}`)}, 400, "unknown_action"},
	} {
		c.ExpectError(c.Do(tc.req), tc.status, tc.code)
		if v := version(); v != before {
			t.Errorf("%s: version %d, was %d", tc.name, v, before)
		}
	}
	c.MustAct(cr.Code, cr.HostToken, rules.Action{ID: "start-1", Type: rules.ActStart})
	before = version()
	c.ExpectError(c.JSON("POST", game+"/players", "", map[string]string{"name": "Late"}), 409, "wrong_phase")
	if v := version(); v != before {
		t.Errorf("late join: version %d, was %d", v, before)
	}
	qr := c.Do(apitest.Request{Method: "GET", Path: game + "/qr.svg"})
	if qr.Status != 200 || qr.Header.Get("Content-Type") != "image/svg+xml" || !bytes.HasPrefix(qr.Body, []byte("<svg")) {
		t.Errorf("QR code: %d %q %.60s", qr.Status, qr.Header.Get("Content-Type"), qr.Body)
	}
	var health map[string]string
	c.Expect(c.Do(apitest.Request{Method: "GET", Path: httpapi.PathHealth}), 200, &health)
}

// function is one function running under the emulator.
type function struct {
	name string
	url  string
	cmd  *exec.Cmd
	out  *lockedBuffer
	done chan struct{}
}

// startFunction runs bootstrap under the emulator on free loopback ports.
func startFunction(t *testing.T, rie, bootstrap, name string, env []string) *function {
	t.Helper()
	addr, apiAddr := freeAddr(t), freeAddr(t)
	for apiAddr == addr {
		apiAddr = freeAddr(t)
	}
	f := &function{name: name, url: "http://" + addr + "/2015-03-31/functions/function/invocations",
		out: &lockedBuffer{}, done: make(chan struct{})}
	f.cmd = exec.Command(rie, "--runtime-interface-emulator-address", addr, "--runtime-api-address", apiAddr, "./bootstrap")
	f.cmd.Dir = filepath.Dir(bootstrap)
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "PUBLIC_URL=") && !strings.HasPrefix(kv, "AWS_") {
			f.cmd.Env = append(f.cmd.Env, kv)
		}
	}
	f.cmd.Env = append(f.cmd.Env, env...)
	f.cmd.Env = append(f.cmd.Env, "AWS_LAMBDA_FUNCTION_NAME="+name, "AWS_LAMBDA_FUNCTION_TIMEOUT=30")
	f.cmd.Stdout, f.cmd.Stderr = f.out, f.out
	f.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	if err := f.cmd.Start(); err != nil {
		t.Fatalf("start the emulator: %v", err)
	}
	go func() { f.cmd.Wait(); close(f.done) }()
	t.Cleanup(f.stop)
	deadline := time.Now().Add(10 * time.Second)
	for {
		conn, err := net.DialTimeout("tcp", addr, 200*time.Millisecond)
		if err == nil {
			conn.Close()
			return f
		}
		select {
		case <-f.done:
			t.Fatalf("the emulator for %s exited: %s", name, f.out.String())
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("the emulator for %s does not listen on %s: %s", name, addr, f.out.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// stop ends the emulator and the function it runs.
func (f *function) stop() {
	select {
	case <-f.done:
		return
	default:
	}
	syscall.Kill(-f.cmd.Process.Pid, syscall.SIGKILL)
	<-f.done
}

// invoke sends req as a function URL event and returns the response.
func (f *function) invoke(t *testing.T, req apitest.Request) apitest.Response {
	t.Helper()
	res, err := f.call(req, true)
	if err != nil {
		t.Fatalf("%s: %v; emulator output: %s", f.name, err, f.out.tail(4000))
	}
	return res
}

var invokeClient = &http.Client{Timeout: 60 * time.Second}

// call sends req to the function: viaURL, as the function URL event of the
// request CloudFront makes of it (template.yaml's ApiRequestFunction and
// ApiOriginAccessControl: the site's host in X-Forwarded-Host, the viewer's
// token in httpapi.ViewerAuthorization and CloudFront's SigV4 signature in
// Authorization); otherwise as the API Gateway HTTP API event `sam local
// start-api` sends.
func (f *function) call(req apitest.Request, viaURL bool) (apitest.Response, error) {
	path, query, _ := strings.Cut(req.Path, "?")
	headers := map[string]string{"x-forwarded-proto": "https", "x-forwarded-host": siteHost, "user-agent": "deploytest"}
	for k, v := range req.Header {
		headers[strings.ToLower(k)] = strings.Join(v, ", ")
	}
	var body string
	var base64Body bool
	if req.Body != nil {
		if headers["content-type"] == "" {
			headers["content-type"] = "application/json"
		}
		if utf8.Valid(req.Body) {
			body = string(req.Body)
		} else {
			body, base64Body = base64.StdEncoding.EncodeToString(req.Body), true
		}
	}
	id := strconv.FormatInt(time.Now().UnixNano(), 36)
	var ev any
	if viaURL {
		if req.Token != "" {
			headers[strings.ToLower(httpapi.ViewerAuthorization)] = "Bearer " + req.Token
		}
		headers["authorization"] = "AWS4-HMAC-SHA256 Credential=ASIAEXAMPLE/20261201/us-east-1/lambda/aws4_request, SignedHeaders=host;x-amz-date, Signature=0f0e"
		headers["x-amz-content-sha256"] = fmt.Sprintf("%x", sha256.Sum256(req.Body))
		ev = events.LambdaFunctionURLRequest{
			Version: "2.0", RawPath: path, RawQueryString: query, Headers: headers, Body: body, IsBase64Encoded: base64Body,
			RequestContext: events.LambdaFunctionURLRequestContext{
				DomainName: "fn.lambda-url.us-east-1.on.aws", RequestID: id,
				HTTP: events.LambdaFunctionURLRequestContextHTTPDescription{Method: req.Method, Path: path, Protocol: "HTTP/1.1", SourceIP: "130.176.0.1", UserAgent: "Amazon CloudFront"},
			},
		}
	} else {
		if req.Token != "" {
			headers["authorization"] = "Bearer " + req.Token
		}
		ev = events.APIGatewayV2HTTPRequest{
			Version: "2.0", RouteKey: req.Method + " " + path, RawPath: path, RawQueryString: query, Headers: headers, Body: body, IsBase64Encoded: base64Body,
			RequestContext: events.APIGatewayV2HTTPRequestContext{
				DomainName: "localhost", Stage: "$default", RequestID: id,
				HTTP: events.APIGatewayV2HTTPRequestContextHTTPDescription{Method: req.Method, Path: path, Protocol: "HTTP/1.1", SourceIP: "127.0.0.1", UserAgent: "deploytest"},
			},
		}
	}
	payload, err := json.Marshal(ev)
	if err != nil {
		return apitest.Response{}, err
	}
	resp, err := invokeClient.Post(f.url, "application/json", bytes.NewReader(payload))
	if err != nil {
		return apitest.Response{}, err
	}
	defer resp.Body.Close()
	var out events.APIGatewayV2HTTPResponse
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil || resp.StatusCode != 200 {
		return apitest.Response{}, fmt.Errorf("invoke: emulator status %d, decode: %v", resp.StatusCode, err)
	}
	res := apitest.Response{Status: out.StatusCode, Header: http.Header{}, Body: []byte(out.Body)}
	for k, v := range out.Headers {
		res.Header.Set(k, v)
	}
	for k, vs := range out.MultiValueHeaders {
		for _, v := range vs {
			res.Header.Add(k, v)
		}
	}
	if out.IsBase64Encoded {
		if res.Body, err = base64.StdEncoding.DecodeString(out.Body); err != nil {
			return res, err
		}
	}
	return res, nil
}

var (
	initReport   = regexp.MustCompile(`INIT REPORT\(durationMs: ([0-9.]+)\)`)
	invokeReport = regexp.MustCompile(`REPORT RequestId: [^\t]*\t(?:Init Duration: [0-9.]+ ms\t)?Duration: ([0-9.]+) ms`)
)

// report reads the init time and the first request's duration, in milliseconds,
// from the emulator's output.
func (f *function) report(t *testing.T) (init, first float64) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		out := f.out.String()
		im, rm := initReport.FindStringSubmatch(out), invokeReport.FindStringSubmatch(out)
		if im != nil && rm != nil {
			init, _ = strconv.ParseFloat(im[1], 64)
			first, _ = strconv.ParseFloat(rm[1], 64)
			return init, first
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: no INIT REPORT and REPORT lines in the emulator's output: %s", f.name, f.out.tail(4000))
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// viaCloudFront sends each request to the function the distribution's
// behaviours route its path to (cloudFrontRoutes), as a function URL event.
func viaCloudFront(t *testing.T, fns map[string]*function) apitest.Transport {
	routes := cloudFrontRoutes(t)
	return func(req apitest.Request) (apitest.Response, error) {
		path, _, _ := strings.Cut(req.Path, "?")
		fn := routes.function(path)
		if fns[fn] == nil {
			return apitest.Response{}, fmt.Errorf("CloudFront routes %s to %q, no function", path, fn)
		}
		return fns[fn].call(req, true)
	}
}

// viaSAMLocal sends each request to the function whose HttpApi event has its
// route (httpapi.Routes: TestTemplateRoutes checks the two agree), as an API
// Gateway event, as `sam local start-api` does.
func viaSAMLocal(t *testing.T, fns map[string]*function) apitest.Transport {
	mux := http.NewServeMux()
	owner := map[string]string{}
	for _, r := range httpapi.Routes {
		mux.Handle(r.Pattern(), http.NotFoundHandler())
		owner[r.Pattern()] = r.Function
	}
	return func(req apitest.Request) (apitest.Response, error) {
		r, err := http.NewRequest(req.Method, req.Path, nil)
		if err != nil {
			return apitest.Response{}, err
		}
		_, pattern := mux.Handler(r)
		fn, ok := owner[pattern]
		if !ok {
			return apitest.Response{}, fmt.Errorf("no route for %s %s", req.Method, req.Path)
		}
		return fns[fn].call(req, false)
	}
}

// installRIE installs the emulator into bin/ with the Makefile's pinned version,
// unless it is there.
func installRIE(t *testing.T, root string) string {
	t.Helper()
	rie := filepath.Join(root, "bin", "aws-lambda-rie")
	if _, err := os.Stat(rie); err == nil {
		return rie
	}
	run(t, root, nil, "make", rie)
	return rie
}

// makeBootstrap builds one function with its build-<LogicalId> target.
func makeBootstrap(t *testing.T, root, fn, dir, arch string) string {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	run(t, root, nil, "make", "--no-print-directory", "build-"+logicalID(fn), "ARTIFACTS_DIR="+dir, "LAMBDA_ARCH="+arch)
	path := filepath.Join(dir, "bootstrap")
	checkELF(t, path, arch)
	return path
}

// buildBare builds infra/harness/bare the way the Makefile builds the functions.
func buildBare(t *testing.T, root, dir, arch string) string {
	t.Helper()
	path := filepath.Join(dir, "bootstrap")
	run(t, root, []string{"GOOS=linux", "GOARCH=" + arch, "CGO_ENABLED=0"},
		"go", "build", "-tags", "lambda.norpc", "-trimpath", "-ldflags=-s -w", "-o", path, "./infra/harness/bare")
	checkELF(t, path, arch)
	return path
}

// checkELF fails unless path is a static Linux executable for arch.
func checkELF(t *testing.T, path, arch string) {
	t.Helper()
	f, err := elf.Open(path)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	defer f.Close()
	want := map[string]elf.Machine{"arm64": elf.EM_AARCH64, "amd64": elf.EM_X86_64}[arch]
	if f.Machine != want || f.Type != elf.ET_EXEC {
		t.Errorf("%s: %v %v, want a %v executable", path, f.Machine, f.Type, want)
	}
	if slices.ContainsFunc(f.Progs, func(p *elf.Prog) bool { return p.Type == elf.PT_INTERP }) {
		t.Errorf("%s is dynamically linked", path)
	}
}

func run(t *testing.T, dir string, env []string, name string, args ...string) {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
	}
}

func fileSize(t *testing.T, path string) int64 {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return fi.Size()
}

// freeAddr is a loopback address for a server started as a process of its
// own (the emulator), on a port no connection of another test can take
// before it binds it (ports.Quiet).
func freeAddr(t *testing.T) string {
	t.Helper()
	port, err := ports.Quiet()
	if err != nil {
		t.Fatal(err)
	}
	return "127.0.0.1:" + strconv.Itoa(port)
}

func median(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	if len(s) == 0 {
		return 0
	}
	return s[len(s)/2]
}

// lockedBuffer collects a process's output.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

func (b *lockedBuffer) tail(n int) string {
	s := b.String()
	return s[max(0, len(s)-n):]
}
