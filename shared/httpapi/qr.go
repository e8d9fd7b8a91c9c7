package httpapi

import (
	"bytes"
	"encoding/base64"
	"strconv"

	qrcode "github.com/skip2/go-qrcode"
)

// qrSVG draws text as a QR code in SVG: one module is one unit of the viewBox,
// the quiet zone is included, and every dark module is in a single path made of
// one rectangle per horizontal run, so the file stays small (about 2 KB for a
// join link) and scales to any size without blurring.
func qrSVG(text string) ([]byte, error) {
	q, err := qrcode.New(text, qrcode.Medium)
	if err != nil {
		return nil, err
	}
	bits := q.Bitmap()
	n := strconv.Itoa(len(bits))
	var b bytes.Buffer
	b.Grow(4096)
	b.WriteString(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ` + n + " " + n +
		`" shape-rendering="crispEdges"><rect width="` + n + `" height="` + n + `" fill="#fff"/><path fill="#000" d="`)
	for y, row := range bits {
		for x := 0; x < len(row); {
			if !row[x] {
				x++
				continue
			}
			start := x
			for x < len(row) && row[x] {
				x++
			}
			w := strconv.Itoa(x - start)
			b.WriteString("M" + strconv.Itoa(start) + " " + strconv.Itoa(y) + "h" + w + "v1h-" + w + "z")
		}
	}
	b.WriteString(`"/></svg>`)
	return b.Bytes(), nil
}

// qrDataURL is text as a QR code (qrSVG) in a data: URL, which an <img> shows
// as it is: a picture that comes inside an answer, not from an address.
func qrDataURL(text string) (string, error) {
	svg, err := qrSVG(text)
	if err != nil {
		return "", err
	}
	return "data:image/svg+xml;base64," + base64.StdEncoding.EncodeToString(svg), nil
}
