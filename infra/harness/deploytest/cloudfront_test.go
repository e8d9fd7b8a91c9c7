package deploytest

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	"citysleeps/infra/harness/loadgen"
	"citysleeps/shared/httpapi"
)

// cachingDisabled is the managed CloudFront cache policy the API's
// behaviours use.
const cachingDisabled = "4135ea2d-6df8-44a3-9df3-4b5a84be39ad"

// behaviour is one of the distribution's cache behaviours: the paths it
// takes, as a CloudFront path pattern, and the origin they go to.
type behaviour struct {
	pattern, origin string
	re              *regexp.Regexp
}

// routes are the distribution's behaviours in order: the first whose pattern
// matches a path takes it.
type routes []behaviour

// cloudFrontRoutes reads the distribution's cache behaviours from
// template.yaml, with their patterns made into regular expressions as
// CloudFront reads them ('*' any run of characters, '/' included, '?' one).
func cloudFrontRoutes(tb testing.TB) routes {
	tb.Helper()
	list, _ := at(rawTemplate(tb), "Resources", "SiteDistribution", "Properties", "DistributionConfig", "CacheBehaviors").([]any)
	var out routes
	for _, b := range list {
		pattern, origin := fmt.Sprint(at(b, "PathPattern")), fmt.Sprint(at(b, "TargetOriginId"))
		expr := regexp.QuoteMeta(pattern)
		expr = strings.ReplaceAll(strings.ReplaceAll(expr, `\*`, ".*"), `\?`, ".")
		out = append(out, behaviour{pattern, origin, regexp.MustCompile("^" + expr + "$")})
	}
	if len(out) == 0 {
		tb.Fatal("the distribution has no cache behaviours")
	}
	return out
}

// function is the origin path goes to: a function's name for the API's
// origins, "site" for the bucket (the default behaviour).
func (rs routes) function(path string) string {
	for _, b := range rs {
		if b.re.MatchString(path) {
			return b.origin
		}
	}
	return "site"
}

// TestTemplateCloudFrontRoutes: every route of the API reaches its own
// function through the distribution (httpapi.Routes: the function that
// serves it), at the function's URL, signed by the API's origin access
// control, uncached, with the viewer's headers but the host and with the
// function that passes the viewer's token and the site's host on; nothing
// else under /api/ reaches the site bucket.
func TestTemplateCloudFrontRoutes(t *testing.T) {
	raw := rawTemplate(t)
	rs := cloudFrontRoutes(t)
	for _, r := range httpapi.Routes {
		path := strings.ReplaceAll(r.Path, "{code}", "K7QX2M")
		if got := rs.function(path); got != r.Function {
			t.Errorf("%s %s goes to %q, want the %s function", r.Method, path, got, r.Function)
		}
	}
	for _, path := range []string{"/api/anything", "/api/games/K7QX2M/protocol"} {
		if rs.function(path) == "site" {
			t.Errorf("%s goes to the site bucket", path)
		}
	}
	origins, _ := at(raw, "Resources", "SiteDistribution", "Properties", "DistributionConfig", "Origins").([]any)
	for _, fn := range httpapi.Functions {
		i := slices.IndexFunc(origins, func(o any) bool { return at(o, "Id") == fn })
		if i < 0 {
			t.Errorf("no origin %s", fn)
			continue
		}
		o := origins[i]
		if dn := fmt.Sprint(at(o, "DomainName")); !strings.Contains(dn, "GetAtt:"+logicalID(fn)+"Url.FunctionUrl") {
			t.Errorf("origin %s is %s: want %sUrl's host", fn, dn, logicalID(fn))
		}
		if oac := fmt.Sprint(at(o, "OriginAccessControlId")); oac != "GetAtt:ApiOriginAccessControl.Id" {
			t.Errorf("origin %s is signed by %s: want ApiOriginAccessControl", fn, oac)
		}
		if at(o, "CustomOriginConfig", "OriginProtocolPolicy") != "https-only" {
			t.Errorf("origin %s is not called over HTTPS only", fn)
		}
	}
	list, _ := at(raw, "Resources", "SiteDistribution", "Properties", "DistributionConfig", "CacheBehaviors").([]any)
	for _, b := range list {
		name := fmt.Sprint(at(b, "PathPattern"))
		if at(b, "CachePolicyId") != cachingDisabled || at(b, "OriginRequestPolicyId") != "Ref:ApiRequestPolicy" {
			t.Errorf("%s: cache policy %v, origin request policy %v: want caching off and ApiRequestPolicy", name, at(b, "CachePolicyId"), at(b, "OriginRequestPolicyId"))
		}
		// A player's answer is padded to one length at every seat, plain and
		// gzipped by the function (httpapi's writeSeatView); CloudFront
		// compressing a plain one at the edge would make its length tell the
		// card, so it never compresses an API answer, and the viewer's
		// Accept-Encoding reaches the function (issue 29).
		if c, _ := at(b, "Compress").(bool); c {
			t.Errorf("%s: CloudFront compresses its answers", name)
		}
		if methods := fmt.Sprint(at(b, "AllowedMethods")); !strings.Contains(methods, "POST") {
			t.Errorf("%s does not allow POST: %s", name, methods)
		}
		fa, _ := at(b, "FunctionAssociations").([]any)
		if len(fa) != 1 || at(fa[0], "EventType") != "viewer-request" || fmt.Sprint(at(fa[0], "FunctionARN")) != "GetAtt:ApiRequestFunction.FunctionMetadata.FunctionARN" {
			t.Errorf("%s: functions %v, want ApiRequestFunction on the viewer's request", name, fa)
		}
	}
	code := fmt.Sprint(at(raw, "Resources", "ApiRequestFunction", "Properties", "FunctionCode"))
	for _, want := range []string{"'x-forwarded-host'", "h.authorization", "'" + strings.ToLower(httpapi.ViewerAuthorization) + "'", "delete h.authorization"} {
		if !strings.Contains(code, want) {
			t.Errorf("ApiRequestFunction has no %s: it must pass the site's host on and move the viewer's Authorization to %s", want, httpapi.ViewerAuthorization)
		}
	}
}

// TestTemplatePollsForwardIfNoneMatch: the polled reads, a game's and an
// evening's, answer 304 to a matching If-None-Match (docs/API.md, Polling),
// which the function sees only if CloudFront passes it on: each goes to the
// read function by a behaviour that caches nothing and forwards the
// viewer's headers through ApiRequestPolicy, which passes all but Host and
// no cookie (TestTemplateApiForwardsNoCookie: with cookies CloudFront drops
// If-None-Match).
func TestTemplatePollsForwardIfNoneMatch(t *testing.T) {
	list, _ := at(rawTemplate(t), "Resources", "SiteDistribution", "Properties", "DistributionConfig", "CacheBehaviors").([]any)
	rs := cloudFrontRoutes(t)
	for _, p := range []string{httpapi.PathGame, httpapi.PathEvening} {
		path := strings.ReplaceAll(p, "{code}", "K7QX2M")
		i := slices.IndexFunc(rs, func(b behaviour) bool { return b.re.MatchString(path) })
		if i < 0 {
			t.Errorf("GET %s goes to the site bucket", path)
			continue
		}
		b := list[i]
		if at(b, "TargetOriginId") != httpapi.FuncRead || at(b, "CachePolicyId") != cachingDisabled || at(b, "OriginRequestPolicyId") != "Ref:ApiRequestPolicy" {
			t.Errorf("GET %s: behaviour %v to %v, cache policy %v, origin request policy %v: want the read function, uncached, through ApiRequestPolicy",
				path, at(b, "PathPattern"), at(b, "TargetOriginId"), at(b, "CachePolicyId"), at(b, "OriginRequestPolicyId"))
		}
	}
	cfg := at(rawTemplate(t), "Resources", "ApiRequestPolicy", "Properties", "OriginRequestPolicyConfig")
	if at(cfg, "HeadersConfig", "HeaderBehavior") != "allExcept" || strings.Contains(strings.ToLower(fmt.Sprint(at(cfg, "HeadersConfig", "Headers"))), "if-none-match") ||
		at(cfg, "CookiesConfig", "CookieBehavior") != "none" {
		t.Errorf("ApiRequestPolicy: headers %v, cookies %v: want If-None-Match passed on, and no cookie", at(cfg, "HeadersConfig"), at(cfg, "CookiesConfig"))
	}
}

// TestTemplateOriginAccess: the functions answer CloudFront alone. Their URLs
// take only signed requests (AWS_IAM), CloudFront signs each one (an origin
// access control for Lambda, always), and only this distribution may invoke
// them, through their URLs; the HTTP API that `sam local start-api` serves
// has no endpoint when deployed, and no output names another way in. So
// nobody gets around the edge's limits by calling the API's own address.
func TestTemplateOriginAccess(t *testing.T) {
	raw := rawTemplate(t)
	if got := at(rawGlobals(t), "FunctionUrlConfig", "AuthType"); got != "AWS_IAM" {
		t.Errorf("Globals.Function.FunctionUrlConfig.AuthType is %v: want AWS_IAM", got)
	}
	oac := at(raw, "Resources", "ApiOriginAccessControl", "Properties", "OriginAccessControlConfig")
	if at(oac, "OriginAccessControlOriginType") != "lambda" || at(oac, "SigningBehavior") != "always" || at(oac, "SigningProtocol") != "sigv4" {
		t.Errorf("ApiOriginAccessControl is %v: want lambda, always, sigv4", oac)
	}
	if at(raw, "Resources", "GamesApi", "Properties", "DisableExecuteApiEndpoint") != true {
		t.Error("GamesApi has an endpoint of its own: requests could get around CloudFront")
	}
	// Each function: CloudFront, from this distribution, may call its URL
	// and invoke it that way; nothing else is granted.
	grants := map[string][]string{}
	resources, _ := at(raw, "Resources").(map[string]any)
	for id, r := range resources {
		if at(r, "Type") != "AWS::Lambda::Permission" {
			continue
		}
		p := at(r, "Properties")
		fn := strings.TrimPrefix(fmt.Sprint(at(p, "FunctionName")), "Ref:")
		if at(p, "Principal") != "cloudfront.amazonaws.com" || !strings.Contains(fmt.Sprint(at(p, "SourceArn")), "distribution/${SiteDistribution}") {
			t.Errorf("%s grants %v from %v: want this distribution only", id, at(p, "Principal"), at(p, "SourceArn"))
		}
		switch a := at(p, "Action"); a {
		case "lambda:InvokeFunctionUrl":
			if at(p, "FunctionUrlAuthType") != "AWS_IAM" {
				t.Errorf("%s: URL auth type %v", id, at(p, "FunctionUrlAuthType"))
			}
		case "lambda:InvokeFunction":
			if at(p, "InvokedViaFunctionUrl") != true {
				t.Errorf("%s lets CloudFront invoke %s other than through its URL", id, fn)
			}
		default:
			t.Errorf("%s grants %v", id, a)
		}
		grants[fn] = append(grants[fn], fmt.Sprint(at(p, "Action")))
	}
	for _, fn := range httpapi.Functions {
		got := grants[logicalID(fn)]
		slices.Sort(got)
		if !slices.Equal(got, []string{"lambda:InvokeFunction", "lambda:InvokeFunctionUrl"}) {
			t.Errorf("%s: CloudFront is granted %v", logicalID(fn), got)
		}
	}
	outputs, _ := at(raw, "Outputs").(map[string]any)
	for name, o := range outputs {
		if v := fmt.Sprint(at(o, "Value")); strings.Contains(v, "execute-api") || strings.Contains(v, "FunctionUrl") {
			t.Errorf("output %s names a way to the functions around CloudFront: %s", name, v)
		}
	}
}

// TestTemplateConcurrency: with ReserveConcurrency=yes each function has a
// reserved share of the account's concurrency, which is also its ceiling: a
// flood of new games cannot take the seats', nor a flood of seats the
// actions' or the polls', and together they leave the account its
// unreserved minimum of 100 under the default quota of 1,000. It is off by
// default: Lambda keeps 100 unreserved, so reserving needs a quota of 180,
// and a new account's 10 or 50 made the first deploy fail and leave its
// stack to be deleted by hand (issue 27).
func TestTemplateConcurrency(t *testing.T) {
	raw := rawTemplate(t)
	share := map[string]int{}
	sum := 0
	for _, fn := range httpapi.Functions {
		got := fmt.Sprint(at(raw, "Resources", logicalID(fn), "Properties", "ReservedConcurrentExecutions"))
		var n int
		if _, err := fmt.Sscanf(got, "If:[Reserve %d Ref:AWS::NoValue]", &n); err != nil || n <= 0 {
			t.Errorf("%s: reserved concurrency %s: want !If [Reserve, n, !Ref AWS::NoValue]", logicalID(fn), got)
		}
		share[fn], sum = n, sum+n
	}
	if !(share[httpapi.FuncCreate] < share[httpapi.FuncJoin] && share[httpapi.FuncJoin] < share[httpapi.FuncAct] && share[httpapi.FuncAct] < share[httpapi.FuncRead]) {
		t.Errorf("shares %v: want creates < joins < actions < reads", share)
	}
	if sum > 900 {
		t.Errorf("the functions reserve %d, over what a 1,000 quota leaves", sum)
	}
	if fmt.Sprint(at(raw, "Conditions", "Reserve")) != "Equals:[Ref:ReserveConcurrency yes]" || at(raw, "Parameters", "ReserveConcurrency", "Default") != "no" {
		t.Errorf("Reserve is %v with ReserveConcurrency defaulting to %v: want it off unless asked for",
			at(raw, "Conditions", "Reserve"), at(raw, "Parameters", "ReserveConcurrency", "Default"))
	}
	// One address at the edge's limit keeps a small part of the polls' share
	// busy: its requests a second times a poll's time in the function.
	acl := edgeLimit(t)
	busy := float64(acl) / loadgen.PeakWindow.Seconds() * (1 + loadgen.DynamoCallMs) / 1000
	t.Logf("reserved concurrency %v (%d in all); one address at the edge's limit keeps %.2f of the read function's %d busy", share, sum, busy, share[httpapi.FuncRead])
	if busy > float64(share[httpapi.FuncRead])/10 {
		t.Errorf("one address can keep %.1f of %d reads busy", busy, share[httpapi.FuncRead])
	}
}

// TestTemplateMemory: the cost model bills the memory the functions have.
func TestTemplateMemory(t *testing.T) {
	if got, ok := rawGlobals(t)["MemorySize"].(float64); !ok || int(got) != loadgen.LambdaMemoryMB {
		t.Errorf("Globals.Function.MemorySize is %v; loadgen.LambdaMemoryMB bills %d", rawGlobals(t)["MemorySize"], loadgen.LambdaMemoryMB)
	}
}
