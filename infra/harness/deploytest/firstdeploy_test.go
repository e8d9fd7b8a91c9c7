package deploytest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"citysleeps/infra/server/site"
	"citysleeps/shared/httpapi"
	"citysleeps/shared/service"
	"citysleeps/shared/store"
)

// TestTemplateGuidedDeployAsksNothing: `sam deploy --guided` asks "… may
// not have authorization defined, Is this okay? [y/N]" for every function
// with an Api or HttpApi event whose event has no Auth and whose API has
// none, and for a function URL whose AuthType is NONE; Enter answers N and
// the deploy stops ("Security Constraints Not Satisfied!"). SAM CLI's own
// check (samcli/commands/deploy/auth_utils.py) is done here the same way, so
// that a stranger who presses Enter at every prompt gets a deployed table.
func TestTemplateGuidedDeployAsksNothing(t *testing.T) {
	raw := rawTemplate(t)
	resources, _ := at(raw, "Resources").(map[string]any)
	hasAuth := func(v any) bool {
		m, ok := v.(map[string]any)
		return ok && len(m) > 0
	}
	events := 0
	for id, r := range resources {
		if at(r, "Type") != "AWS::Serverless::Function" {
			continue
		}
		evs, _ := at(r, "Properties", "Events").(map[string]any)
		for name, ev := range evs {
			typ := at(ev, "Type")
			if typ != "HttpApi" && typ != "Api" {
				continue
			}
			events++
			if hasAuth(at(ev, "Properties", "Auth")) {
				continue
			}
			key := "ApiId"
			if typ == "Api" {
				key = "RestApiId"
			}
			api, _ := at(ev, "Properties", key).(string)
			if !hasAuth(at(resources, strings.TrimPrefix(api, "Ref:"), "Properties", "Auth")) {
				t.Errorf("%s's event %s (%s of %q): neither it nor its API has an Auth, so the guided deploy asks", id, name, typ, api)
			}
		}
		if auth := at(r, "Properties", "FunctionUrlConfig", "AuthType"); auth == "NONE" {
			t.Errorf("%s's function URL has AuthType NONE, so the guided deploy asks", id)
		}
	}
	if events == 0 {
		t.Fatal("no function has an HttpApi event: the check saw nothing")
	}
	if auth := at(raw, "Globals", "Function", "FunctionUrlConfig", "AuthType"); auth == "NONE" {
		t.Error("the functions' URLs have AuthType NONE, so the guided deploy asks")
	}
}

// TestTemplateNamesFitAnyStackName: CloudFront caps the names of origin
// access controls and functions at 64 characters (response headers
// policies at 128), and a stack's name may have 128, so a name made of the stack's name broke the deploy of a stack
// named with more than 52 (issue 27). Each such name, with the stack's name
// at its longest and any other value of its Sub at a UUID's 36 characters
// (the stack's id), fits.
func TestTemplateNamesFitAnyStackName(t *testing.T) {
	raw := rawTemplate(t)
	resources, _ := at(raw, "Resources").(map[string]any)
	checked := 0
	for id, r := range resources {
		var name any
		capped := 64
		switch at(r, "Type") {
		case "AWS::CloudFront::Function":
			name = at(r, "Properties", "Name")
		case "AWS::CloudFront::OriginAccessControl":
			name = at(r, "Properties", "OriginAccessControlConfig", "Name")
		case "AWS::CloudFront::ResponseHeadersPolicy":
			name, capped = at(r, "Properties", "ResponseHeadersPolicyConfig", "Name"), 128
		default:
			continue
		}
		checked++
		text := fmt.Sprint(name)
		if s, ok := strings.CutPrefix(text, "Sub:"); ok {
			text = strings.TrimPrefix(s, "[")
			if i := strings.Index(text, " map["); i >= 0 {
				text = text[:i]
			}
		}
		longest := regexp.MustCompile(`\$\{[^}]+\}`).ReplaceAllStringFunc(text, func(v string) string {
			if v == "${AWS::StackName}" {
				return strings.Repeat("s", 128)
			}
			return strings.Repeat("u", 36)
		})
		if len(longest) > capped {
			t.Errorf("%s is named %q: %d characters with the longest stack name, over CloudFront's %d", id, text, len(longest), capped)
		}
	}
	if checked < 5 {
		t.Fatalf("only %d CloudFront functions, origin access controls and header policies found", checked)
	}
}

// TestTemplateSiteRevalidates: a browser never runs old and new modules
// together after a deploy (issues 27 and 28). The bundled files are named by
// a hash of their content and kept a year (immutable); index.html, which
// names them, and the other unhashed files are asked for again on each load
// (no-cache). CloudFront sends each file's Cache-Control from the bucket (the
// site's response headers policy adds no-cache only where there is none,
// never over the bucket's), make upload sets it per file as site.CacheControl
// says, and the local server sends the same.
func TestTemplateSiteRevalidates(t *testing.T) {
	raw := rawTemplate(t)
	policy := strings.TrimPrefix(fmt.Sprint(at(raw, "Resources", "SiteDistribution", "Properties", "DistributionConfig", "DefaultCacheBehavior", "ResponseHeadersPolicyId")), "Ref:")
	items, _ := at(raw, "Resources", policy, "Properties", "ResponseHeadersPolicyConfig", "CustomHeadersConfig", "Items").([]any)
	found := false
	for _, it := range items {
		if strings.EqualFold(fmt.Sprint(at(it, "Header")), "Cache-Control") {
			found = true
			if v := fmt.Sprint(at(it, "Value")); v != site.CacheRevalidate || at(it, "Override") != false {
				t.Errorf("policy %s sets Cache-Control %q, Override %v: want %q where the bucket has none (Override: false)", policy, v, at(it, "Override"), site.CacheRevalidate)
			}
		}
	}
	if !found {
		t.Errorf("policy %s gives no Cache-Control to a file without one", policy)
	}

	makefile, err := os.ReadFile(filepath.Join(repoRoot(t), "Makefile"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		`s3 sync $(SITE_DIR)/assets/ "s3://$$bucket/assets/" --cache-control '` + site.CacheImmutable + `'`,
		`s3 sync $(SITE_DIR)/ "s3://$$bucket/" --delete --exclude '` + site.Assets + `*' --cache-control '` + site.CacheRevalidate + `'`,
	} {
		if !bytes.Contains(makefile, []byte(want)) {
			t.Errorf("make upload does not run %s", want)
		}
	}

	h := site.Handler(os.DirFS(filepath.Join(repoRoot(t), "frontend")))
	get := func(path string) *httptest.ResponseRecorder {
		w := httptest.NewRecorder()
		h.ServeHTTP(w, httptest.NewRequest("GET", path, nil))
		return w
	}
	page := get("/")
	if cc := page.Header().Get("Cache-Control"); cc != site.CacheRevalidate {
		t.Errorf("index.html says Cache-Control %q locally, want %q", cc, site.CacheRevalidate)
	}
	entry := regexp.MustCompile(`src="/(` + site.Assets + `[^"]+\.js)"`).FindSubmatch(page.Body.Bytes())
	if entry == nil {
		t.Fatalf("index.html names no bundled module: %s", page.Body)
	}
	if cc := get("/" + string(entry[1])).Header().Get("Cache-Control"); cc != site.CacheImmutable {
		t.Errorf("%s says Cache-Control %q locally, want %q", entry[1], cc, site.CacheImmutable)
	}
}

// TestTemplateCustomDomain: a domain of the club's own is served by the
// distribution itself (Aliases, with an ACM certificate, which CloudFront
// takes from us-east-1 only), not just printed in the QR codes while the
// distribution refuses it (issue 27); without one the stack is as before.
func TestTemplateCustomDomain(t *testing.T) {
	raw := rawTemplate(t)
	dc := at(raw, "Resources", "SiteDistribution", "Properties", "DistributionConfig")
	if got := fmt.Sprint(at(dc, "Aliases")); got != "If:[HasDomain [Ref:DomainName] Ref:AWS::NoValue]" {
		t.Errorf("Aliases %s: want the DomainName when there is one", got)
	}
	cert := fmt.Sprint(at(dc, "ViewerCertificate"))
	for _, want := range []string{"If:[HasDomain ", "AcmCertificateArn:Ref:CertificateArn", "SslSupportMethod:sni-only", "Ref:AWS::NoValue]"} {
		if !strings.Contains(cert, want) {
			t.Errorf("ViewerCertificate %s: no %q", cert, want)
		}
	}
	wantAllowed(t, "CertificateArn", at(raw, "Parameters", "CertificateArn", "AllowedPattern"), map[string]bool{
		"": true,
		"arn:aws:acm:us-east-1:123456789012:certificate/0f0e0d0c-0b0a-0908-0706-050403020100": true,
		"arn:aws:acm:eu-west-1:123456789012:certificate/0f0e0d0c-0b0a-0908-0706-050403020100": false,
	})
	if got := fmt.Sprint(at(raw, "Conditions", "HasDomain")); !strings.Contains(got, "Ref:DomainName") || !strings.Contains(got, "Ref:CertificateArn") {
		t.Errorf("HasDomain is %s: want both a domain and its certificate", got)
	}
}

// TestTemplateApiForwardsNoCookie: CloudFront passes no If-None-Match on to
// an origin while it forwards cookies (the developer guide's "Cache content
// based on cookies"), so an API behaviour that forwarded them made every
// poll a whole answer instead of a 304 (issue 27). The API's origin request
// policy forwards the viewer's headers but Host, its query strings, and no
// cookie; the game keeps none.
func TestTemplateApiForwardsNoCookie(t *testing.T) {
	cfg := at(rawTemplate(t), "Resources", "ApiRequestPolicy", "Properties", "OriginRequestPolicyConfig")
	if got := at(cfg, "CookiesConfig", "CookieBehavior"); got != "none" {
		t.Errorf("the API's requests carry cookies: %v", got)
	}
	if at(cfg, "HeadersConfig", "HeaderBehavior") != "allExcept" || fmt.Sprint(at(cfg, "HeadersConfig", "Headers")) != "[Host]" {
		t.Errorf("the API's requests carry headers %v: want all but Host (If-None-Match, Accept-Encoding, the moved token)", at(cfg, "HeadersConfig"))
	}
	if at(cfg, "QueryStringsConfig", "QueryStringBehavior") != "all" {
		t.Errorf("the API's requests carry query strings %v: want all (?format=)", at(cfg, "QueryStringsConfig"))
	}
}

// TestTemplateAlarms: with AlarmEmail someone hears of a broken deploy before
// the table does (issue 27): functions that crash or time out, requests
// Lambda throttles, a rate of answers 5xx, and the month's bill; without it
// the stack makes none of them (alarms cost by the month). The rate is read
// from the metrics the request lines carry, under the names and dimension
// the API writes (TestMetricsAsWritten).
func TestTemplateAlarms(t *testing.T) {
	raw := rawTemplate(t)
	if at(raw, "Parameters", "AlarmEmail", "Default") != "" {
		t.Error("AlarmEmail has a default: alarms should be asked for")
	}
	resources, _ := at(raw, "Resources").(map[string]any)
	alarms := map[string]bool{}
	for id, r := range resources {
		switch at(r, "Type") {
		case "AWS::CloudWatch::Alarm", "AWS::SNS::Topic", "AWS::Budgets::Budget":
		case "AWS::Logs::MetricFilter":
			t.Errorf("%s: the metrics come from the request lines themselves, not from a filter", id)
			continue
		default:
			continue
		}
		if at(r, "ResourceCondition") != "HasAlarmEmail" {
			t.Errorf("%s is made without AlarmEmail", id)
		}
		switch at(r, "Type") {
		case "AWS::CloudWatch::Alarm":
			if fmt.Sprint(at(r, "Properties", "AlarmActions")) != "[Ref:AlarmTopic]" {
				t.Errorf("%s tells nobody: %v", id, at(r, "Properties", "AlarmActions"))
			}
			metrics, _ := at(r, "Properties", "Metrics").([]any)
			for _, m := range metrics {
				name, _ := at(m, "MetricStat", "Metric", "MetricName").(string)
				alarms[name] = true
				if ns := fmt.Sprint(at(m, "MetricStat", "Metric", "Namespace")); strings.HasPrefix(ns, "Sub:CitySleeps/") {
					checkOwnMetric(t, id, name, fmt.Sprint(at(m, "MetricStat", "Metric", "Dimensions")))
				}
			}
		case "AWS::Budgets::Budget":
			alarms["bill"] = true
			text := fmt.Sprint(at(r, "Properties"))
			for _, want := range []string{"TimeUnit:MONTHLY", "Amount:Ref:MonthlyBudget", "Address:Ref:AlarmEmail"} {
				if !strings.Contains(text, want) {
					t.Errorf("%s: no %s in %s", id, want, text)
				}
			}
		}
	}
	for _, m := range []string{"Errors", "Throttles", httpapi.MetricFailed, httpapi.MetricTime, "bill"} {
		if !alarms[m] {
			t.Errorf("no alarm reads %s", m)
		}
	}
}

// checkOwnMetric fails t unless name is a metric the request lines carry,
// under the dimension they carry it with (dims as the template spells it).
func checkOwnMetric(t *testing.T, where, name, dims string) {
	t.Helper()
	if !slices.Contains(httpapi.Metrics, name) {
		t.Errorf("%s reads %q, which no request line carries (%v)", where, name, httpapi.Metrics)
	}
	want := "Name:" + httpapi.DimensionService + " Value:" + httpapi.ServiceName
	if name == httpapi.MetricRefused {
		want = httpapi.DimensionError
	}
	if !strings.Contains(dims, want) {
		t.Errorf("%s reads %s under %s, not %s", where, name, dims, want)
	}
}

// TestTemplateDashboard: the dashboard is valid JSON once CloudFormation has
// put in its names, and every metric of the stack's own namespace it shows is
// one the request lines carry, under their dimension; the refusals are shown
// by code.
func TestTemplateDashboard(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(repoRoot(t), "template.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	body := yamlAt(&doc, "Resources", "Dashboard", "Properties", "DashboardBody")
	if body == nil || body.Tag != "!Sub" || len(body.Content) != 2 {
		t.Fatalf("DashboardBody is not a !Sub of a body and its names: %v", body)
	}
	const namespace = "CitySleeps/stack"
	text := regexp.MustCompile(`\$\{[^}]+\}`).ReplaceAllStringFunc(body.Content[0].Value, func(v string) string {
		if v == "${Namespace}" {
			return namespace
		}
		return "name"
	})
	var board struct {
		Widgets []struct {
			Properties struct {
				Metrics [][]any `json:"metrics"`
			} `json:"properties"`
		} `json:"widgets"`
	}
	if err := json.Unmarshal([]byte(text), &board); err != nil {
		t.Fatalf("the dashboard is not JSON: %v\n%s", err, text)
	}
	shown := map[string]bool{}
	search := regexp.MustCompile(`^SEARCH\('\{` + regexp.QuoteMeta(namespace) + `,(\w+)\} MetricName="(\w+)"'`)
	for _, w := range board.Widgets {
		for _, m := range w.Properties.Metrics {
			if len(m) == 0 {
				continue
			}
			if e, ok := m[0].(map[string]any); ok {
				expr := fmt.Sprint(e["expression"])
				g := search.FindStringSubmatch(expr)
				if g == nil {
					t.Errorf("an expression the test does not read: %s", expr)
					continue
				}
				checkOwnMetric(t, "the dashboard", g[2], g[1])
				shown[g[2]] = true
				continue
			}
			if m[0] != namespace {
				continue
			}
			name := fmt.Sprint(m[1])
			checkOwnMetric(t, "the dashboard", name, fmt.Sprintf("Name:%v Value:%v", m[2], m[3]))
			shown[name] = true
		}
	}
	for _, m := range httpapi.Metrics {
		if !shown[m] {
			t.Errorf("the dashboard does not show %s", m)
		}
	}
}

// yamlAt walks a YAML document down the keys of its mappings.
func yamlAt(n *yaml.Node, keys ...string) *yaml.Node {
	if n.Kind == yaml.DocumentNode && len(n.Content) == 1 {
		n = n.Content[0]
	}
	for _, k := range keys {
		var next *yaml.Node
		for i := 0; n != nil && n.Kind == yaml.MappingNode && i+1 < len(n.Content); i += 2 {
			if n.Content[i].Value == k {
				next = n.Content[i+1]
			}
		}
		if next == nil {
			return nil
		}
		n = next
	}
	return n
}

// TestMetricsAsWritten: the request line the API writes in AWS carries its
// metrics as the embedded metric format reads them, under the namespace the
// template gives the functions: the line a 404 writes counts a refusal under
// its code and a handler time under the service.
func TestMetricsAsWritten(t *testing.T) {
	ns := declaredEnv(t)[httpapi.EnvMetricsNamespace]
	if ns != "Sub:CitySleeps/${AWS::StackName}" {
		t.Errorf("%s is %q: want the stack's own namespace", httpapi.EnvMetricsNamespace, ns)
	}
	var logs bytes.Buffer
	h := httpapi.New(httpapi.Config{Games: service.New(store.NewMemory()), Metrics: "CitySleeps/stack",
		Logger: slog.New(slog.NewJSONHandler(&logs, nil))})
	h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("GET", "/api/games/ZZZZZZ", nil))
	var line map[string]any
	if err := json.Unmarshal(bytes.TrimSpace(logs.Bytes()), &line); err != nil {
		t.Fatalf("the request line %q: %v", logs.String(), err)
	}
	directives := fmt.Sprint(at(line, "_aws", "CloudWatchMetrics"))
	for _, want := range []string{"Namespace:CitySleeps/stack", "[[service]]", "Name:ms", "[[error]]", "Name:refused"} {
		if !strings.Contains(directives, want) {
			t.Errorf("the line's directives %s: no %s", directives, want)
		}
	}
	if line[httpapi.MetricRefused] != 1.0 || line[httpapi.DimensionError] != "not_found" || line[httpapi.DimensionService] != httpapi.ServiceName {
		t.Errorf("the line %s: want one refusal under not_found, from %s", logs.String(), httpapi.ServiceName)
	}
}

// wantAllowed checks a template parameter's AllowedPattern against values,
// each to be allowed or refused.
func wantAllowed(t *testing.T, param string, pattern any, values map[string]bool) {
	t.Helper()
	re := regexp.MustCompile(fmt.Sprint(pattern))
	for v, ok := range values {
		if re.MatchString(v) != ok {
			t.Errorf("%s %q: allowed %v, want %v", param, v, !ok, ok)
		}
	}
}
