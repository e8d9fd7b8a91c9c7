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
	APIGatewayHTTPRequest Price
	LambdaRequest         Price
	LambdaArmGBSecond     Price
	DynamoDBWriteUnit     Price
	DynamoDBReadUnit      Price
	APIGatewayDataOut     Price
	CloudFrontHTTPS       Price
	CloudFrontDataOut     Price
}{
	// https://aws.amazon.com/api-gateway/pricing/ — HTTP APIs, US East (N. Virginia):
	// $1.00 per million requests for the first 300 million a month (metered in 512 KB
	// increments; our requests are far smaller).
	APIGatewayHTTPRequest: Price{"API Gateway HTTP API requests", 1.00, "per million requests", 1e6,
		"aws.amazon.com/api-gateway/pricing (HTTP APIs, us-east-1, first 300M/month)", "requests"},
	// https://aws.amazon.com/lambda/pricing/ — US East (N. Virginia): $0.20 per million
	// requests, the same for x86 and Arm.
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
	// https://aws.amazon.com/api-gateway/pricing/ — data transferred out to the
	// internet is billed at the EC2 rate: $0.09 per GB (first 10 TB a month) from
	// https://aws.amazon.com/ec2/pricing/on-demand/ (Data Transfer, us-east-1).
	APIGatewayDataOut: Price{"API responses out to the internet", 0.09, "per GB", 1 << 30,
		"aws.amazon.com/ec2/pricing/on-demand (Data Transfer OUT, us-east-1, first 10 TB/month)", "bytes"},
	// https://aws.amazon.com/cloudfront/pricing/ — HTTPS requests, United States,
	// Mexico and Canada: $0.0100 per 10,000. Only counted when /api/* goes through
	// CloudFront (template.yaml's plan); static files are a few requests per game.
	CloudFrontHTTPS: Price{"CloudFront HTTPS requests", 0.0100, "per 10,000 requests", 1e4,
		"aws.amazon.com/cloudfront/pricing (US/Mexico/Canada)", "requests"},
	// https://aws.amazon.com/cloudfront/pricing/ — data transfer out to the internet,
	// United States, Mexico and Canada: $0.085 per GB (first 10 TB a month). Origin
	// fetches from API Gateway are free, so this replaces APIGatewayDataOut.
	CloudFrontDataOut: Price{"CloudFront data out", 0.085, "per GB", 1 << 30,
		"aws.amazon.com/cloudfront/pricing (US/Mexico/Canada, first 10 TB/month)", "bytes"},
}

// cost is the dollars that n counted things cost at p.
func (p Price) cost(n float64) float64 { return p.USD * n / p.Per }

// Assumptions of the cost model that are not prices. They are stated in the report.
const (
	// LambdaMemoryMB is the memory each function is given: SAM's default, which
	// template.yaml keeps (a Go handler needs far less).
	LambdaMemoryMB = 128
	// DynamoCallMs is the time one DynamoDB call adds to a Lambda invocation in
	// the same region (a GetItem or conditional PutItem of a few KB: single-digit
	// milliseconds). Locally the store answers in microseconds (bolt) or far
	// slower (dynalite), so neither is used for billing.
	DynamoCallMs = 6.0
	// RealGameMinutes and RealPlayers describe the game the estimate is for: a
	// 10-player game of about 45 minutes, with one shared screen (the host's
	// page) polling too.
	RealGameMinutes = 45.0
	RealPlayers     = 10
	RealScreens     = 1
	// TargetCostPerGame is the budget for one such game.
	TargetCostPerGame = 0.006
)

// Projection is the estimated bill of one real 10-player 45-minute game.
type Projection struct {
	// Request counts of one real game.
	Polls      float64 `json:"polls"`    // GET /api/games/{code}
	Polls304   float64 `json:"polls304"` // of which answered 304
	Actions    float64 `json:"actions"`  // POST .../actions, retries included
	Joins      float64 `json:"joins"`    // POST .../players, and the create
	Requests   float64 `json:"requests"` // all of the above
	LambdaGBs  float64 `json:"lambdaGbS"`
	ReadUnits  float64 `json:"readUnits"`  // DynamoDB RRU
	WriteUnits float64 `json:"writeUnits"` // DynamoDB WRU
	BytesOut   float64 `json:"bytesOut"`   // response bytes (bodies and headers)
	Lines      []Line  `json:"lines"`      // the bill, line by line
	// Total is the bill with clients calling API Gateway directly; TotalViaCF
	// with /api/* going through CloudFront (as template.yaml plans);
	// TotalFunctionURL with the same requests sent to Lambda function URLs,
	// which cost nothing beyond Lambda's own prices (no API Gateway; see
	// docs.aws.amazon.com/lambda/latest/dg/furls-http-invoke-decision.html).
	Total            float64 `json:"totalUsd"`
	TotalViaCF       float64 `json:"totalViaCfUsd"`
	TotalFunctionURL float64 `json:"totalFunctionUrlUsd"`
}

// Line is one line of a bill.
type Line struct {
	Item     string  `json:"item"`
	Quantity float64 `json:"quantity"`
	Unit     string  `json:"unit"` // what Quantity counts
	USD      float64 `json:"usd"`
	CFOnly   bool    `json:"cloudfrontOnly,omitempty"` // only when /api/* goes through CloudFront
	Direct   bool    `json:"directOnly,omitempty"`     // only when clients call API Gateway directly
}

// PerRequest are the measured means for one kind of request, which the
// projection multiplies by the real game's counts.
type PerRequest struct {
	HandlerMs  float64 `json:"handlerMs"`  // server time in the handler, without the store's
	StoreCalls float64 `json:"storeCalls"` // store calls made (each adds DynamoCallMs in AWS)
	ReadUnits  float64 `json:"readUnits"`  // DynamoDB RRU
	WriteUnits float64 `json:"writeUnits"` // DynamoDB WRU
	Bytes      float64 `json:"bytes"`      // response bytes, headers included
}

// Cadence is what one real game is made of, for Project.
type Cadence struct {
	// PlayerEveryMs and ScreenEveryMs are the mean intervals between the polls
	// of one phone and of the shared screen, at the server's real pollAfterMs.
	PlayerEveryMs, ScreenEveryMs float64
	// Share304 is the share of polls answered 304.
	Share304 float64
	// ActionsPerGame counts the action requests of one game, retries included.
	ActionsPerGame float64
	// The measured cost of each kind of request.
	Poll304, Poll200, Action, Join PerRequest
}

// Project estimates one real game: every phone polls every PlayerEveryMs and the
// shared screen every ScreenEveryMs for RealGameMinutes; actions, joins and the
// create are counted as measured per game.
func Project(c Cadence) Projection {
	var p Projection
	ms := RealGameMinutes * 60_000
	if c.PlayerEveryMs > 0 {
		p.Polls += RealPlayers * ms / c.PlayerEveryMs
	}
	if c.ScreenEveryMs > 0 {
		p.Polls += RealScreens * ms / c.ScreenEveryMs
	}
	p.Polls304 = p.Polls * c.Share304
	polls200 := p.Polls - p.Polls304
	p.Actions = c.ActionsPerGame
	p.Joins = RealPlayers + 1
	p.Requests = p.Polls + p.Actions + p.Joins
	type part struct {
		n float64
		r PerRequest
	}
	for _, x := range []part{{p.Polls304, c.Poll304}, {polls200, c.Poll200}, {p.Actions, c.Action}, {p.Joins, c.Join}} {
		billedMs := math.Ceil(x.r.HandlerMs + x.r.StoreCalls*DynamoCallMs) // billed per started ms
		p.LambdaGBs += x.n * billedMs / 1000 * LambdaMemoryMB / 1024
		p.ReadUnits += x.n * x.r.ReadUnits
		p.WriteUnits += x.n * x.r.WriteUnits
		p.BytesOut += x.n * x.r.Bytes
	}
	pr := Prices
	add := func(price Price, qty float64, cfOnly, direct bool) {
		l := Line{Item: price.Name, Quantity: qty, Unit: price.What, USD: price.cost(qty), CFOnly: cfOnly, Direct: direct}
		p.Lines = append(p.Lines, l)
		if !cfOnly {
			p.Total += l.USD
		}
		if !direct {
			p.TotalViaCF += l.USD
		}
	}
	add(pr.APIGatewayHTTPRequest, p.Requests, false, false)
	add(pr.LambdaRequest, p.Requests, false, false)
	add(pr.LambdaArmGBSecond, p.LambdaGBs, false, false)
	add(pr.DynamoDBReadUnit, p.ReadUnits, false, false)
	add(pr.DynamoDBWriteUnit, p.WriteUnits, false, false)
	add(pr.APIGatewayDataOut, p.BytesOut, false, true)
	add(pr.CloudFrontHTTPS, p.Requests, true, false)
	add(pr.CloudFrontDataOut, p.BytesOut, true, false)
	p.TotalFunctionURL = p.Total - p.Lines[0].USD
	return p
}

// EveryForBudget returns the mean poll interval (every client the same) at which
// one real game costs budget dollars with clients calling API Gateway directly,
// the rest of c as measured; 0 if even no polling at all is over budget.
func EveryForBudget(c Cadence, budget float64) float64 {
	lo, hi := 100.0, 600_000.0
	at := func(every float64) float64 {
		c.PlayerEveryMs, c.ScreenEveryMs = every, every
		return Project(c).Total
	}
	if at(hi) > budget {
		return 0
	}
	for range 60 {
		mid := (lo + hi) / 2
		if at(mid) > budget {
			lo = mid
		} else {
			hi = mid
		}
	}
	return hi
}

// PriceTable renders Prices for a report.
func PriceTable() string {
	var b strings.Builder
	pr := Prices
	for _, p := range []Price{pr.APIGatewayHTTPRequest, pr.LambdaRequest, pr.LambdaArmGBSecond,
		pr.DynamoDBReadUnit, pr.DynamoDBWriteUnit, pr.APIGatewayDataOut, pr.CloudFrontHTTPS, pr.CloudFrontDataOut} {
		fmt.Fprintf(&b, "  %-36s $%-12g %-22s %s\n", p.Name, p.USD, p.Unit, p.Where)
	}
	return b.String()
}
