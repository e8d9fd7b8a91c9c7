package scoring

import (
	"fmt"
	"strconv"
	"strings"
)

// Points is an amount of points in hundredths: Points(50) is half a point,
// Point is one. Sums of Points are exact, so a player's standing is the same
// whatever the order their games are added in. In JSON and in String a Points
// is a decimal number: 1, 0.5, -0.05.
type Points int64

// Point is one point.
const Point Points = 100

// MaxPoints bounds every value of a table, up or down, and every decimal
// ParsePoints reads: no single policy of a club's table comes near it.
const MaxPoints = 100 * Point

// String formats p as a decimal with at most two places: "1", "0.5", "-0.05".
func (p Points) String() string {
	sign := ""
	n := int64(p)
	if n < 0 {
		sign, n = "-", -n
	}
	whole, frac := n/100, n%100
	switch {
	case frac == 0:
		return fmt.Sprintf("%s%d", sign, whole)
	case frac%10 == 0:
		return fmt.Sprintf("%s%d.%d", sign, whole, frac/10)
	}
	return fmt.Sprintf("%s%d.%02d", sign, whole, frac)
}

// ParsePoints reads a decimal such as "0.7", "-0.5" or "1": an optional
// minus, digits, and at most two significant decimal places (0.250 is 0.25;
// 0.125 is refused, since it is not a whole number of hundredths). Exponents
// and values beyond MaxPoints are refused.
func ParsePoints(s string) (Points, error) {
	digits, neg := strings.CutPrefix(s, "-")
	whole, frac, dot := strings.Cut(digits, ".")
	if whole == "" || (dot && frac == "") || !allDigits(whole) || !allDigits(frac) {
		return 0, fmt.Errorf("scoring: %q is not a decimal number of points (such as 0.5 or -1)", s)
	}
	frac = strings.TrimRight(frac, "0")
	if len(frac) > 2 {
		return 0, fmt.Errorf("scoring: %q has more than two decimal places: points are counted in hundredths", s)
	}
	frac += strings.Repeat("0", 2-len(frac))
	whole = strings.TrimLeft(whole, "0")
	if len(whole) > 4 {
		return 0, fmt.Errorf("scoring: %q is beyond %s points", s, MaxPoints)
	}
	w, _ := strconv.ParseInt("0"+whole, 10, 64)
	f, _ := strconv.ParseInt(frac, 10, 64)
	p := Points(w*100 + f)
	if p > MaxPoints {
		return 0, fmt.Errorf("scoring: %q is beyond %s points", s, MaxPoints)
	}
	if neg {
		p = -p
	}
	return p, nil
}

func allDigits(s string) bool {
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// MarshalJSON writes p as a JSON number with at most two decimal places.
func (p Points) MarshalJSON() ([]byte, error) { return []byte(p.String()), nil }

// UnmarshalJSON reads a JSON number as ParsePoints does: exactly, never
// through a float, so 0.7 is 70 hundredths and nothing else.
func (p *Points) UnmarshalJSON(data []byte) error {
	if string(data) == "null" {
		return nil
	}
	v, err := ParsePoints(string(data))
	if err != nil {
		return err
	}
	*p = v
	return nil
}
