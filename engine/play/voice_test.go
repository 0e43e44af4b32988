package play

import (
	"context"
	"errors"
	"testing"
	"testing/synctest"
	"time"

	"satranc/engine/chess"
	"satranc/engine/clock"
	"satranc/engine/game"
	"satranc/engine/voice"
	"satranc/engine/voice/voicetest"
)

var audioSDP = voicetest.AudioSDP

// nextVoice returns the next VoiceSignalled on sub, skipping other events,
// or fails after 5 s.
func nextVoice(t *testing.T, c <-chan *Event) VoiceSignalled {
	t.Helper()
	for {
		select {
		case ev := <-c:
			if v, ok := ev.Payload.(VoiceSignalled); ok {
				return v
			}
		case <-time.After(5 * time.Second):
			t.Fatal("no VoiceSignalled event")
		}
	}
}

func TestSignal(t *testing.T) {
	ctx := context.Background()
	st := newMemStore()
	s := newService(st)
	defer s.Close()
	id, white, black := privateGame(t, s, "5+0")
	st.setVIP(white, true)
	sub := s.Subscribe(id)
	defer sub.Close()

	offer := voice.Signal{Kind: voice.Offer, Conn: "white-conn-1", SDP: audioSDP("sendonly")}
	if err := s.Signal(ctx, id, white, offer); err != nil {
		t.Fatalf("VIP's offer: %v", err)
	}
	if got := nextVoice(t, sub.C()); got.From != chess.White || got.Signal != offer {
		t.Errorf("relayed %+v, want white's offer", got)
	}
	answer := voice.Signal{Kind: voice.Answer, Conn: "white-conn-1", SDP: audioSDP("recvonly")}
	if err := s.Signal(ctx, id, black, answer); err != nil {
		t.Fatalf("non-VIP's listening answer: %v", err)
	}
	if got := nextVoice(t, sub.C()); got.From != chess.Black || got.Signal != answer {
		t.Errorf("relayed %+v, want black's answer", got)
	}

	// What black may not send, and nothing of it is relayed.
	refused := []struct {
		name string
		user int64
		sig  voice.Signal
		err  error
	}{
		{"non-VIP offers to send", black, voice.Signal{Kind: voice.Offer, Conn: "black-conn-1", SDP: audioSDP("sendonly")}, voice.ErrNotVIP},
		{"non-VIP offers sendrecv by default", black, voice.Signal{Kind: voice.Offer, Conn: "black-conn-1", SDP: audioSDP("")}, voice.ErrNotVIP},
		{"non-VIP answers sendrecv", black, voice.Signal{Kind: voice.Answer, Conn: "white-conn-1", SDP: audioSDP("sendrecv")}, voice.ErrNotVIP},
		{"spectator", 3, voice.Signal{Kind: voice.Listen}, ErrNotPlayer},
		{"no game", black, voice.Signal{Kind: voice.Listen}, ErrNotFound},
		{"video from a VIP", white, voice.Signal{Kind: voice.Offer, Conn: "white-conn-2", SDP: audioSDP("sendonly", "m=video 9 UDP/TLS/RTP/SAVPF 96")}, voice.ErrInvalid},
	}
	for _, tc := range refused {
		gameID := id
		if tc.name == "no game" {
			gameID = 99
		}
		if err := s.Signal(ctx, gameID, tc.user, tc.sig); !errors.Is(err, tc.err) {
			t.Errorf("%s: Signal = %v, want %v", tc.name, err, tc.err)
		}
	}
	// A VIP taken away counts at once.
	st.setVIP(white, false)
	if err := s.Signal(ctx, id, white, offer); !errors.Is(err, voice.ErrNotVIP) {
		t.Errorf("offer after the VIP was taken away = %v, want voice.ErrNotVIP", err)
	}
	// The next relayed signal is the one after the refusals.
	listen := voice.Signal{Kind: voice.Listen}
	if err := s.Signal(ctx, id, black, listen); err != nil {
		t.Fatal(err)
	}
	if got := nextVoice(t, sub.C()); got.Signal != listen {
		t.Errorf("relayed %+v after the refusals, want black's listen", got)
	}

	if err := s.Resign(ctx, id, white); err != nil {
		t.Fatal(err)
	}
	if err := s.Signal(ctx, id, black, listen); !errors.Is(err, voice.ErrClosed) {
		t.Errorf("Signal after the game = %v, want voice.ErrClosed", err)
	}
}

func TestSignalClosed(t *testing.T) {
	ctx := context.Background()
	st := newMemStore()
	s := newService(st)
	defer s.Close()
	st.setVIP(1, true)
	listen := voice.Signal{Kind: voice.Listen}

	waiting, _, err := s.CreatePrivateGame(ctx, 1, clock.MustParse("5+0"))
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Signal(ctx, waiting, 1, listen); !errors.Is(err, voice.ErrClosed) {
		t.Errorf("Signal before the friend joins = %v, want voice.ErrClosed", err)
	}
	practice, err := s.CreatePracticeGame(ctx, 1, game.Easy, clock.MustParse("5+0"), PlayWhite)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Signal(ctx, practice, 1, listen); !errors.Is(err, voice.ErrClosed) {
		t.Errorf("Signal against the computer = %v, want voice.ErrClosed", err)
	}
}

func TestSignalFlood(t *testing.T) {
	// In the bubble the clock moves only by Sleep: the window is exact.
	synctest.Test(t, func(t *testing.T) {
		ctx := context.Background()
		s := newService(newMemStore())
		defer s.Close()
		id, white, black := privateGame(t, s, "5+0")
		bye := voice.Signal{Kind: voice.Bye, Conn: "white-conn-1"}
		for i := range voice.Burst {
			if err := s.Signal(ctx, id, white, bye); err != nil {
				t.Fatalf("signal %d: %v", i+1, err)
			}
		}
		if err := s.Signal(ctx, id, white, bye); !errors.Is(err, voice.ErrFlood) {
			t.Errorf("signal %d in the window = %v, want voice.ErrFlood", voice.Burst+1, err)
		}
		if err := s.Signal(ctx, id, black, bye); err != nil {
			t.Errorf("the opponent is limited too: %v", err)
		}
		time.Sleep(voice.Window)
		if err := s.Signal(ctx, id, white, bye); err != nil {
			t.Errorf("signal after the window: %v", err)
		}
	})
}
