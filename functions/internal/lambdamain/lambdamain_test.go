package lambdamain

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"citysleeps/shared/httpapi"
)

// TestViewersOwn: the API sees the viewer's own Authorization, whichever way
// the request came: through CloudFront (the viewer's token moved to
// httpapi.ViewerAuthorization, CloudFront's signature in Authorization, or
// no token and only the signature), or straight from `sam local start-api`.
func TestViewersOwn(t *testing.T) {
	const sig = "AWS4-HMAC-SHA256 Credential=ASIAEXAMPLE/20261201/us-east-1/lambda/aws4_request, SignedHeaders=host, Signature=0f"
	for _, tc := range []struct {
		name               string
		auth, viewer, want string
	}{
		{"through CloudFront, a token", sig, "Bearer tok", "Bearer tok"},
		{"through CloudFront, no token", sig, "", ""},
		{"sam local, a token", "Bearer tok", "", "Bearer tok"},
		{"sam local, no token", "", "", ""},
	} {
		var got http.Header
		h := viewersOwn(http.HandlerFunc(func(_ http.ResponseWriter, r *http.Request) { got = r.Header.Clone() }))
		r := httptest.NewRequest("GET", "/api/games/K7QX2M", nil)
		if tc.auth != "" {
			r.Header.Set("Authorization", tc.auth)
		}
		if tc.viewer != "" {
			r.Header.Set(httpapi.ViewerAuthorization, tc.viewer)
		}
		h.ServeHTTP(httptest.NewRecorder(), r)
		if a := got.Get("Authorization"); a != tc.want || got.Get(httpapi.ViewerAuthorization) != "" {
			t.Errorf("%s: Authorization %q, %s %q; want %q and none", tc.name, a, httpapi.ViewerAuthorization, got.Get(httpapi.ViewerAuthorization), tc.want)
		}
	}
}
