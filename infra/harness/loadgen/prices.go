package loadgen

import (
	"fmt"
	"math"
	"strings"
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
	CloudFrontDataOut     Price
	WAFRequest            Price
	LambdaRequest         Price
	LambdaArmGBSecond     Price
	DynamoDBWriteUnit     Price
	DynamoDBReadUnit      Price
	APIGatewayHTTPRequest Price
}{
	// https://aws.amazon.com/cloudfront/pricing/ — HTTPS requests, United States,
	// Mexico and Canada: $0.0100 per 10,000. Every request of the stack comes
	// through the distribution (template.yaml: the site and /api/*).
	CloudFrontHTTPS: Price{"CloudFront HTTPS requests", 0.0100, "per 10,000 requests", 1e4,
		"aws.amazon.com/cloudfront/pricing (US/Mexico/Canada)", "requests"},
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
	// https://aws.amazon.com/lambda/pricing/ — US East (N. Virginia): $0.20 per million
	// requests, the same for x86 and Arm. A function URL costs nothing beyond it.
	LambdaRequest: Price{"Lambda requests", 0.20, "per million requests", 1e6,
		"aws.amazon.com/lambda/pricing (us-east-1)", "requests"},
	// https://aws.amazon.com/lambda/pricing/ — Arm price, US East (N. Virginia):
	// $0.0000133334 per GB-second for the first 7.5 billion GB-s a month, billed per ms.
	LambdaArmGBSecond: Price{"Lambda duration (arm64)", 0.0000133334, "per GB-second", 1,
		"aws.amazon.com/lambda/pricing (Arm, us-east-1, first 7.5B GB-s/month)", "GB-s"},
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
	// TargetCostPerGame is the budget for one such game as deployed, every
	// request along the path (CloudFront, the web ACL, Lambda, DynamoDB, data
	// out) counted.
	TargetCostPerGame = 0.025
)

// Projection is the estimated bill of one real 10-player 45-minute game, as
// template.yaml deploys it: every request through CloudFront and the edge's
// web ACL to a Lambda function URL, the function's DynamoDB calls, the answers
// out to the internet.
type Projection struct {
	// Request counts of one real game.
	Polls      float64 `json:"polls"`    // GET /api/games/{code}
	Polls304   float64 `json:"polls304"` // of which answered 304
	Actions    float64 `json:"actions"`  // POST .../actions, refused ones included
	Joins      float64 `json:"joins"`    // POST .../players, and the create
	Requests   float64 `json:"requests"` // all of the above
	LambdaGBs  float64 `json:"lambdaGbS"`
	ReadUnits  float64 `json:"readUnits"`  // DynamoDB RRU
	WriteUnits float64 `json:"writeUnits"` // DynamoDB WRU
	BytesOut   float64 `json:"bytesOut"`   // response bytes (bodies and headers)
	Lines      []Line  `json:"lines"`      // the bill, line by line
	Total      float64 `json:"totalUsd"`
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
	var p Projection
	if u.Games == 0 || u.Minutes <= 0 {
		return p
	}
	perMinute := RealGameMinutes / u.Minutes // a kind's count in u, times this, is its count in one real game
	perGame := 1 / float64(u.Games)
	pollScale := perMinute
	if everyMs > 0 {
		polls := float64(u.Kinds[KindPoll304].Requests + u.Kinds[KindPoll200].Requests)
		pollScale = float64(clients) * RealGameMinutes * 60_000 / everyMs / max(polls, 1)
	}
	for kind, c := range u.Kinds {
		if c.Requests == 0 {
			continue
		}
		n := float64(c.Requests)
		scale := perMinute
		switch kind {
		case KindPoll304, KindPoll200:
			scale = pollScale
			p.Polls += n * scale
			if kind == KindPoll304 {
				p.Polls304 += n * scale
			}
		case KindCreate, KindJoin:
			scale = perGame
			p.Joins += n * scale
		default:
			p.Actions += n * scale
		}
		billedMs := math.Ceil((float64(c.HandlerNs)/1e6 + float64(c.StoreCalls)*DynamoCallMs) / n) // billed per started ms
		p.LambdaGBs += n * scale * billedMs / 1000 * LambdaMemoryMB / 1024
		p.ReadUnits += c.ReadUnits * scale
		p.WriteUnits += c.WriteUnits * scale
		p.BytesOut += float64(c.Bytes) * scale
	}
	p.Requests = p.Polls + p.Actions + p.Joins
	pr := Prices
	for _, l := range []struct {
		price Price
		qty   float64
	}{
		{pr.CloudFrontHTTPS, p.Requests}, {pr.WAFRequest, p.Requests}, {pr.LambdaRequest, p.Requests},
		{pr.LambdaArmGBSecond, p.LambdaGBs}, {pr.DynamoDBReadUnit, p.ReadUnits}, {pr.DynamoDBWriteUnit, p.WriteUnits},
		{pr.CloudFrontDataOut, p.BytesOut},
	} {
		line := Line{Item: l.price.Name, Quantity: l.qty, Unit: l.price.What, USD: l.price.cost(l.qty)}
		p.Lines = append(p.Lines, line)
		p.Total += line.USD
	}
	p.WithAPIGateway = p.Total + pr.APIGatewayHTTPRequest.cost(p.Requests)
	return p
}

// PriceTable renders Prices for a report.
func PriceTable() string {
	var b strings.Builder
	pr := Prices
	for _, p := range []Price{pr.CloudFrontHTTPS, pr.CloudFrontDataOut, pr.WAFRequest, pr.LambdaRequest, pr.LambdaArmGBSecond,
		pr.DynamoDBReadUnit, pr.DynamoDBWriteUnit, pr.APIGatewayHTTPRequest} {
		fmt.Fprintf(&b, "  %-36s $%-12g %-22s %s\n", p.Name, p.USD, p.Unit, p.Where)
	}
	return b.String()
}
