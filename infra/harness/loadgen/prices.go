package loadgen

import (
	"fmt"
	"math"
	"strings"

	"citysleeps/shared/rules"
)

// Price is one AWS list price used by the cost estimate.
type Price struct {
	Name  string  // what is billed
	USD   float64 // dollars per Unit
	Unit  string  // the billing unit
	Per   float64 // how many of the counted things one Unit is (1e6 for "per million")
	Where string  // the AWS price page and the region it was read for
	What  string  // the counted thing, for bills: requests, GB-s, RRU, WRU, bytes
}

// Prices is the one table of AWS list prices (us-east-1, on-demand, no free tier)
// that every cost figure of this package comes from. Update it here, and only here.
var Prices = struct {
	CloudFrontHTTPS       Price
	CloudFrontFunction    Price
	CloudFrontDataOut     Price
	WAFRequest            Price
	WAFWebACLMonth        Price
	WAFRuleMonth          Price
	LambdaRequest         Price
	LambdaArmGBSecond     Price
	LambdaLogIngestion    Price
	DynamoDBWriteUnit     Price
	DynamoDBReadUnit      Price
	APIGatewayHTTPRequest Price
}{
	// https://aws.amazon.com/cloudfront/pricing/ — HTTPS requests, United States,
	// Mexico and Canada: $0.0100 per 10,000. Every request of the stack comes
	// through the distribution (template.yaml: the site and /api/*).
	CloudFrontHTTPS: Price{"CloudFront HTTPS requests", 0.0100, "per 10,000 requests", 1e4,
		"aws.amazon.com/cloudfront/pricing (US/Mexico/Canada)", "requests"},
	// https://aws.amazon.com/cloudfront/pricing/ — CloudFront Functions: $0.10 per
	// million invocations ($0.0000001 each), no charge for their time. Every
	// behaviour of the distribution runs one on the viewer request
	// (template.yaml: SitePagesFunction on the site, ApiRequestFunction on each
	// /api/ route; deploytest checks it), so every request is one invocation.
	// (AWS's own text, as its cost and usage reports describe the
	// Executions-CloudFrontFunctions usage type, quoted at
	// https://cur.vantage.sh/aws/amazoncloudfront/.)
	CloudFrontFunction: Price{"CloudFront Functions invocations", 0.10, "per 1M invocations", 1e6,
		"aws.amazon.com/cloudfront/pricing (CloudFront Functions)", "requests"},
	// https://aws.amazon.com/cloudfront/pricing/ — data transfer out to the internet,
	// United States, Mexico and Canada: $0.085 per GB (first 10 TB a month).
	// Origin fetches from Lambda function URLs are free.
	CloudFrontDataOut: Price{"CloudFront data out", 0.085, "per GB", 1 << 30,
		"aws.amazon.com/cloudfront/pricing (US/Mexico/Canada, first 10 TB/month)", "bytes"},
	// https://aws.amazon.com/waf/pricing/ — $0.60 per million requests the web
	// ACL inspects (up to 1,500 WCUs), on top of $5 a month for the web ACL and
	// $1 a month per rule, which do not grow with the games played. The edge's
	// web ACL (EdgeLimits) inspects every request of the distribution.
	WAFRequest: Price{"AWS WAF requests", 0.60, "per million requests", 1e6,
		"aws.amazon.com/waf/pricing (web ACL requests, up to 1,500 WCUs)", "requests"},
	// https://aws.amazon.com/waf/pricing/ — $5.00 a month for each web ACL and
	// $1.00 a month for each rule in it (prorated by the hour), whatever the
	// traffic: a fixed part of the bill (FixedMonthly), not a game's. AWS's
	// WAF cost guide (https://aws.github.io/aws-security-services-best-practices/guides/waf/waf-cost/docs/)
	// describes the same three parts: the web ACL, each rule, the requests.
	WAFWebACLMonth: Price{"AWS WAF web ACL", 5.00, "per web ACL per month", 1,
		"aws.amazon.com/waf/pricing (web ACL)", "web ACL-months"},
	WAFRuleMonth: Price{"AWS WAF rules", 1.00, "per rule per month", 1,
		"aws.amazon.com/waf/pricing (rule in a web ACL)", "rule-months"},
	// https://aws.amazon.com/lambda/pricing/ — US East (N. Virginia): $0.20 per million
	// requests, the same for x86 and Arm. A function URL costs nothing beyond it.
	LambdaRequest: Price{"Lambda requests", 0.20, "per million requests", 1e6,
		"aws.amazon.com/lambda/pricing (us-east-1)", "requests"},
	// https://aws.amazon.com/lambda/pricing/ — Arm price, US East (N. Virginia):
	// $0.0000133334 per GB-second for the first 7.5 billion GB-s a month, billed per ms.
	LambdaArmGBSecond: Price{"Lambda duration (arm64)", 0.0000133334, "per GB-second", 1,
		"aws.amazon.com/lambda/pricing (Arm, us-east-1, first 7.5B GB-s/month)", "GB-s"},
	// https://aws.amazon.com/cloudwatch/pricing/ — logs a Lambda function sends to
	// CloudWatch Logs are vended logs since 1 May 2025, priced in tiers: $0.50
	// per GB ingested (Standard class, US East) for the first 10 TB a month,
	// the rate every log line of this stack pays (the AWS Compute blog "AWS
	// Lambda introduces tiered pricing for Amazon CloudWatch logs and additional
	// logging destinations", May 2025). The template's LoggingConfig (JSON,
	// SystemLogLevel WARN) leaves only the functions' own lines: one JSON request
	// line per request, measured by the real games (Meter.LogHandler), each
	// counted with LogEventOverhead more. Storage for the 14 days the groups keep
	// is a few cents a month at most and left out.
	LambdaLogIngestion: Price{"CloudWatch Logs ingestion (Lambda)", 0.50, "per GB", 1 << 30,
		"aws.amazon.com/cloudwatch/pricing (vended Lambda logs, Standard, first 10 TB/month)", "bytes"},
	// https://aws.amazon.com/dynamodb/pricing/on-demand/ — US East (N. Virginia),
	// Standard table class: $0.625 per million write request units (after the
	// 50% on-demand price cut of 1 November 2024).
	DynamoDBWriteUnit: Price{"DynamoDB on-demand writes", 0.625, "per million WRU", 1e6,
		"aws.amazon.com/dynamodb/pricing/on-demand (Standard, us-east-1)", "WRU"},
	// https://aws.amazon.com/dynamodb/pricing/on-demand/ — US East (N. Virginia),
	// Standard table class: $0.125 per million read request units.
	DynamoDBReadUnit: Price{"DynamoDB on-demand reads", 0.125, "per million RRU", 1e6,
		"aws.amazon.com/dynamodb/pricing/on-demand (Standard, us-east-1)", "RRU"},
	// https://aws.amazon.com/api-gateway/pricing/ — HTTP APIs, US East (N. Virginia):
	// $1.00 per million requests for the first 300 million a month. Not in the
	// deployed path (CloudFront calls the function URLs); priced for the
	// comparison with a stack that puts an HTTP API between them.
	APIGatewayHTTPRequest: Price{"API Gateway HTTP API requests", 1.00, "per million requests", 1e6,
		"aws.amazon.com/api-gateway/pricing (HTTP APIs, us-east-1, first 300M/month)", "requests"},
}

// cost is the dollars that n counted things cost at p.
func (p Price) cost(n float64) float64 { return p.USD * n / p.Per }

// Assumptions of the cost model that are not prices. They are stated in the report.
const (
	// LambdaMemoryMB is the memory each function is given (template.yaml's
	// Globals; deploytest checks they agree).
	LambdaMemoryMB = 256
	// DynamoCallMs is the time one DynamoDB call adds to a Lambda invocation in
	// the same region (a GetItem or conditional PutItem of a few KB: single-digit
	// milliseconds). Locally the store answers in microseconds (bolt) or far
	// slower (dynalite), so neither is used for billing.
	DynamoCallMs = 6.0
	// RealGameMinutes and RealPlayers describe the game the estimate is for: a
	// 10-player game of about 45 minutes, with a shared screen (and, when a
	// person moderates, their console) polling too.
	RealGameMinutes = 45.0
	RealPlayers     = 10
	// TargetCostPerGame is the budget for one such game as deployed when the
	// app moderates, pay-as-you-go, every request along the path (CloudFront
	// and its functions, the web ACL, Lambda and its log lines, DynamoDB, data
	// out) counted; TargetCostPerGameHost is a person-moderated game's, whose
	// console polls as often as the shared screen. The fixed monthly parts
	// (FixedMonthly) are not a game's.
	TargetCostPerGame     = 0.025
	TargetCostPerGameHost = 0.03
	// EdgeLimitsRules is how many rules the edge's web ACL has (template.yaml's
	// EdgeLimits; deploytest checks they agree): each is billed by the month.
	EdgeLimitsRules = 3
	// LogEventOverhead is what CloudWatch Logs counts for each log event
	// beyond its message: 26 bytes, as PutLogEvents sizes a batch
	// (https://docs.aws.amazon.com/AmazonCloudWatchLogs/latest/APIReference/API_PutLogEvents.html).
	// Billing by the same measure is this model's assumption, an upper bound.
	LogEventOverhead = 26
	// LogMetricsNamespace is the namespace of the metrics a deployed
	// function's request line carries (CloudWatch's embedded metric format,
	// httpapi.Config.Metrics), as template.yaml's METRICS_NAMESPACE names it
	// for a stack of the default name, citysleeps: the real games' lines
	// carry them too, so that the bill counts their bytes.
	LogMetricsNamespace = "CitySleeps/citysleeps"
)

// CostTarget is the budget for one game moderated by mode, pay-as-you-go.
func CostTarget(mode string) float64 {
	if mode == rules.ModeratorHost {
		return TargetCostPerGameHost
	}
	return TargetCostPerGame
}

// FixedMonthly is what the stack costs a month whatever is played, pay-as-you-go:
// the edge's web ACL and its rules. (The alarms, when AlarmEmail asks for
// them, add about $0.30; the table, the functions and the bucket cost nothing
// idle.)
func FixedMonthly() float64 {
	return Prices.WAFWebACLMonth.cost(1) + Prices.WAFRuleMonth.cost(EdgeLimitsRules)
}

// Plan is one of CloudFront's flat-rate pricing plans: for USDMonth a month, a
// distribution's CloudFront requests, data out, its web ACL (which the plan
// requires), CloudFront Functions and the logs of CloudFront and WAF, up to
// Requests a month, with no charge beyond. Lambda, its logs and DynamoDB are
// billed as before (InPlan).
type Plan struct {
	Name     string  // as the template's PlanTier takes it, in lower case
	USDMonth float64 // dollars a month
	Requests float64 // requests a month the plan allows
	Where    string
}

// Plans are the flat-rate plans a club's table could use, cheapest first.
//
// Verified on AWS's pages: the plans and their subscription
// (https://docs.aws.amazon.com/AWSCloudFormation/latest/TemplateReference/aws-resource-pricingplanmanager-subscription.html:
// AWS::PricingPlanManager::Subscription, plan family CloudFront, a free plan
// active at once, a paid one pending until approved), the tiers FREE, PRO,
// BUSINESS, PREMIUM and a plan's resources, exactly one distribution and
// exactly one web ACL (https://docs.aws.amazon.com/boto3/latest/reference/services/pricing-plan-manager/client/create_subscription.html),
// Pro at $15 a month (https://docs.aws.amazon.com/PricingPlanManager/latest/UserGuide/plan-management.html).
// The allowances, 1 million requests (and 100 GB) a month on Free and 10
// million (and 50 TB) on Pro, are those of CloudFront's pricing page and its
// developer guide (https://aws.amazon.com/cloudfront/pricing/,
// https://docs.aws.amazon.com/AmazonCloudFront/latest/DeveloperGuide/flat-rate-pricing-plan.html),
// which the search tools reached only as quoted by others
// (aws-samples/serverless-full-stack-webapp-starter-kit#187, the AWS
// Community Builders' dev.to article): check them there before relying on them.
var Plans = []Plan{
	{"free", 0, 1e6, "aws.amazon.com/cloudfront/pricing (flat-rate Free: 1M requests, 100 GB a month)"},
	{"pro", 15, 10e6, "aws.amazon.com/cloudfront/pricing (flat-rate Pro: 10M requests, 50 TB a month)"},
}

// Fixed is the month's bill apart from the games: pay-as-you-go, the web ACL
// and its rules; on a flat-rate plan, the plan.
type Fixed struct {
	WAFUSDMonth float64 `json:"wafUsdMonth"`
	// Plan is the cheapest flat-rate plan, PlanUSDMonth its price, and
	// GamesPerMonthInPlan how many games of RequestsPerGame requests its
	// allowance holds.
	Plan                string  `json:"plan"`
	PlanUSDMonth        float64 `json:"planUsdMonth"`
	GamesPerMonthInPlan int     `json:"gamesPerMonthInPlan"`
	RequestsPerGame     float64 `json:"requestsPerGame"`
}

// FixedCosts is the fixed part of the bill, with the cheapest plan and how
// many games of requestsPerGame requests its allowance holds a month.
func FixedCosts(requestsPerGame float64) Fixed {
	p := Plans[0]
	return Fixed{WAFUSDMonth: FixedMonthly(), Plan: p.Name, PlanUSDMonth: p.USDMonth,
		GamesPerMonthInPlan: GamesInPlan(p, requestsPerGame), RequestsPerGame: requestsPerGame}
}

// GamesInPlan is how many games of requestsPerGame requests p's allowance
// holds a month.
func GamesInPlan(p Plan, requestsPerGame float64) int {
	if requestsPerGame <= 0 {
		return 0
	}
	return int(math.Floor(p.Requests / requestsPerGame))
}

// Line renders f as the report's second line for scripts.
func (f Fixed) Line() string {
	return fmt.Sprintf("fixed: waf_usd_month=%g plan=%s plan_usd_month=%g games_per_month_in_plan=%d",
		f.WAFUSDMonth, f.Plan, f.PlanUSDMonth, f.GamesPerMonthInPlan)
}

// Projection is the estimated bill of one real 10-player 45-minute game, as
// template.yaml deploys it: every request through CloudFront, its function and
// the edge's web ACL to a Lambda function URL, the function's DynamoDB calls
// and its log line, the answers out to the internet.
type Projection struct {
	// Request counts of one real game.
	Polls    float64 `json:"polls"`    // GET /api/games/{code}
	Polls304 float64 `json:"polls304"` // of which answered 304
	Actions  float64 `json:"actions"`  // POST .../actions, refused ones included
	Joins    float64 `json:"joins"`    // POST .../players, and the create
	// Evening counts an evening's own requests (/api/evenings…), when the
	// requests billed are an evening's (Bill).
	Evening    float64 `json:"evening,omitempty"`
	Requests   float64 `json:"requests"` // all of the above
	LambdaGBs  float64 `json:"lambdaGbS"`
	ReadUnits  float64 `json:"readUnits"`  // DynamoDB RRU
	WriteUnits float64 `json:"writeUnits"` // DynamoDB WRU
	BytesOut   float64 `json:"bytesOut"`   // response bytes (bodies and headers)
	LogBytes   float64 `json:"logBytes"`   // log lines ingested, LogEventOverhead each included
	Lines      []Line  `json:"lines"`      // the bill, line by line
	// Total is the game's bill pay-as-you-go; the month's fixed part
	// (FixedMonthly) is apart.
	Total float64 `json:"totalUsd"`
	// InPlan is the game's bill when the distribution is on a flat-rate plan,
	// which covers CloudFront, its functions and the web ACL: Lambda, its log
	// lines and DynamoDB.
	InPlan float64 `json:"inPlanUsd"`
	// WithAPIGateway is the bill with an HTTP API between CloudFront and the
	// functions, as the stack had before function URLs: the same requests, each
	// billed by API Gateway too.
	WithAPIGateway float64 `json:"withApiGatewayUsd"`
}

// Line is one line of a bill.
type Line struct {
	Item     string  `json:"item"`
	Quantity float64 `json:"quantity"`
	Unit     string  `json:"unit"` // what Quantity counts
	USD      float64 `json:"usd"`
}

// Usage is what some played games used, summed: their requests by kind, as a
// Meter counts them, and how long the games lasted.
type Usage struct {
	Games   int
	Minutes float64
	Kinds   map[string]KindCost
}

// Add sums the usage of one more game.
func (u *Usage) Add(minutes float64, kinds map[string]KindCost) {
	if u.Kinds == nil {
		u.Kinds = map[string]KindCost{}
	}
	u.Games++
	u.Minutes += minutes
	for k, c := range kinds {
		s := u.Kinds[k]
		s.add(c)
		u.Kinds[k] = s
	}
}

// Project estimates one real game of RealGameMinutes from u: polls and actions
// at u's rate per minute of play, one create and the joins as in u's games.
// Each request is billed for its kind's mean handler time plus DynamoCallMs
// per store call.
func Project(u Usage) Projection { return project(u, 0, 0) }

// ProjectEvery is Project with each of clients polling every everyMs instead
// of at the server's hints (the polls' mix of 304s and full views as in u).
func ProjectEvery(u Usage, everyMs float64, clients int) Projection {
	return project(u, everyMs, clients)
}

func project(u Usage, everyMs float64, clients int) Projection {
	if u.Games == 0 || u.Minutes <= 0 {
		return Projection{}
	}
	perMinute := RealGameMinutes / u.Minutes // a kind's count in u, times this, is its count in one real game
	perGame := 1 / float64(u.Games)
	pollScale := perMinute
	if everyMs > 0 {
		polls := float64(u.Kinds[KindPoll304].Requests + u.Kinds[KindPoll200].Requests)
		pollScale = float64(clients) * RealGameMinutes * 60_000 / everyMs / max(polls, 1)
	}
	return bill(u.Kinds, func(kind string) float64 {
		switch kind {
		case KindPoll304, KindPoll200:
			return pollScale
		case KindCreate, KindJoin:
			return perGame
		}
		return perMinute
	})
}

// Bill is the bill as deployed of exactly the requests in kinds, as a Meter
// counted them, none scaled: what those requests would have cost had they
// reached the stack instead of this machine. An evening's cost is billed so
// (EveningReport), as the load run played it.
func Bill(kinds map[string]KindCost) Projection {
	return bill(kinds, func(string) float64 { return 1 })
}

// bill prices the requests of kinds, each kind's counts multiplied by
// scaleOf(kind). Each request is billed for its kind's mean handler time plus
// DynamoCallMs per store call.
func bill(kinds map[string]KindCost, scaleOf func(kind string) float64) Projection {
	var p Projection
	for kind, c := range kinds {
		if c.Requests == 0 {
			continue
		}
		n := float64(c.Requests)
		scale := scaleOf(kind)
		switch kind {
		case KindPoll304, KindPoll200:
			p.Polls += n * scale
			if kind == KindPoll304 {
				p.Polls304 += n * scale
			}
		case KindCreate, KindJoin:
			p.Joins += n * scale
		case KindEveningRead, KindEveningWrite:
			p.Evening += n * scale
		default:
			p.Actions += n * scale
		}
		billedMs := math.Ceil((float64(c.HandlerNs)/1e6 + float64(c.StoreCalls)*DynamoCallMs) / n) // billed per started ms
		p.LambdaGBs += n * scale * billedMs / 1000 * LambdaMemoryMB / 1024
		p.ReadUnits += c.ReadUnits * scale
		p.WriteUnits += c.WriteUnits * scale
		p.BytesOut += float64(c.Bytes) * scale
		p.LogBytes += float64(c.LogBytes+c.LogEvents*LogEventOverhead) * scale
	}
	p.Requests = p.Polls + p.Actions + p.Joins + p.Evening
	pr := Prices
	for _, l := range []struct {
		price Price
		qty   float64
		edge  bool // covered by a flat-rate plan
	}{
		{pr.CloudFrontHTTPS, p.Requests, true}, {pr.CloudFrontFunction, p.Requests, true}, {pr.WAFRequest, p.Requests, true},
		{pr.LambdaRequest, p.Requests, false}, {pr.LambdaArmGBSecond, p.LambdaGBs, false}, {pr.LambdaLogIngestion, p.LogBytes, false},
		{pr.DynamoDBReadUnit, p.ReadUnits, false}, {pr.DynamoDBWriteUnit, p.WriteUnits, false},
		{pr.CloudFrontDataOut, p.BytesOut, true},
	} {
		line := Line{Item: l.price.Name, Quantity: l.qty, Unit: l.price.What, USD: l.price.cost(l.qty)}
		p.Lines = append(p.Lines, line)
		p.Total += line.USD
		if !l.edge {
			p.InPlan += line.USD
		}
	}
	p.WithAPIGateway = p.Total + pr.APIGatewayHTTPRequest.cost(p.Requests)
	return p
}

// PriceTable renders Prices for a report.
func PriceTable() string {
	var b strings.Builder
	pr := Prices
	for _, p := range []Price{pr.CloudFrontHTTPS, pr.CloudFrontFunction, pr.CloudFrontDataOut, pr.WAFRequest, pr.WAFWebACLMonth,
		pr.WAFRuleMonth, pr.LambdaRequest, pr.LambdaArmGBSecond, pr.LambdaLogIngestion, pr.DynamoDBReadUnit, pr.DynamoDBWriteUnit,
		pr.APIGatewayHTTPRequest} {
		fmt.Fprintf(&b, "  %-36s $%-12g %-22s %s\n", p.Name, p.USD, p.Unit, p.Where)
	}
	for _, p := range Plans {
		fmt.Fprintf(&b, "  %-36s $%-12g %-22s %s\n", "CloudFront flat-rate plan "+p.Name, p.USDMonth,
			fmt.Sprintf("a month, %.0fM requests", p.Requests/1e6), p.Where)
	}
	return b.String()
}
