package play

import (
	"context"
	"errors"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"satranc/engine/chess"
)

func TestCleanChat(t *testing.T) {
	tests := []struct {
		name, text, want string
		err              error
	}{
		{"plain", "good luck", "good luck", nil},
		{"trimmed", "  gg \n", "gg", nil},
		{"empty", "", "", ErrChatEmpty},
		{"spaces", " \t ", "", ErrChatEmpty},
		{"140 runes", strings.Repeat("ş", 140), strings.Repeat("ş", 140), nil},
		{"141 runes", strings.Repeat("ş", 141), "", ErrChatTooLong},
		{"control", "a\x07b", "", ErrChatInvalid},
		{"newline inside", "a\nb", "", ErrChatInvalid},
		{"bad utf-8", "a\xffb", "", ErrChatInvalid},
		{"markup kept", "<b>hi</b>", "<b>hi</b>", nil},
		{"right-to-left override stripped", "iyi \u202Esnuyo", "iyi snuyo", nil},
		{"zero-width stripped", "g\u200Bg\u200D", "gg", nil},
		{"isolates stripped", "\u2066gg\u2069", "gg", nil},
		{"marks and embeddings stripped", "\u200E\u200F\u202A\u202B\u202Cgg\u202D", "gg", nil},
		{"only invisible", "\u202E\u200B", "", ErrChatEmpty},
		{"invisible around spaces", "\u200B  gg  \u200B", "gg", nil},
		{"140 runes after stripping", strings.Repeat("ş\u200B", 140), strings.Repeat("ş", 140), nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := CleanChat(tc.text)
			if got != tc.want || !errors.Is(err, tc.err) || (tc.err == nil) != (err == nil) {
				t.Errorf("CleanChat(%q) = %q, %v; want %q, %v", tc.text, got, err, tc.want, tc.err)
			}
		})
	}
}

func TestChatLimiter(t *testing.T) {
	l := windowLimiter{burst: ChatBurst, window: ChatWindow}
	t0 := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	a, b := playerKey{1, 1}, playerKey{1, 2}
	for i := range ChatBurst {
		if !l.allow(a, t0.Add(time.Duration(i)*time.Second)) {
			t.Fatalf("message %d refused", i+1)
		}
	}
	if l.allow(a, t0.Add(5*time.Second)) {
		t.Error("6th message in 10 s allowed")
	}
	if !l.allow(b, t0.Add(5*time.Second)) {
		t.Error("the other player is limited too")
	}
	if l.allow(a, t0.Add(ChatWindow-time.Millisecond)) {
		t.Error("allowed before the first message left the window")
	}
	if !l.allow(a, t0.Add(ChatWindow)) {
		t.Error("refused once the first message left the window")
	}
	if l.allow(a, t0.Add(ChatWindow+500*time.Millisecond)) {
		t.Error("allowed while 5 messages are in the window")
	}
}

func TestChat(t *testing.T) {
	// In the bubble the clock moves only by Sleep: the flood window is exact.
	synctest.Test(t, testChat)
}

func testChat(t *testing.T) {
	ctx := context.Background()
	st := newMemStore()
	s := newService(st)
	defer s.Close()
	id, white, black := privateGame(t, s, "5+0")
	sub := s.Subscribe(id)
	defer sub.Close()

	if err := s.Chat(ctx, id, white, " hello "); err != nil {
		t.Fatal(err)
	}
	time.Sleep(time.Second)
	if err := s.Chat(ctx, id, black, "hi"); err != nil {
		t.Fatal(err)
	}
	for _, want := range []chess.Color{chess.White, chess.Black} {
		select {
		case ev := <-sub.C():
			if p, ok := ev.Payload.(ChatPosted); !ok || p.From != want {
				t.Errorf("event %#v, want ChatPosted from %v", ev.Payload, want)
			}
		case <-time.After(5 * time.Second):
			t.Fatal("no ChatPosted event")
		}
	}

	if err := s.Chat(ctx, id, 3, "spectating"); !errors.Is(err, ErrNotPlayer) {
		t.Errorf("spectator's Chat = %v, want ErrNotPlayer", err)
	}
	if err := s.Chat(ctx, id, white, strings.Repeat("x", ChatMaxRunes+1)); !errors.Is(err, ErrChatTooLong) {
		t.Errorf("long Chat = %v, want ErrChatTooLong", err)
	}
	if err := s.Chat(ctx, 99, white, "hi"); !errors.Is(err, ErrNotFound) {
		t.Errorf("Chat in no game = %v, want ErrNotFound", err)
	}
	for i := range ChatBurst - 1 {
		if err := s.Chat(ctx, id, white, "again"); err != nil {
			t.Fatalf("message %d: %v", i+2, err)
		}
	}
	if err := s.Chat(ctx, id, white, "flood"); !errors.Is(err, ErrChatFlood) {
		t.Errorf("6th Chat in 10 s = %v, want ErrChatFlood", err)
	}
	time.Sleep(ChatWindow)
	if err := s.Chat(ctx, id, white, "later"); err != nil {
		t.Errorf("Chat after the window: %v", err)
	}

	log, err := s.ChatLog(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, m := range log {
		got = append(got, m.Body)
	}
	want := "hello hi again again again again later"
	if strings.Join(got, " ") != want {
		t.Errorf("ChatLog = %q, want %q", got, want)
	}
	if log[0].User != white || log[1].User != black || !log[1].At.After(log[0].At) {
		t.Errorf("ChatLog = %+v", log[:2])
	}
}

func TestChatAfterGameAndMute(t *testing.T) {
	ctx := context.Background()
	s := newService(newMemStore())
	defer s.Close()
	id, white, black := privateGame(t, s, "5+0")
	if err := s.Resign(ctx, id, white); err != nil {
		t.Fatal(err)
	}
	if err := s.Chat(ctx, id, black, "gg"); err != nil {
		t.Errorf("Chat after the game: %v", err)
	}

	if s.ChatMuted(id, white) {
		t.Error("muted from the start")
	}
	if m, err := s.ToggleChatMute(ctx, id, white); err != nil || !m || !s.ChatMuted(id, white) {
		t.Errorf("ToggleChatMute = %v, %v; want muted", m, err)
	}
	if s.ChatMuted(id, black) {
		t.Error("the mute is not per viewer")
	}
	if m, err := s.ToggleChatMute(ctx, id, white); err != nil || m || s.ChatMuted(id, white) {
		t.Errorf("second ToggleChatMute = %v, %v; want unmuted", m, err)
	}
	if _, err := s.ToggleChatMute(ctx, id, 3); !errors.Is(err, ErrNotPlayer) {
		t.Errorf("spectator's ToggleChatMute = %v, want ErrNotPlayer", err)
	}
}
