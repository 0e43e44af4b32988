package play

import (
	"context"
	"errors"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"satranc/engine/chat"
	"satranc/engine/chess"
)

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
	if err := s.Chat(ctx, id, white, strings.Repeat("x", chat.MaxRunes+1)); !errors.Is(err, chat.ErrTooLong) {
		t.Errorf("long Chat = %v, want chat.ErrTooLong", err)
	}
	if err := s.Chat(ctx, 99, white, "hi"); !errors.Is(err, ErrNotFound) {
		t.Errorf("Chat in no game = %v, want ErrNotFound", err)
	}
	for i := range chat.Burst - 1 {
		if err := s.Chat(ctx, id, white, "again"); err != nil {
			t.Fatalf("message %d: %v", i+2, err)
		}
	}
	if err := s.Chat(ctx, id, white, "flood"); !errors.Is(err, chat.ErrFlood) {
		t.Errorf("6th Chat in 10 s = %v, want chat.ErrFlood", err)
	}
	time.Sleep(chat.Window)
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
