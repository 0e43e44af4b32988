package store

import (
	"context"
	"errors"
	"testing"
	"time"

	"satranc/engine/clock"
	"satranc/engine/game"
	"satranc/engine/play"
)

func TestChatMessages(t *testing.T) {
	s, _ := mustOpen(t)
	mustUsers(t, s, 2)
	ctx := context.Background()
	id, err := s.CreateGame(ctx, play.GameRecord{
		Kind: play.Private, White: game.Human(1), Control: clock.MustParse("3+2"),
		Status: game.Waiting, InviteToken: "tok", CreatedAt: gameT0,
	})
	if err != nil {
		t.Fatal(err)
	}
	if msgs, err := s.ChatMessages(ctx, id); err != nil || len(msgs) != 0 {
		t.Fatalf("ChatMessages of a quiet game = %v, %v", msgs, err)
	}
	want := []play.ChatMessage{
		{GameID: id, User: 1, Body: "hello <b>", At: gameT0.Add(time.Second)},
		{GameID: id, User: 2, Body: "merhaba şah", At: gameT0.Add(time.Second)},
		{GameID: id, User: 1, Body: "gg", At: gameT0.Add(2 * time.Second)},
	}
	for _, m := range want {
		if err := s.AddChatMessage(ctx, m); err != nil {
			t.Fatal(err)
		}
	}
	got, err := s.ChatMessages(ctx, id)
	if err != nil || len(got) != len(want) {
		t.Fatalf("ChatMessages = %v, %v", got, err)
	}
	for i := range want {
		if got[i].ID == 0 || got[i].GameID != id || got[i].User != want[i].User || got[i].Body != want[i].Body || !got[i].At.Equal(want[i].At) {
			t.Errorf("message %d = %+v, want %+v", i, got[i], want[i])
		}
	}
	if msgs, err := s.ChatMessages(ctx, id+1); err != nil || len(msgs) != 0 {
		t.Errorf("ChatMessages of another game = %v, %v", msgs, err)
	}
	err = s.AddChatMessage(ctx, play.ChatMessage{GameID: id + 1, User: 1, Body: "x", At: gameT0})
	if !errors.Is(err, ErrNotFound) || !errors.Is(err, play.ErrNotFound) {
		t.Errorf("AddChatMessage to no game = %v, want ErrNotFound", err)
	}
}
