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
	"strings"
	"testing"

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

// TestTemplateSiteRevalidates: the site's files keep their names from one
// deploy to the next, so a browser that kept index.html or a module by
// heuristics (no Cache-Control from S3) could mix old and new modules after
// an update (issue 27). Every answer of the site's behaviour says
// Cache-Control: no-cache, as the local server's do: a browser asks again
// each time and gets a 304 while the file is unchanged.
func TestTemplateSiteRevalidates(t *testing.T) {
	raw := rawTemplate(t)
	policy := strings.TrimPrefix(fmt.Sprint(at(raw, "Resources", "SiteDistribution", "Properties", "DistributionConfig", "DefaultCacheBehavior", "ResponseHeadersPolicyId")), "Ref:")
	items, _ := at(raw, "Resources", policy, "Properties", "ResponseHeadersPolicyConfig", "CustomHeadersConfig", "Items").([]any)
	deployed := ""
	for _, it := range items {
		if strings.EqualFold(fmt.Sprint(at(it, "Header")), "Cache-Control") && at(it, "Override") == true {
			deployed = fmt.Sprint(at(it, "Value"))
		}
	}
	w := httptest.NewRecorder()
	site.Handler(os.DirFS(filepath.Join(repoRoot(t), "frontend"))).ServeHTTP(w, httptest.NewRequest("GET", "/js/api.js", nil))
	if local := w.Header().Get("Cache-Control"); deployed != "no-cache" || local != deployed {
		t.Errorf("the site's files say Cache-Control %q deployed (policy %s), %q locally: want no-cache in both", deployed, policy, local)
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
	pattern, _ := at(raw, "Parameters", "CertificateArn", "AllowedPattern").(string)
	re := regexp.MustCompile(pattern)
	for arn, ok := range map[string]bool{
		"": true,
		"arn:aws:acm:us-east-1:123456789012:certificate/0f0e0d0c-0b0a-0908-0706-050403020100": true,
		"arn:aws:acm:eu-west-1:123456789012:certificate/0f0e0d0c-0b0a-0908-0706-050403020100": false,
	} {
		if re.MatchString(arn) != ok {
			t.Errorf("CertificateArn %q: allowed %v, want %v", arn, !ok, ok)
		}
	}
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
// Lambda throttles, answers 5xx; without it the stack makes none of them
// (they cost by the month). ServerErrors counts the functions' own JSON
// request lines, so the filter is checked against a line the API writes.
func TestTemplateAlarms(t *testing.T) {
	raw := rawTemplate(t)
	if at(raw, "Parameters", "AlarmEmail", "Default") != "" {
		t.Error("AlarmEmail has a default: alarms should be asked for")
	}
	resources, _ := at(raw, "Resources").(map[string]any)
	alarms := map[string]bool{}
	filters := 0
	for id, r := range resources {
		switch at(r, "Type") {
		case "AWS::CloudWatch::Alarm", "AWS::SNS::Topic", "AWS::Logs::MetricFilter":
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
			text := fmt.Sprint(at(r, "Properties"))
			for _, m := range []string{"Errors", "Throttles", "ServerErrors"} {
				if strings.Contains(text, "MetricName:"+m+" ") || strings.Contains(text, "MetricName:"+m+"]") {
					alarms[m] = true
				}
			}
		case "AWS::Logs::MetricFilter":
			filters++
			if p := fmt.Sprint(at(r, "Properties", "FilterPattern")); p != `{ $.msg = "request" && $.status >= 500 }` {
				t.Errorf("%s counts %s", id, p)
			}
		}
	}
	for _, m := range []string{"Errors", "Throttles", "ServerErrors"} {
		if !alarms[m] {
			t.Errorf("no alarm on %s", m)
		}
	}
	if filters != len(httpapi.Functions) {
		t.Errorf("%d metric filters for %d functions", filters, len(httpapi.Functions))
	}

	// The line the filter reads, as the API writes it.
	var logs bytes.Buffer
	h := httpapi.New(httpapi.Config{Games: service.New(store.NewMemory()), Logger: slog.New(slog.NewJSONHandler(&logs, nil))})
	h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("GET", "/api/games/ZZZZZZ", nil))
	var line struct {
		Msg    string `json:"msg"`
		Status *int   `json:"status"`
	}
	if err := json.Unmarshal(bytes.TrimSpace(logs.Bytes()), &line); err != nil || line.Msg != "request" || line.Status == nil || *line.Status != 404 {
		t.Errorf("the API's request line %q (%v): want msg \"request\" and the status as a number", logs.String(), err)
	}
}
