package handlers

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"satranc/engine/account"
	"satranc/engine/chess"
	"satranc/engine/clock"
	"satranc/engine/game"
	"satranc/engine/play"
	"satranc/engine/voice"
	"satranc/store"
	"satranc/views"
)

// fakeVIPs are the VIP members of a fakeGames, kept beside it like
// fakeChats.
var fakeVIPs sync.Map // *fakeGames → *sync.Map of user → true

func (f *fakeGames) setVIP(user int64) {
	m, _ := fakeVIPs.LoadOrStore(f, &sync.Map{})
	m.(*sync.Map).Store(user, true)
}

// Signal records the call and answers the error set for it: the rules are
// tested on the real service in TestGameVoiceRelay.
func (f *fakeGames) Signal(_ context.Context, id, user int64, sig voice.Signal) error {
	return f.record(call{method: "Signal", game: id, user: user, text: string(sig.Kind)})
}

// CanSpeak is a read, which the fake does not record (see changes).
func (f *fakeGames) CanSpeak(_ context.Context, user int64) (bool, error) {
	m, ok := fakeVIPs.Load(f)
	if !ok {
		return false, nil
	}
	_, vip := m.(*sync.Map).Load(user)
	return vip, nil
}

// TestGameVoicePage: a VIP player gets the button to speak, another player
// only the one to listen; spectators, practice games and finished games
// get no voice chat at all.
func TestGameVoicePage(t *testing.T) {
	practice := testSnapshot(t, time.Now(), "e2e4")
	practice.Kind, practice.Black = play.Practice, game.Bot(game.Easy)
	over := testSnapshot(t, time.Now(), "f2f3", "e7e5", "g2g4", "d8h4")
	tests := []struct {
		name         string
		snap         play.Snapshot
		as           account.User
		voice, speak bool
	}{
		{"VIP player", testSnapshot(t, time.Now(), "e2e4"), ayse, true, true},
		{"other player", testSnapshot(t, time.Now(), "e2e4"), bora, true, false},
		{"spectator", testSnapshot(t, time.Now(), "e2e4"), cemil, false, false},
		{"practice game", practice, ayse, false, false},
		{"game over", over, ayse, false, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := newGameEnv(t, tc.snap)
			e.games.setVIP(ayse.ID)
			resp := e.do(t, gameReq{target: "/games/7", as: &tc.as})
			doc := parse(t, resp)
			voice := testid(doc, "voice")
			if got := voice.Length() == 1; got != tc.voice {
				t.Fatalf("voice chat shown: %v, want %v", got, tc.voice)
			}
			if got := testid(doc, "voice-speak").Length() == 1; got != tc.speak {
				t.Errorf("button to speak: %v, want %v", got, tc.speak)
			}
			if !tc.voice {
				if doc.Find(`script[src*="voice"]`).Length() != 0 {
					t.Error("voice.js is loaded without the voice chat")
				}
				return
			}
			if testid(doc, "voice-listen").Length() != 1 {
				t.Error("no button to listen")
			}
			if got := voice.AttrOr("data-voice-path", ""); got != "/games/7/voice" {
				t.Errorf("data-voice-path = %q", got)
			}
			if got := voice.AttrOr("data-ice-servers", ""); got != "[]" {
				t.Errorf("data-ice-servers = %q, want [] (none configured)", got)
			}
			if _, hidden := voice.Attr("hidden"); !hidden {
				t.Error("the voice chat shows before voice.js has found WebRTC")
			}
		})
	}
}

func TestGameVoiceSignalResponses(t *testing.T) {
	tests := []struct {
		name    string
		err     error // of Signal
		form    url.Values
		lang    string
		status  int
		message string // message id of the plain-text answer
	}{
		{name: "relayed", form: url.Values{"kind": {"listen"}}, status: http.StatusNoContent},
		{name: "not VIP", err: fmt.Errorf("play: %w", voice.ErrNotVIP), form: url.Values{"kind": {"offer"}}, status: http.StatusForbidden, message: "voice.not_vip"},
		{name: "not VIP in Turkish", err: voice.ErrNotVIP, form: url.Values{"kind": {"offer"}}, lang: "tr", status: http.StatusForbidden, message: "voice.not_vip"},
		{name: "invalid", err: voice.ErrInvalid, form: url.Values{"kind": {"shout"}}, status: http.StatusUnprocessableEntity, message: "voice.invalid"},
		{name: "flood", err: voice.ErrFlood, form: url.Values{"kind": {"listen"}}, status: http.StatusTooManyRequests, message: "voice.flood"},
		{name: "game over", err: voice.ErrClosed, form: url.Values{"kind": {"listen"}}, status: http.StatusConflict, message: "voice.closed"},
		{name: "not a player", err: play.ErrNotPlayer, form: url.Values{"kind": {"listen"}}, status: http.StatusForbidden, message: "error.game.not_player"},
		{name: "bad mline", form: url.Values{"kind": {"candidate"}, "mline": {"x"}}, status: http.StatusBadRequest, message: "error.bad_request"},
		{name: "store down", err: errors.New("store: disk I/O error"), form: url.Values{"kind": {"offer"}}, status: http.StatusInternalServerError, message: "error.internal"},
		{name: "store past its deadline", err: context.DeadlineExceeded, form: url.Values{"kind": {"offer"}}, status: http.StatusServiceUnavailable, message: "error.unavailable"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := newGameEnv(t, testSnapshot(t, time.Now(), "e2e4"))
			e.games.setErr("Signal", tc.err)
			resp := e.do(t, gameReq{method: http.MethodPost, target: "/games/7/voice", as: &bora, form: tc.form, lang: tc.lang})
			body := readBody(t, resp)
			if resp.StatusCode != tc.status {
				t.Fatalf("POST voice = %d, want %d: %s", resp.StatusCode, tc.status, body)
			}
			if tc.message == "" {
				if body != "" {
					t.Errorf("%d with a body: %q", resp.StatusCode, body)
				}
				return
			}
			lang := tc.lang
			if lang == "" {
				lang = "en"
			}
			if want := text(t, lang, tc.message); body != want {
				t.Errorf("answer = %q, want %q", body, want)
			}
			if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/plain") {
				t.Errorf("Content-Type = %q, want plain text", ct)
			}
		})
	}
}

// voiceEnv is the voice chat on the real service and store: ayse (VIP)
// and bora play a private game, cemil watches.
type voiceEnv struct {
	srv   *httptest.Server
	games *play.Service
	id    int64
}

func newVoiceEnv(t *testing.T) *voiceEnv {
	t.Helper()
	ctx := context.Background()
	st, err := store.Open(ctx, filepath.Join(t.TempDir(), "satranc.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	for _, u := range []account.User{ayse, bora, cemil} {
		got, err := st.CreateUser(ctx, account.NewUser{Name: u.Name, PasswordHash: "x", Language: "en"})
		if err != nil || got.ID != u.ID {
			t.Fatalf("create %s: %+v, %v", u.Name, got, err)
		}
	}
	if err := st.SetVIP(ctx, ayse.Name, true); err != nil {
		t.Fatal(err)
	}
	games := play.New(play.Config{Store: st, Logger: slog.New(slog.DiscardHandler)})
	t.Cleanup(games.Close)
	id, token, err := games.CreatePrivateGame(ctx, ayse.ID, clock.MustParse("5+0"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := games.JoinPrivateGame(ctx, bora.ID, token); err != nil {
		t.Fatal(err)
	}
	accounts := &fakeAccounts{users: []account.User{ayse, bora, cemil}}
	h := New(Config{Logger: slog.New(slog.DiscardHandler), Accounts: accounts, Users: accounts, Games: games, Chat: games, Voice: games})
	srv := serveRoutes(h, nil)
	t.Cleanup(srv.Close)
	return &voiceEnv{srv: srv, games: games, id: id}
}

// post sends a voice signal as user and returns the status and answer.
func (e *voiceEnv) post(t *testing.T, user account.User, form url.Values) (int, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, e.srv.URL+"/games/"+strconv.FormatInt(e.id, 10)+"/voice", strings.NewReader(form.Encode()))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.AddCookie(&http.Cookie{Name: sessionCookie, Value: "tok-" + user.Name})
	resp, err := e.srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	return resp.StatusCode, readBody(t, resp)
}

// voiceSDP is an audio description with the direction dir, as a browser
// writes it (abridged).
func voiceSDP(dir string) string {
	return strings.Join([]string{
		"v=0", "o=- 46117 2 IN IP4 127.0.0.1", "s=-", "t=0 0", "a=group:BUNDLE 0",
		"m=audio 9 UDP/TLS/RTP/SAVPF 111", "c=IN IP4 0.0.0.0", "a=mid:0", "a=" + dir, "a=rtpmap:111 opus/48000/2",
	}, "\r\n") + "\r\n"
}

// nextVoice returns the data of the next voice event of s, skipping the
// others, or reports false if none comes within wait.
func nextVoice(t *testing.T, s *stream, wait time.Duration) (voiceMessage, bool) {
	t.Helper()
	timeout := time.After(wait)
	for {
		select {
		case ev, ok := <-s.events:
			if !ok {
				t.Fatal("the stream ended")
			}
			if ev.name != views.EventVoice {
				continue
			}
			if ev.id != "" {
				t.Errorf("voice event with id %q", ev.id)
			}
			var m voiceMessage
			if err := json.Unmarshal([]byte(ev.data), &m); err != nil {
				t.Fatalf("voice event data %q: %v", ev.data, err)
			}
			return m, true
		case <-timeout:
			return voiceMessage{}, false
		}
	}
}

// TestGameVoiceRelay: on the real service, the server relays a VIP's
// offer, a listener's answer and candidates to the opponent's stream only
// (never back, never to a spectator), and refuses a non-VIP's offer to
// send audio, with the localised message, relaying nothing of it.
func TestGameVoiceRelay(t *testing.T) {
	e := newVoiceEnv(t)
	streams := map[string]*stream{}
	for _, u := range []account.User{ayse, bora, cemil} {
		s := openGameStream(t, e.srv, e.id, u)
		defer s.close(t)
		s.next(t) // the snapshot: the stream is subscribed
		streams[u.Name] = s
	}

	const conn = "ayse-conn-0001"
	offer := url.Values{"kind": {"offer"}, "conn": {conn}, "sdp": {voiceSDP("sendonly")}}
	if status, body := e.post(t, ayse, offer); status != http.StatusNoContent {
		t.Fatalf("VIP's offer = %d %q, want 204", status, body)
	}
	got, ok := nextVoice(t, streams["bora"], sseTimeout)
	if !ok || got.Kind != voice.Offer || got.Conn != conn || got.SDP != voiceSDP("sendonly") {
		t.Fatalf("bora's voice event = %+v, %v; want ayse's offer", got, ok)
	}

	answer := url.Values{"kind": {"answer"}, "conn": {conn}, "sdp": {voiceSDP("recvonly")}}
	if status, body := e.post(t, bora, answer); status != http.StatusNoContent {
		t.Fatalf("non-VIP's listening answer = %d %q, want 204", status, body)
	}
	cand := url.Values{"kind": {"candidate"}, "conn": {conn}, "candidate": {"candidate:1 1 udp 2122260223 192.0.2.2 50000 typ host"}, "mid": {"0"}, "mline": {"0"}}
	if status, body := e.post(t, bora, cand); status != http.StatusNoContent {
		t.Fatalf("candidate = %d %q, want 204", status, body)
	}
	if got, ok := nextVoice(t, streams["ayse"], sseTimeout); !ok || got.Kind != voice.Answer || got.SDP != voiceSDP("recvonly") {
		t.Fatalf("ayse's first voice event = %+v, %v; want bora's answer", got, ok)
	}
	if got, ok := nextVoice(t, streams["ayse"], sseTimeout); !ok || got.Kind != voice.Candidate || got.Mid != "0" || !strings.HasPrefix(got.Candidate, "candidate:1 ") {
		t.Fatalf("ayse's second voice event = %+v, %v; want bora's candidate", got, ok)
	}

	// Refused: bora (not VIP) offering to send, in either spelling, and
	// answering to send; nothing of it reaches ayse.
	for _, dir := range []string{"sendonly", "sendrecv"} {
		status, body := e.post(t, bora, url.Values{"kind": {"offer"}, "conn": {"bora-conn-0001"}, "sdp": {voiceSDP(dir)}})
		if status != http.StatusForbidden || body != text(t, "en", "voice.not_vip") {
			t.Errorf("non-VIP's %s offer = %d %q, want 403 and the VIP message", dir, status, body)
		}
	}
	if status, _ := e.post(t, bora, url.Values{"kind": {"answer"}, "conn": {conn}, "sdp": {voiceSDP("sendrecv")}}); status != http.StatusForbidden {
		t.Errorf("non-VIP's sendrecv answer = %d, want 403", status)
	}
	if status, _ := e.post(t, cemil, url.Values{"kind": {"listen"}}); status != http.StatusForbidden {
		t.Errorf("spectator's signal = %d, want 403", status)
	}
	if status, _ := e.post(t, ayse, url.Values{"kind": {"offer"}, "conn": {conn}, "sdp": {strings.Repeat("x", voice.MaxSDP+1)}}); status != http.StatusUnprocessableEntity {
		t.Errorf("oversized offer = %d, want 422", status)
	}
	// The next thing ayse hears of is bora's listen, after the refusals.
	if status, body := e.post(t, bora, url.Values{"kind": {"listen"}}); status != http.StatusNoContent {
		t.Fatalf("listen = %d %q", status, body)
	}
	if got, ok := nextVoice(t, streams["ayse"], sseTimeout); !ok || got.Kind != voice.Listen {
		t.Errorf("ayse's voice event after the refusals = %+v, %v; want bora's listen", got, ok)
	}

	// Nobody got their own signals back, and the spectator got nothing.
	// (The streams are read in order: a voice event would have come
	// before the panel that follows a move.)
	snap, err := e.games.Game(context.Background(), e.id)
	if err != nil {
		t.Fatal(err)
	}
	if err := e.games.Move(context.Background(), e.id, snap.White.User, "e2e4", chess.English, 0); err != nil {
		t.Fatal(err)
	}
	for name, s := range map[string]*stream{"cemil": streams["cemil"], "bora": streams["bora"]} {
		for {
			ev := <-s.events
			if ev.name == views.EventVoice {
				t.Errorf("%s got a voice event: %s", name, ev.data)
			}
			if ev.name == views.EventGame && panelPly(t, ev) == "1" {
				break
			}
		}
	}

	// Over the game, the voice chat closes.
	if err := e.games.Resign(context.Background(), e.id, bora.ID); err != nil {
		t.Fatal(err)
	}
	if status, body := e.post(t, ayse, offer); status != http.StatusConflict || body != text(t, "en", "voice.closed") {
		t.Errorf("offer after the game = %d %q, want 409 and the closed message", status, body)
	}
}

func TestParseICEServers(t *testing.T) {
	tests := []struct {
		in   string
		want string // as the page gets it; "" for an error
	}{
		{"", "[]"},
		{"stun:stun.example.org:3478", `[{"urls":["stun:stun.example.org:3478"]}]`},
		{"stun:a.example:3478, stuns:b.example", `[{"urls":["stun:a.example:3478"]},{"urls":["stuns:b.example"]}]`},
		{`[{"urls":["turn:t.example:3478?transport=udp","turns:t.example:443"],"username":"u","credential":"p"}]`,
			`[{"urls":["turn:t.example:3478?transport=udp","turns:t.example:443"],"username":"u","credential":"p"}]`},
		{"turn:t.example:3478", ""}, // TURN needs credentials
		{"http://stun.example", ""},
		{"stun", ""},
		{`[{"urls":[]}]`, ""},
		{`[{"url":"stun:x"}]`, ""}, // unknown field
		{`[{"urls":`, ""},
	}
	for _, tc := range tests {
		servers, err := ParseICEServers(tc.in)
		if tc.want == "" {
			if err == nil || !errors.Is(err, errICEServers) {
				t.Errorf("ParseICEServers(%q) = %v, %v; want an error", tc.in, servers, err)
			}
			continue
		}
		if err != nil || iceServersJSON(servers) != tc.want {
			t.Errorf("ParseICEServers(%q) = %s, %v; want %s", tc.in, iceServersJSON(servers), err, tc.want)
		}
	}
}

func TestGameVoicePageTurkish(t *testing.T) {
	e := newGameEnv(t, testSnapshot(t, time.Now(), "e2e4"))
	e.games.setVIP(ayse.ID)
	doc := parse(t, e.do(t, gameReq{target: "/games/7", as: &ayse, lang: "tr"}))
	for id, key := range map[string]string{"voice-speak": "voice.start", "voice-listen": "voice.listen", "voice-listen-state": "voice.listen_off"} {
		if got, want := strings.TrimSpace(testid(doc, id).Text()), text(t, "tr", key); got != want {
			t.Errorf("%s = %q, want %q", id, got, want)
		}
	}
	if got := doc.Find(`[data-voice-text="speak_live"]`).Text(); got != text(t, "tr", "voice.speak_live") {
		t.Errorf("voice.js's text speak_live = %q", got)
	}
}
