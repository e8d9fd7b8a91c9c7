package httpapi

import (
	"bytes"
	"encoding/json"
	"mime"
	"net/http"

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
	writeJSON(w, http.StatusCreated, struct {
		Code           string       `json:"code"`
		OrganizerToken string       `json:"organizerToken"`
		JoinURL        string       `json:"joinUrl"`
		Evening        evening.View `json:"evening"`
	}{c.Code, c.OrganizerToken, h.baseURL(r) + EveningPath(c.Code), c.Evening})
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
	writeJSON(w, http.StatusCreated, j)
}

// GET /api/evenings/{code}
func (h *handler) readEvening(w http.ResponseWriter, r *http.Request) {
	token, err := bearer(r)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	v, err := h.cfg.Games.ReadEvening(r.Context(), r.PathValue("code"), token)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	h.writeEvening(w, r, v)
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
	h.writeEvening(w, r, v)
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

// writeEvening sends a view of an evening, gzipped where writeJSONBody would,
// unless it holds a game token: the names in it are chosen by whoever joins,
// and a compressed answer whose length moves with a guess at a secret beside
// them would let that guess be tested (as BREACH does). The answers that give
// a token (making an evening, joining it) are never compressed, for the same
// reason.
func (h *handler) writeEvening(w http.ResponseWriter, r *http.Request, v evening.View) {
	if v.You != nil && v.You.GameToken != "" {
		writeJSON(w, http.StatusOK, v)
		return
	}
	data, err := json.Marshal(v)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	writeJSONBody(w, r, http.StatusOK, data)
}
