package handlers

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"satranc/engine/chat"
	"satranc/engine/game"
	"satranc/engine/play"
)

// fakeChat is the chat of a fakeGames, kept beside it so that the shared
// fake needs no fields for it.
type fakeChat struct {
	mu    sync.Mutex
	msgs  []chat.Message
	mutes map[int64]bool // by user
}

var fakeChats sync.Map // *fakeGames → *fakeChat

func (f *fakeGames) chat() *fakeChat {
	c, _ := fakeChats.LoadOrStore(f, &fakeChat{mutes: make(map[int64]bool)})
	return c.(*fakeChat)
}

// Chat checks the message and the player as engine/play does, then stores
// the message and publishes ChatPosted. setErr("Chat", err) makes it fail.
func (f *fakeGames) Chat(ctx context.Context, id, user int64, text string) error {
	if err := f.record(call{method: "Chat", game: id, user: user, text: text}); err != nil {
		return err
	}
	body, err := chat.Clean(text)
	if err != nil {
		return err
	}
	snap, err := f.Game(ctx, id)
	if err != nil {
		return err
	}
	side, ok := snap.SideOf(user)
	if !ok {
		return fmt.Errorf("fake: chat: %w", play.ErrNotPlayer)
	}
	c := f.chat()
	c.mu.Lock()
	c.msgs = append(c.msgs, chat.Message{GameID: id, User: user, Body: body, At: time.Now()})
	c.mu.Unlock()
	f.hub.Publish(id, &play.Event{GameID: id, Payload: play.ChatPosted{Stamp: game.Stamp{Ply: snap.Ply}, From: side}})
	return nil
}

func (f *fakeGames) ChatLog(_ context.Context, id int64) ([]chat.Message, error) {
	c := f.chat()
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []chat.Message
	for _, m := range c.msgs {
		if m.GameID == id {
			out = append(out, m)
		}
	}
	return out, nil
}

func (f *fakeGames) ToggleChatMute(ctx context.Context, id, user int64) (bool, error) {
	snap, err := f.Game(ctx, id)
	if err != nil {
		return false, err
	}
	if _, ok := snap.SideOf(user); !ok {
		return false, fmt.Errorf("fake: mute: %w", play.ErrNotPlayer)
	}
	c := f.chat()
	c.mu.Lock()
	defer c.mu.Unlock()
	c.mutes[user] = !c.mutes[user]
	return c.mutes[user], nil
}

func (f *fakeGames) ChatMuted(_, user int64) bool {
	c := f.chat()
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.mutes[user]
}

func chatForm(text string) url.Values { return url.Values{"text": {text}} }

func TestGameChatResponses(t *testing.T) {
	tests := []struct {
		name    string
		err     error // of Chat
		text    string
		htmx    bool
		status  int
		message string // message id shown, if any
	}{
		{name: "htmx ok", text: "hi", htmx: true, status: http.StatusNoContent},
		{name: "form ok", text: "hi", status: http.StatusSeeOther},
		{name: "htmx empty", text: "  ", htmx: true, status: http.StatusUnprocessableEntity, message: "chat.empty"},
		{name: "htmx too long", text: strings.Repeat("a", 141), htmx: true, status: http.StatusUnprocessableEntity, message: "chat.too_long"},
		{name: "htmx control", text: "a\x00b", htmx: true, status: http.StatusUnprocessableEntity, message: "chat.invalid"},
		{name: "htmx flood", err: chat.ErrFlood, text: "hi", htmx: true, status: http.StatusTooManyRequests, message: "chat.flood"},
		{name: "form flood", err: chat.ErrFlood, text: "hi", status: http.StatusTooManyRequests, message: "chat.flood"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := newGameEnv(t, testSnapshot(t, time.Now(), "e2e4"))
			if tc.err != nil {
				e.games.setErr("Chat", tc.err)
			}
			resp := e.do(t, gameReq{method: http.MethodPost, target: "/games/7/chat", as: &ayse, form: chatForm(tc.text), htmx: tc.htmx})
			body := readBody(t, resp)
			if resp.StatusCode != tc.status {
				t.Fatalf("status %d, want %d: %s", resp.StatusCode, tc.status, body)
			}
			if tc.message == "" {
				return
			}
			if want := text(t, "en", tc.message); !strings.Contains(body, want) {
				t.Errorf("body lacks %q: %s", want, body)
			}
			if tc.htmx && strings.Contains(body, "<html") {
				t.Errorf("htmx got a page, want the notice alone")
			}
			if !tc.htmx && !strings.Contains(body, `data-testid="chat-form"`) {
				t.Errorf("plain form got no game page")
			}
			if tc.status == http.StatusTooManyRequests && resp.Header.Get("Retry-After") == "" {
				t.Error("no Retry-After")
			}
		})
	}
}

func TestGameChatPlayersOnly(t *testing.T) {
	e := newGameEnv(t, testSnapshot(t, time.Now(), "e2e4"))
	const evil = `<script>alert(1)</script>`
	if resp := e.do(t, gameReq{method: http.MethodPost, target: "/games/7/chat", as: &ayse, form: chatForm(evil), htmx: true}); resp.StatusCode != http.StatusNoContent {
		t.Fatalf("ayse's chat: %d", resp.StatusCode)
	}
	if resp := e.do(t, gameReq{method: http.MethodPost, target: "/games/7/chat", as: &bora, form: chatForm("merhaba"), htmx: true}); resp.StatusCode != http.StatusNoContent {
		t.Fatalf("bora's chat: %d", resp.StatusCode)
	}

	// The spectator can neither post, nor mute, nor see the chat.
	if resp := e.do(t, gameReq{method: http.MethodPost, target: "/games/7/chat", as: &cemil, form: chatForm("hello"), htmx: true}); resp.StatusCode != http.StatusForbidden {
		t.Errorf("spectator's chat: %d, want 403", resp.StatusCode)
	}
	if resp := e.do(t, gameReq{method: http.MethodPost, target: "/games/7/chat/mute", as: &cemil}); resp.StatusCode != http.StatusForbidden {
		t.Errorf("spectator's mute: %d, want 403", resp.StatusCode)
	}
	page := readBody(t, e.do(t, gameReq{target: "/games/7", as: &cemil}))
	for _, leak := range []string{"merhaba", "alert(1)", `data-testid="chat`} {
		if strings.Contains(page, leak) {
			t.Errorf("spectator's page contains %q", leak)
		}
	}

	// The players see both messages, the markup escaped.
	page = readBody(t, e.do(t, gameReq{target: "/games/7", as: &bora}))
	if strings.Contains(page, evil) {
		t.Error("the message's markup is not escaped")
	}
	for _, want := range []string{"&lt;script&gt;alert(1)&lt;/script&gt;", "merhaba", `data-testid="chat-form"`, ">ayse<"} {
		if !strings.Contains(page, want) {
			t.Errorf("bora's page lacks %q", want)
		}
	}

	// Muting hides the opponent's lines from bora only.
	if resp := e.do(t, gameReq{method: http.MethodPost, target: "/games/7/chat/mute", as: &bora}); resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("mute: %d", resp.StatusCode)
	}
	doc := parse(t, e.do(t, gameReq{target: "/games/7", as: &bora}))
	if n := testid(doc, "chat-line").Length(); n != 1 || !strings.Contains(testid(doc, "chat-text").Text(), "merhaba") || testid(doc, "chat-muted").Length() != 1 {
		t.Errorf("muted: %d lines %q", n, testid(doc, "chat-log").Text())
	}
	doc = parse(t, e.do(t, gameReq{target: "/games/7", as: &ayse}))
	if n := testid(doc, "chat-line").Length(); n != 2 {
		t.Errorf("ayse sees %d lines, want 2", n)
	}
}

// TestGameEventsChat: a chat message redraws the players' panels with it;
// a spectator's stream skips the chat event altogether.
func TestGameEventsChat(t *testing.T) {
	games := newFakeGames(testSnapshot(t, time.Now(), "e2e4"))
	srv := newEventsServer(t, games)
	defer srv.Close()
	player, spectator := openStream(t, srv, bora), openStream(t, srv, cemil)
	defer player.close(t)
	defer spectator.close(t)
	player.next(t)
	spectator.next(t)
	waitUser(t, games.connected, "connection")

	if err := games.Chat(context.Background(), testGameID, ayse.ID, "good luck <3"); err != nil {
		t.Fatal(err)
	}
	if ev := player.next(t); !strings.Contains(ev.data, "good luck &lt;3") {
		t.Errorf("the player's panel lacks the message: %.300s", ev.data)
	}

	// The next move reaches the spectator as the first event after the chat
	// (given time to draw the chat, a stream that did would show ply 1).
	time.Sleep(100 * time.Millisecond)
	games.setSnap(testSnapshot(t, time.Now(), "e2e4", "e7e5"))
	games.hub.Publish(testGameID, &play.Event{GameID: testGameID, Payload: game.Moved{Stamp: game.Stamp{Ply: 2}}})
	ev := spectator.next(t)
	if ply := panelPly(t, ev); ply != "2" {
		t.Errorf("the spectator got a panel at ply %s after the chat, want only the move's (2)", ply)
	}
	if strings.Contains(ev.data, "good luck") || strings.Contains(ev.data, `data-testid="chat`) {
		t.Error("the spectator's stream carries the chat")
	}
}

// TestGameChatInvisible: a line holding a right-to-left override (and
// zero-width characters) is stored and shown without them, so it does not
// show reversed; a line of nothing else is refused as empty.
func TestGameChatInvisible(t *testing.T) {
	e := newGameEnv(t, testSnapshot(t, time.Now(), "e2e4"))
	const sent = "iyi \u202Esnuyo\u200B"
	if resp := e.do(t, gameReq{method: http.MethodPost, target: "/games/7/chat", as: &ayse, form: chatForm(sent), htmx: true}); resp.StatusCode != http.StatusNoContent {
		t.Fatalf("chat: %d", resp.StatusCode)
	}
	msgs, err := e.games.ChatLog(context.Background(), 7)
	if err != nil || len(msgs) != 1 || msgs[0].Body != "iyi snuyo" {
		t.Fatalf("stored %+v, %v; want one line %q", msgs, err, "iyi snuyo")
	}
	page := readBody(t, e.do(t, gameReq{target: "/games/7", as: &bora}))
	if strings.ContainsAny(page, "\u202E\u200B") {
		t.Error("the page shows an invisible character")
	}
	doc := parse(t, e.do(t, gameReq{target: "/games/7", as: &bora}))
	if got := strings.TrimSpace(testid(doc, "chat-text").Text()); got != "iyi snuyo" {
		t.Errorf("shown %q, want %q", got, "iyi snuyo")
	}

	resp := e.do(t, gameReq{method: http.MethodPost, target: "/games/7/chat", as: &ayse, form: chatForm("\u202E\u2066\u200F"), htmx: true})
	if body := readBody(t, resp); resp.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(body, text(t, "en", "chat.empty")) {
		t.Errorf("a line of invisible characters: %d %s, want 422 chat.empty", resp.StatusCode, body)
	}
}
