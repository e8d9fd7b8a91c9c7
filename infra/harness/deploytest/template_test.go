package deploytest

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/awslabs/goformation/v7"
	"github.com/awslabs/goformation/v7/cloudformation"
	"github.com/awslabs/goformation/v7/cloudformation/serverless"
	"github.com/awslabs/goformation/v7/intrinsics"

	"citysleeps/infra/harness/localdynamo"
	"citysleeps/infra/server/site"
	"citysleeps/shared/httpapi"
	"citysleeps/shared/store"
)

// repoRoot is the repository's root directory.
func repoRoot(tb testing.TB) string {
	tb.Helper()
	root, err := localdynamo.RepoRoot()
	if err != nil {
		tb.Fatal(err)
	}
	return root
}

// loadTemplate parses template.yaml, keeping references readable: !Ref X becomes
// "Ref:X" and !GetAtt X.Y becomes "GetAtt:X.Y" (goformation would resolve them
// to nothing). Properties newer than goformation's schema (unknownToGoformation)
// are left out of what it parses; the tests read them in rawTemplate.
func loadTemplate(tb testing.TB) *cloudformation.Template {
	tb.Helper()
	opts := &intrinsics.ProcessorOptions{IntrinsicHandlerOverrides: map[string]intrinsics.IntrinsicHandler{
		// A Ref is kept as "Ref:X", but a Ref of a Number parameter is
		// its default, as goformation's number-typed fields take it.
		"Ref": func(_ string, in, template any) any {
			if name, ok := in.(string); ok && at(template, "Parameters", name, "Type") == "Number" {
				return at(template, "Parameters", name, "Default")
			}
			return fmt.Sprint("Ref:", in)
		},
		"Fn::GetAtt": func(_ string, in, _ any) any {
			if parts, ok := in.([]any); ok {
				var s []string
				for _, p := range parts {
					s = append(s, fmt.Sprint(p))
				}
				return "GetAtt:" + strings.Join(s, ".")
			}
			return fmt.Sprint("GetAtt:", in)
		},
		"Fn::Sub": func(_ string, in, _ any) any { return fmt.Sprint("Sub:", in) },
	}}
	data, err := os.ReadFile(filepath.Join(repoRoot(tb), "template.yaml"))
	if err != nil {
		tb.Fatal(err)
	}
	js, err := intrinsics.ProcessYAML(data, opts)
	if err != nil {
		tb.Fatalf("parse template.yaml: %v", err)
	}
	var doc map[string]any
	if err := json.Unmarshal(js, &doc); err != nil {
		tb.Fatal(err)
	}
	resources, _ := doc["Resources"].(map[string]any)
	for _, r := range resources {
		r, _ := r.(map[string]any)
		props, _ := r["Properties"].(map[string]any)
		for _, p := range unknownToGoformation[fmt.Sprint(r["Type"])] {
			delete(props, p)
		}
	}
	if js, err = json.Marshal(doc); err != nil {
		tb.Fatal(err)
	}
	t, err := goformation.ParseJSON(js)
	if err != nil {
		tb.Fatalf("parse template.yaml: %v", err)
	}
	return t
}

// unknownToGoformation lists, by resource type, the properties the template
// uses that goformation's schema does not have yet.
var unknownToGoformation = map[string][]string{
	// Since October 2025 a function URL needs lambda:InvokeFunction granted
	// too; this property keeps that grant to invocations through the URL.
	"AWS::Lambda::Permission": {"InvokedViaFunctionUrl"},
}

// logicalID is the template's name of a function: "read" is ReadFunction.
func logicalID(function string) string {
	return strings.ToUpper(function[:1]) + function[1:] + "Function"
}

func TestTemplateGlobals(t *testing.T) {
	tmpl := loadTemplate(t)
	raw := rawGlobals(t)
	for k, want := range map[string]any{"Runtime": "provided.al2023", "Handler": "bootstrap", "Architectures": []any{"arm64"}} {
		if got := raw[k]; fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("Globals.Function.%s = %v, want %v", k, got, want)
		}
	}
	vars, _ := raw["Environment"].(map[string]any)["Variables"].(map[string]any)
	if vars[store.EnvTableName] != "Ref:GamesTable" {
		t.Errorf("Globals.Function.Environment.Variables.%s = %v, want Ref:GamesTable", store.EnvTableName, vars[store.EnvTableName])
	}
	if tmpl.Transform == nil || tmpl.Transform.String == nil || *tmpl.Transform.String != "AWS::Serverless-2016-10-31" {
		t.Errorf("Transform %v: not a SAM template", tmpl.Transform)
	}
}

// rawGlobals is Globals.Function as plain data.
func rawGlobals(tb testing.TB) map[string]any {
	tb.Helper()
	tmpl := loadTemplate(tb)
	data, err := tmpl.JSON()
	if err != nil {
		tb.Fatal(err)
	}
	var doc struct {
		Globals struct {
			Function map[string]any
		}
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		tb.Fatal(err)
	}
	if doc.Globals.Function == nil {
		tb.Fatal("template.yaml has no Globals.Function")
	}
	return doc.Globals.Function
}

func TestTemplateFunctions(t *testing.T) {
	tmpl := loadTemplate(t)
	root := repoRoot(t)
	makefile, err := os.ReadFile(filepath.Join(root, "Makefile"))
	if err != nil {
		t.Fatal(err)
	}
	fns := tmpl.GetAllServerlessFunctionResources()
	var ids []string
	for id := range fns {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	var want []string
	for _, f := range httpapi.Functions {
		want = append(want, logicalID(f))
	}
	sort.Strings(want)
	if !slices.Equal(ids, want) {
		t.Fatalf("functions %v, want %v (one per httpapi.Functions)", ids, want)
	}
	if !strings.Contains(string(makefile), "-o $(ARTIFACTS_DIR)/bootstrap") {
		t.Error("the Makefile's Lambda build does not write $(ARTIFACTS_DIR)/bootstrap")
	}
	for _, name := range httpapi.Functions {
		id := logicalID(name)
		fn := fns[id]
		t.Run(id, func(t *testing.T) {
			if bm := fn.AWSCloudFormationMetadata["BuildMethod"]; bm != "makefile" {
				t.Errorf("Metadata.BuildMethod %v, want makefile", bm)
			}
			if fn.CodeUri == nil || fn.CodeUri.String == nil {
				t.Fatal("no CodeUri")
			}
			dir := filepath.Join(root, *fn.CodeUri.String)
			if _, err := os.Stat(filepath.Join(dir, "Makefile")); err != nil {
				t.Errorf("CodeUri %s has no Makefile: %v", *fn.CodeUri.String, err)
			}
			if !regexp.MustCompile(`(?m)^build-` + id + `:.*\$\(call lambda,` + name + `\)`).Match(makefile) {
				t.Errorf("the Makefile has no build-%s target building functions/%s", id, name)
			}
			src, err := os.ReadFile(filepath.Join(root, "functions", name, "main.go"))
			if err != nil {
				t.Fatalf("functions/%s: %v", name, err)
			}
			if !strings.Contains(string(src), "package main") || !strings.Contains(string(src), "lambdamain.Run(httpapi.Func"+strings.ToUpper(name[:1])+name[1:]+")") {
				t.Errorf("functions/%s/main.go does not run its own routes", name)
			}
			if fn.Handler != nil && *fn.Handler != "bootstrap" || fn.Runtime != nil && *fn.Runtime != "provided.al2023" {
				t.Errorf("handler %v, runtime %v: leave them to Globals", fn.Handler, fn.Runtime)
			}
		})
	}
}

func TestTemplateRoutes(t *testing.T) {
	tmpl := loadTemplate(t)
	var got, want []string
	for id, fn := range tmpl.GetAllServerlessFunctionResources() {
		for name, ev := range fn.Events {
			if ev.Type != "HttpApi" || ev.Properties == nil || ev.Properties.HttpApiEvent == nil {
				t.Errorf("%s event %s is a %s, not an HttpApi event", id, name, ev.Type)
				continue
			}
			h := ev.Properties.HttpApiEvent
			if h.ApiId == nil || *h.ApiId != "Ref:GamesApi" {
				t.Errorf("%s event %s is not on GamesApi", id, name)
			}
			if h.Method == nil || h.Path == nil {
				t.Errorf("%s event %s has no method or path", id, name)
				continue
			}
			got = append(got, fmt.Sprintf("%s %s %s", strings.ToUpper(*h.Method), *h.Path, id))
		}
	}
	for _, r := range httpapi.Routes {
		want = append(want, fmt.Sprintf("%s %s %s", r.Method, r.Path, logicalID(r.Function)))
	}
	sort.Strings(got)
	sort.Strings(want)
	if !slices.Equal(got, want) {
		t.Errorf("template routes:\n  %s\nhttpapi.Routes:\n  %s", strings.Join(got, "\n  "), strings.Join(want, "\n  "))
	}
}

// tableActions are the DynamoDB actions the store's requests need: the client
// methods shared/store/dynamo.go calls, as IAM names them.
func tableActions(tb testing.TB) []string {
	tb.Helper()
	src, err := os.ReadFile(filepath.Join(repoRoot(tb), "shared", "store", "dynamo.go"))
	if err != nil {
		tb.Fatal(err)
	}
	var out []string
	for _, m := range regexp.MustCompile(`\.client\.(\w+)\(`).FindAllStringSubmatch(string(src), -1) {
		if a := "dynamodb:" + m[1]; !slices.Contains(out, a) {
			out = append(out, a)
		}
	}
	sort.Strings(out)
	if len(out) == 0 {
		tb.Fatal("found no DynamoDB calls in shared/store/dynamo.go")
	}
	return out
}

func TestTemplatePermissions(t *testing.T) {
	tmpl := loadTemplate(t)
	need := tableActions(t)
	t.Logf("the store calls %v", need)
	for id, fn := range tmpl.GetAllServerlessFunctionResources() {
		t.Run(id, func(t *testing.T) {
			if fn.Role != nil {
				t.Fatalf("Role %s: the template must give each function its own policy", *fn.Role)
			}
			p := fn.Policies
			if p == nil {
				t.Fatal("no Policies")
			}
			// goformation fills every form a list could be; only inline
			// documents may say anything.
			if p.String != nil && *p.String != "" {
				t.Errorf("managed policy %s grants more than the table calls", *p.String)
			}
			if p.StringArray != nil {
				for _, s := range *p.StringArray {
					if s != "" {
						t.Errorf("managed policy %s grants more than the table calls", s)
					}
				}
			}
			if p.SAMPolicyTemplateArray != nil {
				for _, pt := range *p.SAMPolicyTemplateArray {
					if data, _ := json.Marshal(pt); string(data) != "{}" {
						t.Errorf("policy template %s grants more than the table calls", data)
					}
				}
			}
			var docs []serverless.Function_IAMPolicyDocument
			if p.IAMPolicyDocument != nil {
				docs = append(docs, *p.IAMPolicyDocument)
			}
			if p.IAMPolicyDocumentArray != nil {
				docs = append(docs, *p.IAMPolicyDocumentArray...)
			}
			var actions []string
			for _, d := range docs {
				for _, st := range d.Statement {
					m, _ := st.(map[string]any)
					if m["Effect"] != "Allow" || m["Resource"] != "GetAtt:GamesTable.Arn" {
						t.Errorf("statement %v: want Allow on GetAtt:GamesTable.Arn only", m)
					}
					switch a := m["Action"].(type) {
					case string:
						actions = append(actions, a)
					case []any:
						for _, x := range a {
							actions = append(actions, fmt.Sprint(x))
						}
					}
				}
			}
			sort.Strings(actions)
			// The read function only loads games (polls never write); the
			// others load and save: exactly the store's calls, nothing more.
			want := need
			if id == "ReadFunction" {
				want = []string{"dynamodb:GetItem"}
			}
			if !slices.Equal(actions, want) {
				t.Errorf("actions %v, want exactly %v", actions, want)
			}
			for _, a := range actions {
				if strings.Contains(a, "*") || strings.Contains(a, "Delete") || strings.Contains(a, "Scan") ||
					strings.Contains(a, "Query") || strings.Contains(a, "Batch") || a == "dynamodb:UpdateItem" {
					t.Errorf("action %s is more than a game needs", a)
				}
			}
		})
	}
}

func TestTemplateTable(t *testing.T) {
	tmpl := loadTemplate(t)
	tbl, err := tmpl.GetDynamoDBTableWithName(localdynamo.GamesTableID)
	if err != nil {
		t.Fatal(err)
	}
	if tbl.BillingMode == nil || *tbl.BillingMode != "PAY_PER_REQUEST" {
		t.Errorf("BillingMode %v, want on-demand", tbl.BillingMode)
	}
	ttl := tbl.TimeToLiveSpecification
	if ttl == nil || !ttl.Enabled || ttl.AttributeName == nil || *ttl.AttributeName != store.TTLAttribute {
		t.Errorf("TTL %+v: want enabled on %s", ttl, store.TTLAttribute)
	}
}

func TestTemplateSite(t *testing.T) {
	tmpl := loadTemplate(t)
	dist, err := tmpl.GetCloudFrontDistributionWithName("SiteDistribution")
	if err != nil {
		t.Fatal(err)
	}
	cfg := dist.DistributionConfig
	origins := map[string]string{}
	for _, o := range cfg.Origins {
		kind := "custom"
		if o.S3OriginConfig != nil {
			kind = "s3"
			if o.OriginAccessControlId == nil || *o.OriginAccessControlId != "GetAtt:SiteOriginAccessControl.Id" {
				t.Errorf("origin %s: the bucket is not read through the Origin Access Control", o.Id)
			}
		}
		origins[o.Id] = kind
	}
	if cfg.DefaultCacheBehavior == nil || origins[cfg.DefaultCacheBehavior.TargetOriginId] != "s3" {
		t.Errorf("the default behaviour does not go to the site bucket")
	}
	for _, b := range cfg.CacheBehaviors {
		if origins[b.TargetOriginId] != "custom" || !strings.HasPrefix(b.PathPattern, "/api/") {
			t.Errorf("behaviour %s goes to %s (%s): the site's own paths belong to the default", b.PathPattern, b.TargetOriginId, origins[b.TargetOriginId])
		}
	}
	pol, err := tmpl.GetCloudFrontResponseHeadersPolicyWithName("SiteHeadersPolicy")
	if err != nil {
		t.Fatal(err)
	}
	sh := pol.ResponseHeadersPolicyConfig.SecurityHeadersConfig
	if sh == nil || sh.ContentSecurityPolicy == nil || sh.ContentSecurityPolicy.ContentSecurityPolicy != site.CSP {
		t.Errorf("CloudFront's Content-Security-Policy differs from site.CSP")
	}
	for _, out := range []string{"SiteUrl", "SiteBucketName", "DistributionId"} {
		if _, ok := tmpl.Outputs[out]; !ok {
			t.Errorf("no output %s", out)
		}
	}
}
