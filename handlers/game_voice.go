package handlers

import (
	"context"
	"encoding/json"
	"net/http"
	"strconv"

	"satranc/engine/voice"
	"satranc/views"
)

// GameVoice is what the game pages need of the voice chat (engine/play's
// Signal and the rules of engine/voice).
type GameVoice interface {
	// Signal relays sig from user to the opponent's page in game id.
	Signal(ctx context.Context, id, user int64, sig voice.Signal) error
	// CanSpeak reports whether user may speak in voice chat.
	CanSpeak(ctx context.Context, user int64) (bool, error)
}

// maxVoiceForm bounds a voice signal's request body: a description of
// voice.MaxSDP bytes, URL-encoded, and the other fields.
const maxVoiceForm = 4 * voice.MaxSDP

// handleGameVoice relays a voice signal of the player's page to the
// opponent's (engine/play voice.go; the rules are in engine/voice);
// voice.js posts the form fields kind, conn, sdp, candidate, mid and
// mline. It answers 204, or the refusal's status with its message as
// plain text, which the page shows.
func (h *Handler) handleGameVoice(w http.ResponseWriter, r *http.Request) {
	id, err := gameID(r)
	if err != nil {
		h.failVoice(w, r, err)
		return
	}
	r.Body = http.MaxBytesReader(w, r.Body, maxVoiceForm)
	if err := r.ParseForm(); err != nil {
		h.failVoice(w, r, errBadRequest)
		return
	}
	sig := voice.Signal{
		Kind:      voice.Kind(r.PostForm.Get("kind")),
		Conn:      r.PostForm.Get("conn"),
		SDP:       r.PostForm.Get("sdp"),
		Candidate: r.PostForm.Get("candidate"),
		Mid:       r.PostForm.Get("mid"),
	}
	if m := r.PostForm.Get("mline"); m != "" {
		if sig.MLine, err = strconv.Atoi(m); err != nil {
			h.failVoice(w, r, errBadRequest)
			return
		}
	}
	user, _ := userFrom(r.Context())
	if err := h.voice.Signal(r.Context(), id, user.ID, sig); err != nil {
		h.failVoice(w, r, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// failVoice answers a refused voice signal with its localised message as
// plain text, for voice.js to show as it is.
func (h *Handler) failVoice(w http.ResponseWriter, r *http.Request, err error) {
	resp := responseFor(err)
	if resp.status >= 500 {
		h.log.ErrorContext(r.Context(), "voice signal", "path", r.URL.Path, "err", err)
	}
	setRetryAfter(w, resp.retry)
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(resp.status)
	_, _ = w.Write([]byte(resp.msg.Text(r.Context())))
}

// voiceMessage is a voice signal as the opponent's page reads it from the
// game stream (event views.EventVoice, JSON data).
type voiceMessage struct {
	Kind      voice.Kind `json:"kind"`
	Conn      string     `json:"conn,omitempty"`
	SDP       string     `json:"sdp,omitempty"`
	Candidate string     `json:"candidate,omitempty"`
	Mid       string     `json:"mid,omitempty"`
	MLine     int        `json:"mline"`
}

// sendVoice writes sig to the stream as a views.EventVoice event. It has
// no id: the event id stays the game's ply, for the panel's catching up.
func sendVoice(stream *sseWriter, sig voice.Signal) error {
	data, err := json.Marshal(voiceMessage{Kind: sig.Kind, Conn: sig.Conn, SDP: sig.SDP, Candidate: sig.Candidate, Mid: sig.Mid, MLine: sig.MLine})
	if err != nil {
		return err
	}
	return stream.event("", views.EventVoice, data) // JSON escapes line breaks: one data line
}
