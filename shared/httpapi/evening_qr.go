package httpapi

import "net/http"

// GET /api/evenings/{code}/qr.svg: the evening's join link as a QR code, for
// the organiser's page and the TV: a phone that scans it joins the evening once
// and is taken to its seat at every round. Like a game's, the picture depends
// only on the code and the site's address; an evening that does not exist is
// 404, as its view is.
func (h *handler) eveningQR(w http.ResponseWriter, r *http.Request) {
	code := r.PathValue("code")
	if _, err := h.cfg.Games.PollEvening(r.Context(), code, ""); err != nil {
		h.fail(w, r, err)
		return
	}
	svg, err := qrSVG(h.baseURL(r) + EveningPath(code))
	if err != nil {
		h.fail(w, r, err)
		return
	}
	w.Header().Set("Cache-Control", "private, max-age=3600")
	writeRaw(w, http.StatusOK, "image/svg+xml", svg)
}
