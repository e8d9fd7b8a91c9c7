package httpapi

import (
	"bytes"
	"encoding/json"
	"mime"
	"net/http"
	"time"

	"citysleeps/shared/evening"
	"citysleeps/shared/service"
)

// An evening's answers carry no card: its view is the same for everyone but a
// player's own place and game token, so they go out unpadded.

// POST /api/evenings
func (h *handler) createEvening(w http.ResponseWriter, r *http.Request) {
	var req service.EveningRequest
	if err := readBody(w, r, &req); err != nil {
		h.fail(w, r, err)
		return
	}
	c, err := h.cfg.Games.CreateEvening(r.Context(), req)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	w.Header().Set("Location", "/api/evenings/"+c.Code)
	view, err := withPoll(c.Evening, h.eveningPoll(w, false), "")
	if err != nil {
		h.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusCreated, struct {
		Code           string          `json:"code"`
		OrganizerToken string          `json:"organizerToken"`
		JoinURL        string          `json:"joinUrl"`
		Evening        json.RawMessage `json:"evening"`
	}{c.Code, c.OrganizerToken, h.baseURL(r) + EveningPath(c.Code), view})
}

// POST /api/evenings/{code}/players
func (h *handler) joinEvening(w http.ResponseWriter, r *http.Request) {
	var req service.EveningJoinRequest
	if err := readBody(w, r, &req); err != nil {
		h.fail(w, r, err)
		return
	}
	j, err := h.cfg.Games.JoinEvening(r.Context(), r.PathValue("code"), req)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	// A join is refused once every round has started, so the evening it
	// answers has rounds to come (a join sent again after that is the rare
	// exception, whose next poll slows down).
	view, err := withPoll(j.Evening, h.eveningPoll(w, false), "")
	if err != nil {
		h.fail(w, r, err)
		return
	}
	// 201 for a join sent again too, as a game's join answers.
	writeJSON(w, http.StatusCreated, struct {
		PlayerID string          `json:"playerId"`
		Token    string          `json:"token"`
		Evening  json.RawMessage `json:"evening"`
	}{j.PlayerID, j.Token, view})
}

// GET /api/evenings/{code}
func (h *handler) readEvening(w http.ResponseWriter, r *http.Request) {
	token, err := bearer(r)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	rd, err := h.cfg.Games.PollEvening(r.Context(), r.PathValue("code"), token)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	etag := eveningTag(rd.Revision, token)
	w.Header().Set("ETag", etag)
	poll := h.eveningPoll(w, rd.Revision.Over)
	if etagMatch(r.Header.Values("If-None-Match"), etag) {
		// The read was made (the games must be read to know none ended),
		// but the view is not sent again.
		w.WriteHeader(http.StatusNotModified)
		return
	}
	h.writeEvening(w, r, rd.View, poll)
}

// POST /api/evenings/{code}/actions
func (h *handler) actEvening(w http.ResponseWriter, r *http.Request) {
	token, err := bearer(r)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	var a service.EveningAction
	if err := readBody(w, r, &a); err != nil {
		h.fail(w, r, err)
		return
	}
	if sw, ok := w.(*statusWriter); ok {
		sw.action = "unknown"
		if service.EveningActionType(a.Type) {
			sw.action = a.Type
		}
	}
	v, err := h.cfg.Games.ActEvening(r.Context(), r.PathValue("code"), token, a)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	// An action writes every game it finds over (reconcile) before it
	// answers, so its view shows the stored version and nothing on top: the
	// ETag a read of the same version would give the organiser. Whether the
	// evening is over is not known here; its next poll says.
	w.Header().Set("ETag", eveningTag(service.EveningRevision{Version: v.Version}, token))
	// A reseat's link is the evening's page, where the phone takes the place.
	h.completeLink(r, v.Reseat, h.baseURL(r)+EveningPath(v.Code))
	h.writeEvening(w, r, v, h.eveningPoll(w, false))
}

// GET /api/evenings/{code}/export?format=mafiaratings: the evening's finished
// games in a rating site's format and the games left out with why, for
// anyone, as each game's export is; 409 game_not_over before any game is
// over, 422 not_exportable when none of the finished ones can be told. Its
// games are over and public, so it goes out compressed like any public read.
func (h *handler) exportEvening(w http.ResponseWriter, r *http.Request) {
	token, err := exportRequest(r)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	x, err := h.cfg.Games.EveningMafiaRatings(r.Context(), r.PathValue("code"), token)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	data, err := json.Marshal(x)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	writeJSONBody(w, r, http.StatusOK, data)
}

// The formats of an evening's record (GET /api/evenings/{code}/record): its
// JSON, the default, and its games as CSV (docs/EVENING-RECORD.md).
const (
	FormatJSON = "json"
	FormatCSV  = "csv"
)

// GET /api/evenings/{code}/record[?format=csv]: the evening's record for a
// club's files, for anyone, as the evening's public view is; 400 invalid for
// another format, as an export answers one. It is a download, so it names
// its file (Content-Disposition), from the evening's code. The JSON goes out
// compressed like any public read; the CSV plainly (a few hundred rows).
func (h *handler) recordEvening(w http.ResponseWriter, r *http.Request) {
	format := r.URL.Query().Get("format")
	if format != "" && format != FormatJSON && format != FormatCSV {
		h.fail(w, r, service.Refuse(service.ErrInvalid, "format must be "+FormatJSON+" (the default) or "+FormatCSV))
		return
	}
	token, err := bearer(r)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	rec, err := h.cfg.Games.EveningRecord(r.Context(), r.PathValue("code"), token)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	if format == FormatCSV {
		var b bytes.Buffer
		if err := rec.WriteCSV(&b); err != nil {
			h.fail(w, r, err)
			return
		}
		attachment(w, rec.Code, FormatCSV)
		writeRaw(w, http.StatusOK, "text/csv; charset=utf-8", b.Bytes())
		return
	}
	data, err := json.Marshal(rec)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	attachment(w, rec.Code, FormatJSON)
	writeJSONBody(w, r, http.StatusOK, data)
}

// attachment names the file a browser saves an evening's download in:
// evening-CODE.json or .csv. The code is the stored evening's, capital
// letters and digits, not the path's as typed.
func attachment(w http.ResponseWriter, code, ext string) {
	w.Header().Set("Content-Disposition", mime.FormatMediaType("attachment", map[string]string{"filename": "evening-" + code + "." + ext}))
}

// writeEvening sends a view of an evening with its joinUrl, the evening's page
// at the address phones reach (PublicURL: a laptop's LAN address, not the
// localhost its own page was opened at), which the TV and the organiser print
// under the QR code for a camera that will not scan. It goes gzipped where
// writeJSONBody would, unless it holds a secret: a game token, the organiser's
// referee tokens, or a reseat's key. The names in it are chosen by whoever
// joins, and a compressed answer whose length moves with a guess at a secret
// beside them would let that guess be tested (as BREACH does). The answers
// that give a token (making an evening, joining it) are never compressed, for
// the same reason.
func (h *handler) writeEvening(w http.ResponseWriter, r *http.Request, v evening.View, poll time.Duration) {
	data, err := withPoll(v, poll, h.baseURL(r)+EveningPath(v.Code))
	if err != nil {
		h.fail(w, r, err)
		return
	}
	if (v.You != nil && v.You.GameToken != "") || v.Reseat != nil || v.Organizer {
		writeRaw(w, http.StatusOK, "application/json", data)
		return
	}
	writeJSONBody(w, r, http.StatusOK, data)
}

// eveningPoll sends an evening's poll hint (eveningPollAfter) as a header,
// as every answer to a game's poll carries its own, and returns it for the
// view's pollAfterMs.
func (h *handler) eveningPoll(w http.ResponseWriter, over bool) time.Duration {
	poll := eveningPollAfter(over)
	h.setPoll(w, poll)
	return poll
}
