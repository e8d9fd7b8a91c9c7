package httpapi

import "net/http"

// apiCSP is the Content-Security-Policy of API responses: JSON and the QR
// code's SVG need nothing at all.
const apiCSP = "default-src 'none'; frame-ancestors 'none'"

// apiHeaders are the security headers of every API response. Views hold secrets
// for one viewer, so nothing is stored by any cache (clients revalidate with
// If-None-Match themselves).
func apiHeaders(h http.Header) {
	h.Set("Content-Security-Policy", apiCSP)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("X-Frame-Options", "DENY")
	h.Set("Cache-Control", "no-store")
}
