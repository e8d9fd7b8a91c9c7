package deploytest

import (
	"strings"
	"testing"
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
