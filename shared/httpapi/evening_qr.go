package httpapi

import (
	"net/http"
	"net/url"
	"strconv"

	"citysleeps/shared/evening"
	"citysleeps/shared/service"
)

// GET /api/evenings/{code}/qr.svg: the evening's join link as a QR code, for
// the organiser's page and the TV: a phone that scans it joins the evening once
// and is taken to its seat at every round. Like a game's, the picture depends
// only on the code and the site's address; an evening that does not exist is
// 404, as its view is.
//
// With ?table=N and the organiser's token it is table N's referee link
// instead (RefereeLink), for the organiser to hand that table's console to
// its referee's phone: it holds the table's referee token, so it is drawn
// for the organiser alone and no cache may keep it, as a game's host link.
func (h *handler) eveningQR(w http.ResponseWriter, r *http.Request) {
	code := r.PathValue("code")
	if r.URL.Query().Has("table") {
		h.refereeQR(w, r, code)
		return
	}
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

// refereeQR draws a table's referee link (eveningQR's ?table=).
func (h *handler) refereeQR(w http.ResponseWriter, r *http.Request, code string) {
	token, err := bearer(r)
	if err == nil && token == "" {
		err = service.Refuse(service.ErrUnauthorized, "a referee's link is drawn for the organiser's token only")
	}
	if err != nil {
		h.fail(w, r, err)
		return
	}
	rd, err := h.cfg.Games.PollEvening(r.Context(), code, token)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	v := rd.View
	if !v.Organizer {
		h.fail(w, r, &service.Error{Kind: service.ErrForbidden, Code: evening.ErrNotOrganizer.Code,
			Message: "a referee's link is drawn for the organiser's token only"})
		return
	}
	table, err := strconv.Atoi(r.URL.Query().Get("table"))
	var referee *evening.Referee
	for i := range v.Referees {
		if err == nil && v.Referees[i].Table == table {
			referee = &v.Referees[i]
		}
	}
	if referee == nil {
		h.fail(w, r, service.Refuse(service.ErrInvalid, "table must be the number of one of the evening's tables"))
		return
	}
	svg, err := qrSVG(h.baseURL(r) + RefereeLink(v.Code, referee.Table, referee.Token))
	if err != nil {
		h.fail(w, r, err)
		return
	}
	w.Header().Set("Cache-Control", "no-store")
	writeRaw(w, http.StatusOK, "image/svg+xml", svg)
}

// RefereeLink is the path and fragment of a table's referee page
// (frontend/js/app.js): the evening's code, the table and its referee token,
// in the fragment, which browsers never send. The page follows the table from
// round to round, to the console of its game in play.
func RefereeLink(code string, table int, token string) string {
	return "/#referee=" + code + "&table=" + strconv.Itoa(table) + "&t=" + url.QueryEscape(token)
}
