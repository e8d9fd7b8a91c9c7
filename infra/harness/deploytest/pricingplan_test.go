package deploytest

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"citysleeps/infra/harness/loadgen"
)

// pricingPlanTemplate is the stack that puts the distribution on a CloudFront
// flat-rate plan (make plan).
const pricingPlanTemplate = "infra/pricing-plan.yaml"

// TestTemplatePricingPlan (issue 27): the bill prices what the stack does, and
// a club can put the distribution on a flat-rate plan.
//
// The cost model (loadgen.Project) bills one CloudFront Function invocation
// for every request: every behaviour of the distribution runs one on the
// viewer request. It bills the web ACL's rules by the month: as many as
// EdgeLimits has. It bills the request lines' bytes as the functions write
// them, their metrics included.
//
// The plan's subscription is in a stack of its own, deployed in us-east-1,
// never in template.yaml: PricingPlanManager is in us-east-1 only, and
// CloudFormation refuses a template naming a resource type its region lacks
// even when a condition leaves it out, so the site deploys anywhere as
// before. The subscription is AWS's documented one: plan family CloudFront,
// a tier the cost model prices, exactly this distribution and its web ACL.
// And the distribution is one a plan takes as far as the template shows: a
// web ACL whenever the stack has one, no legacy cache settings
// (ForwardedValues), AWS's managed cache policies only.
func TestTemplatePricingPlan(t *testing.T) {
	raw := rawTemplate(t)
	resources, _ := at(raw, "Resources").(map[string]any)
	for id, r := range resources {
		if typ := fmt.Sprint(at(r, "Type")); strings.HasPrefix(typ, "AWS::PricingPlanManager::") {
			t.Errorf("template.yaml has %s (%s): a region without PricingPlanManager would refuse the whole template", id, typ)
		}
		if at(r, "Type") == "AWS::CloudFront::CachePolicy" {
			t.Errorf("%s: a cache policy of the stack's own; the Free and Pro plans take AWS's managed ones only", id)
		}
	}

	// Every behaviour runs a function on the viewer request: one invocation
	// a request, as loadgen bills.
	dc := at(raw, "Resources", "SiteDistribution", "Properties", "DistributionConfig")
	behaviours := []any{at(dc, "DefaultCacheBehavior")}
	list, _ := at(dc, "CacheBehaviors").([]any)
	behaviours = append(behaviours, list...)
	for _, b := range behaviours {
		name := fmt.Sprint(at(b, "PathPattern"))
		if at(b, "PathPattern") == nil {
			name = "the default behaviour"
		}
		fns, _ := at(b, "FunctionAssociations").([]any)
		viewer := 0
		for _, f := range fns {
			if at(f, "EventType") == "viewer-request" {
				viewer++
			}
		}
		if viewer != 1 || len(fns) != 1 {
			t.Errorf("%s runs %d functions, %d on the viewer request: loadgen bills one invocation a request", name, len(fns), viewer)
		}
		if at(b, "ForwardedValues") != nil {
			t.Errorf("%s has legacy cache settings (ForwardedValues), which no flat-rate plan takes", name)
		}
	}
	t.Logf("the distribution has %d cache behaviours, the default included", len(behaviours))
	rules, _ := at(raw, "Resources", "EdgeLimits", "Properties", "Rules").([]any)
	if len(rules) != loadgen.EdgeLimitsRules {
		t.Errorf("EdgeLimits has %d rules, loadgen bills %d a month", len(rules), loadgen.EdgeLimitsRules)
	}
	// The real games' request lines carry the metrics as a stack of the
	// default name writes them, so that their bytes are billed.
	ns := fmt.Sprint(at(raw, "Globals", "Function", "Environment", "Variables", "METRICS_NAMESPACE"))
	if want := "Sub:" + strings.Replace(loadgen.LogMetricsNamespace, "citysleeps", "${AWS::StackName}", 1); ns != want {
		t.Errorf("METRICS_NAMESPACE is %s; loadgen's lines carry %s, want %s", ns, loadgen.LogMetricsNamespace, want)
	}

	plan := rawTemplateFile(t, pricingPlanTemplate)
	var subs []string
	planResources, _ := at(plan, "Resources").(map[string]any)
	for id, r := range planResources {
		if at(r, "Type") == "AWS::PricingPlanManager::Subscription" {
			subs = append(subs, id)
		}
	}
	if len(subs) != 1 || len(planResources) != 1 {
		t.Fatalf("%s: subscriptions %v among %d resources, want one and nothing else", pricingPlanTemplate, subs, len(planResources))
	}
	props := at(planResources[subs[0]], "Properties")
	if at(props, "PlanFamily") != "CloudFront" || at(props, "PlanTier") != "Ref:PlanTier" {
		t.Errorf("the subscription's family %v and tier %v: want CloudFront and the PlanTier parameter", at(props, "PlanFamily"), at(props, "PlanTier"))
	}
	arns := fmt.Sprint(at(props, "ResourceArns"))
	if want := "[Sub:arn:${AWS::Partition}:cloudfront::${AWS::AccountId}:distribution/${DistributionId} Ref:WebAclArn]"; arns != want {
		t.Errorf("the subscription's resources %s: want the distribution and its web ACL, %s", arns, want)
	}
	if at(props, "UsageLevel") != nil {
		t.Errorf("a usage level %v: the cost model prices the tiers' base allowances", at(props, "UsageLevel"))
	}

	// The tiers offered are the plans loadgen prices, Free by default.
	tier := at(plan, "Parameters", "PlanTier")
	if at(tier, "Default") != "FREE" {
		t.Errorf("PlanTier defaults to %v, want FREE", at(tier, "Default"))
	}
	var offered, priced []string
	for _, v := range at(tier, "AllowedValues").([]any) {
		offered = append(offered, fmt.Sprint(v))
	}
	for _, p := range loadgen.Plans {
		priced = append(priced, strings.ToUpper(p.Name))
	}
	if slices.Sort(offered); !slices.Equal(offered, priced) {
		t.Errorf("PlanTier offers %v, loadgen prices %v", offered, priced)
	}

	// Only a CloudFront-scoped web ACL, the kind made in us-east-1, fits.
	wantAllowed(t, "WebAclArn", at(plan, "Parameters", "WebAclArn", "AllowedPattern"), map[string]bool{
		"arn:aws:wafv2:us-east-1:123456789012:global/webacl/citysleeps-edge-limits/0f0e0d0c-0b0a-0908-0706-050403020100":   true,
		"arn:aws:wafv2:eu-west-1:123456789012:regional/webacl/citysleeps-edge-limits/0f0e0d0c-0b0a-0908-0706-050403020100": false,
		"": false,
	})

	// make plan deploys it in us-east-1, and make delete takes it down first.
	makefile, err := os.ReadFile(filepath.Join(repoRoot(t), "Makefile"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"--region us-east-1 cloudformation", "--template-file " + pricingPlanTemplate, "$(MAKE) plan PLAN=none"} {
		if !strings.Contains(string(makefile), want) {
			t.Errorf("the Makefile has no %q", want)
		}
	}
}
