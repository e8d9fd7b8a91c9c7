package loadgen

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"

	"citysleeps/shared/rules"
)

// HandOverPoint is what real games cost and how much of them went in
// hand-overs, at one hand-over length.
type HandOverPoint struct {
	HandOver   int                `json:"handOverS"`
	DeadAirPct float64            `json:"deadAirPct"`
	Cost       map[string]float64 `json:"costUsd"` // by way of moderating, as deployed
}

// HandOverSweep plays perPreset real games of each preset, moderated by the
// app and by a person, at each hand-over length of seconds, and reports each
// length's cost and dead air: what a host who deploys the game chooses between.
func HandOverSweep(ctx context.Context, seconds []int, perPreset int, seed uint64, h Human) ([]HandOverPoint, error) {
	var out []HandOverPoint
	for _, s := range seconds {
		r, err := PlayRealGames(ctx, AllPresets, Moderators, perPreset, seed, h, &s)
		if err != nil {
			return nil, fmt.Errorf("hand-over %d s: %w", s, err)
		}
		p := HandOverPoint{HandOver: s, DeadAirPct: r.DeadAirPct, Cost: map[string]float64{}}
		for mode, m := range r.Modes {
			p.Cost[mode] = m.Cost.Total
		}
		out = append(out, p)
	}
	return out, nil
}

// The chart's frame, in SVG user units.
const (
	chartW, chartH         = 640, 360
	plotL, plotR           = 64, 576
	plotT, plotB           = 48, 296
	chartFont              = `font-family="system-ui, sans-serif" font-size="12"`
	costColor, personColor = "#1f5fa8", "#6b3fa0"
	deadAirColor           = "#b5412b"
)

// HandOverSVG draws points as a chart: the cost of a game as deployed (left
// axis, one line for each way of moderating) and the share of play in
// hand-overs (right axis) against the hand-over's length, with the budget,
// the dead-air target and the default length marked. The README shows it.
func HandOverSVG(points []HandOverPoint, defaultHandOver int) string {
	points = slices.Clone(points)
	slices.SortFunc(points, func(a, b HandOverPoint) int { return a.HandOver - b.HandOver })
	maxX := 10.0
	maxCost, maxAir := TargetCostPerGame, DeadAirTarget
	for _, p := range points {
		maxX = max(maxX, float64(p.HandOver))
		maxAir = max(maxAir, p.DeadAirPct)
		for _, c := range p.Cost {
			maxCost = max(maxCost, c)
		}
	}
	maxCost = niceCeil(maxCost * 1.05)
	maxAir = niceCeil(maxAir * 1.05)
	x := func(s float64) float64 { return plotL + (plotR-plotL)*s/maxX }
	yCost := func(c float64) float64 { return plotB - (plotB-plotT)*c/maxCost }
	yAir := func(a float64) float64 { return plotB - (plotB-plotT)*a/maxAir }

	var b strings.Builder
	w := func(format string, args ...any) { fmt.Fprintf(&b, format+"\n", args...) }
	w(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 %d %d" width="%d" height="%d" role="img" aria-labelledby="title">`, chartW, chartH, chartW, chartH)
	w(`<title id="title">Cost of a 45-minute game as deployed, and the share of play spent in hand-overs, by the hand-over's length</title>`)
	w(`<rect width="100%%" height="100%%" fill="#fff"/>`)
	w(`<g %s fill="#222">`, chartFont)
	w(`<text x="%d" y="24" font-size="14" font-weight="600">A hand-over's length: what a game costs, and how long the table waits</text>`, plotL)
	// Axes and grid: five steps on each axis.
	for i := 0; i <= 5; i++ {
		f := float64(i) / 5
		y := plotB - (plotB-plotT)*f
		w(`<line x1="%d" y1="%.1f" x2="%d" y2="%.1f" stroke="#e4e4e4"/>`, plotL, y, plotR, y)
		w(`<text x="%d" y="%.1f" text-anchor="end" fill="%s">$%.3f</text>`, plotL-6, y+4, costColor, maxCost*f)
		w(`<text x="%d" y="%.1f" fill="%s">%.0f%%</text>`, plotR+6, y+4, deadAirColor, maxAir*f)
	}
	for s := 0.0; s <= maxX; s++ {
		w(`<text x="%.1f" y="%d" text-anchor="middle">%.0f</text>`, x(s), plotB+18, s)
	}
	w(`<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="#222"/>`, plotL, plotB, plotR, plotB)
	w(`<text x="%d" y="%d" text-anchor="middle">hand-over (s), the option handOver</text>`, (plotL+plotR)/2, plotB+38)
	// Marks: the budget, the dead-air target, the default.
	w(`<line x1="%d" y1="%.1f" x2="%d" y2="%.1f" stroke="%s" stroke-dasharray="6 4"/>`, plotL, yCost(TargetCostPerGame), plotR, yCost(TargetCostPerGame), costColor)
	w(`<text x="%d" y="%.1f" fill="%s">budget $%.3f</text>`, plotL+6, yCost(TargetCostPerGame)-5, costColor, TargetCostPerGame)
	w(`<line x1="%d" y1="%.1f" x2="%d" y2="%.1f" stroke="%s" stroke-dasharray="2 4"/>`, plotL, yAir(DeadAirTarget), plotR, yAir(DeadAirTarget), deadAirColor)
	w(`<text x="%d" y="%.1f" text-anchor="end" fill="%s">dead air %.0f%%</text>`, plotR-6, yAir(DeadAirTarget)-5, deadAirColor, DeadAirTarget)
	dx := x(float64(defaultHandOver))
	w(`<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="#888" stroke-dasharray="3 3"/>`, dx, plotT, dx, plotB)
	w(`<text x="%.1f" y="%d" text-anchor="middle" fill="#555">default %d s</text>`, dx, plotT-6, defaultHandOver)
	// The lines.
	line := func(color, dash string, y func(HandOverPoint) (float64, bool)) {
		var pts []string
		for _, p := range points {
			if v, ok := y(p); ok {
				pts = append(pts, fmt.Sprintf("%.1f,%.1f", x(float64(p.HandOver)), v))
			}
		}
		w(`<polyline fill="none" stroke="%s" stroke-width="2.5"%s points="%s"/>`, color, dash, strings.Join(pts, " "))
		for _, pt := range pts {
			xy := strings.Split(pt, ",")
			w(`<circle cx="%s" cy="%s" r="3" fill="%s"/>`, xy[0], xy[1], color)
		}
	}
	cost := func(mode string) func(HandOverPoint) (float64, bool) {
		return func(p HandOverPoint) (float64, bool) { c, ok := p.Cost[mode]; return yCost(c), ok }
	}
	line(costColor, "", cost(rules.ModeratorApp))
	line(personColor, ` stroke-dasharray="8 3"`, cost(rules.ModeratorHost))
	line(deadAirColor, "", func(p HandOverPoint) (float64, bool) { return yAir(p.DeadAirPct), true })
	// The legend.
	ly := chartH - 18
	for i, l := range []struct{ color, dash, text string }{
		{costColor, "", "cost, the app moderates"},
		{personColor, "8 3", "cost, a person moderates"},
		{deadAirColor, "", "share of play in hand-overs"},
	} {
		lx := plotL - 40 + i*200
		w(`<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="%s" stroke-width="2.5" stroke-dasharray="%s"/>`, lx, ly, lx+24, ly, l.color, l.dash)
		w(`<text x="%d" y="%d">%s</text>`, lx+30, ly+4, l.text)
	}
	w(`</g>`)
	w(`</svg>`)
	return b.String()
}

// niceCeil rounds v up to 1, 2 or 5 times a power of ten, so the axis reads
// in round steps of a fifth.
func niceCeil(v float64) float64 {
	if v <= 0 {
		return 1
	}
	p := math.Pow(10, math.Floor(math.Log10(v)))
	for _, m := range []float64{1, 2, 2.5, 5, 10} {
		if m*p >= v {
			return m * p
		}
	}
	return 10 * p
}
