package httpapi

import (
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strings"

	"citysleeps/shared/service"
	"citysleeps/shared/strictjson"
)

// MaxBody is the largest request body the API reads, in bytes. The largest
// legitimate body, a "configure" action with every option, is under 2 KB.
const MaxBody = 16 << 10

// readBody checks the content type, limits the body to MaxBody and decodes it
// strictly into dst. Every body must say it is application/json: a browser
// sends a cross-site form or a fetch without a preflight only as
// text/plain, application/x-www-form-urlencoded or multipart/form-data (or with
// no type), so no other site can make its visitors' browsers create, join or
// act here. What the fields hold is the service's to check.
func readBody(w http.ResponseWriter, r *http.Request, dst any) error {
	mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if err != nil || mt != "application/json" {
		return service.Refuse(service.ErrUnsupportedType, "send the body as application/json, with Content-Type: application/json")
	}
	return decode(http.MaxBytesReader(w, r.Body, MaxBody), dst)
}

// decode reads one JSON value into dst: unknown fields, a wrong type, a
// missing body and anything after the value are refused as malformed.
func decode(rd io.Reader, dst any) error {
	data, err := io.ReadAll(rd)
	var mbe *http.MaxBytesError
	switch {
	case errors.As(err, &mbe):
		return service.Refuse(service.ErrTooLarge, fmt.Sprintf("the body is over %d bytes", MaxBody))
	case err != nil:
		return service.Refuse(service.ErrMalformed, "the body could not be read")
	}
	var se *strictjson.Error
	if err := strictjson.Decode(data, dst); errors.As(err, &se) {
		return service.Refuse(service.ErrMalformed, "the body: "+se.Message)
	}
	return nil
}

// bearer returns the token of an "Authorization: Bearer <token>" header, or ""
// when there is none. A header of another form is refused; the token itself is
// the service's to check.
func bearer(r *http.Request) (string, error) {
	h := r.Header.Get("Authorization")
	if h == "" {
		return "", nil
	}
	scheme, token, ok := strings.Cut(h, " ")
	token = strings.TrimSpace(token)
	if !ok || !strings.EqualFold(scheme, "Bearer") || token == "" || len(token) > 256 {
		return "", service.Refuse(service.ErrUnauthorized, `send the token as "Authorization: Bearer <token>"`)
	}
	return token, nil
}
