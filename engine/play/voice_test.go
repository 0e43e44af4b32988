package play

import (
	"context"
	"errors"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"satranc/engine/chess"
	"satranc/engine/clock"
	"satranc/engine/game"
)

// audioSDP returns a description like Chromium's for one audio section
// with the direction line dir ("" for none), and extra lines appended.
func audioSDP(dir string, extra ...string) string {
	lines := []string{
		"v=0",
		"o=- 4611731400430051336 2 IN IP4 127.0.0.1",
		"s=-",
		"t=0 0",
		"a=group:BUNDLE 0",
		"a=msid-semantic: WMS",
		"m=audio 9 UDP/TLS/RTP/SAVPF 111 63 9 0 8 13 110 126",
		"c=IN IP4 0.0.0.0",
		"a=rtcp:9 IN IP4 0.0.0.0",
		"a=ice-ufrag:Ab3x",
		"a=ice-pwd:0123456789abcdefghijklmn",
		"a=fingerprint:sha-256 5D:2F:00:11:22:33:44:55:66:77:88:99:AA:BB:CC:DD:EE:FF:00:11:22:33:44:55:66:77:88:99:AA:BB:CC:DD",
		"a=setup:actpass",
		"a=mid:0",
	}
	if dir != "" {
		lines = append(lines, "a="+dir)
	}
	lines = append(lines, "a=rtcp-mux", "a=rtpmap:111 opus/48000/2", "a=fmtp:111 minptime=10;useinbandfec=1")
	lines = append(lines, extra...)
	return strings.Join(lines, "\r\n") + "\r\n"
}

func TestSDPSendsAudio(t *testing.T) {
	tests := []struct {
		name  string
		sdp   string
		sends bool
		err   error
	}{
		{"sendonly offer", audioSDP("sendonly"), true, nil},
		{"sendrecv", audioSDP("sendrecv"), true, nil},
		{"no direction means sendrecv", audioSDP(""), true, nil},
		{"recvonly answer", audioSDP("recvonly"), false, nil},
		{"inactive", audioSDP("inactive"), false, nil},
		{"session recvonly, no media direction", strings.Replace(audioSDP(""), "t=0 0", "t=0 0\r\na=recvonly", 1), false, nil},
		{"session recvonly, media sendonly", strings.Replace(audioSDP("sendonly"), "t=0 0", "t=0 0\r\na=recvonly", 1), true, nil},
		{"rejected section (port 0)", strings.Replace(audioSDP("sendrecv"), "m=audio 9", "m=audio 0", 1), false, nil},
		{"second audio section sends", audioSDP("recvonly", "m=audio 9 UDP/TLS/RTP/SAVPF 111", "a=mid:1", "a=sendonly"), true, nil},
		{"LF line ends", strings.ReplaceAll(audioSDP("recvonly"), "\r\n", "\n"), false, nil},
		{"video", audioSDP("recvonly", "m=video 9 UDP/TLS/RTP/SAVPF 96", "a=recvonly"), false, ErrVoiceInvalid},
		{"data channel", audioSDP("recvonly", "m=application 9 UDP/DTLS/SCTP webrtc-datachannel"), false, ErrVoiceInvalid},
		{"no media", "v=0\r\no=- 1 2 IN IP4 127.0.0.1\r\ns=-\r\nt=0 0\r\n", false, ErrVoiceInvalid},
		{"not SDP", "hello", false, ErrVoiceInvalid},
		{"empty", "", false, ErrVoiceInvalid},
		{"short media line", audioSDP("recvonly", "m=audio 9"), false, ErrVoiceInvalid},
		{"control character", audioSDP("recvonly", "a=x\x00y"), false, ErrVoiceInvalid},
		{"line without =", audioSDP("recvonly", "garbage"), false, ErrVoiceInvalid},
		{"too big", audioSDP("recvonly", "a=x:"+strings.Repeat("y", VoiceMaxSDP)), false, ErrVoiceInvalid},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			sends, err := sdpSendsAudio(tc.sdp)
			if sends != tc.sends || !errors.Is(err, tc.err) || (tc.err == nil) != (err == nil) {
				t.Errorf("sdpSendsAudio = %v, %v; want %v, %v", sends, err, tc.sends, tc.err)
			}
		})
	}
}

func TestVoiceSignalCheck(t *testing.T) {
	const conn = "c0ffee-1234"
	cand := "candidate:842163049 1 udp 1677729535 192.0.2.7 46154 typ srflx raddr 0.0.0.0 rport 0 generation 0"
	tests := []struct {
		name string
		sig  VoiceSignal
		ok   bool
	}{
		{"offer", VoiceSignal{Kind: VoiceOffer, Conn: conn, SDP: audioSDP("sendonly")}, true},
		{"answer", VoiceSignal{Kind: VoiceAnswer, Conn: conn, SDP: audioSDP("recvonly")}, true},
		{"candidate", VoiceSignal{Kind: VoiceCandidate, Conn: conn, Candidate: cand, Mid: "0"}, true},
		{"listen", VoiceSignal{Kind: VoiceListen}, true},
		{"bye", VoiceSignal{Kind: VoiceBye, Conn: conn}, true},
		{"unknown kind", VoiceSignal{Kind: "shout", Conn: conn}, false},
		{"offer without description", VoiceSignal{Kind: VoiceOffer, Conn: conn}, false},
		{"no connection", VoiceSignal{Kind: VoiceOffer, SDP: audioSDP("sendonly")}, false},
		{"short connection", VoiceSignal{Kind: VoiceBye, Conn: "abc"}, false},
		{"connection with a space", VoiceSignal{Kind: VoiceBye, Conn: "abc def ghi"}, false},
		{"long connection", VoiceSignal{Kind: VoiceBye, Conn: strings.Repeat("a", 65)}, false},
		{"candidate not a candidate", VoiceSignal{Kind: VoiceCandidate, Conn: conn, Candidate: "hello"}, false},
		{"candidate too long", VoiceSignal{Kind: VoiceCandidate, Conn: conn, Candidate: "candidate:" + strings.Repeat("1", VoiceMaxCandidate)}, false},
		{"candidate with a line break", VoiceSignal{Kind: VoiceCandidate, Conn: conn, Candidate: cand + "\r\na=x"}, false},
		{"candidate bad index", VoiceSignal{Kind: VoiceCandidate, Conn: conn, Candidate: cand, MLine: -1}, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := tc.sig.check()
			if (err == nil) != tc.ok || (err != nil && !errors.Is(err, ErrVoiceInvalid)) {
				t.Errorf("check() = %v, want ok %v", err, tc.ok)
			}
		})
	}
}

// nextVoice returns the next VoiceSignalled on sub, skipping other events,
// or fails after 5 s.
func nextVoice(t *testing.T, c <-chan Event) VoiceSignalled {
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

	offer := VoiceSignal{Kind: VoiceOffer, Conn: "white-conn-1", SDP: audioSDP("sendonly")}
	if err := s.Signal(ctx, id, white, offer); err != nil {
		t.Fatalf("VIP's offer: %v", err)
	}
	if got := nextVoice(t, sub.C()); got.From != chess.White || got.Signal != offer {
		t.Errorf("relayed %+v, want white's offer", got)
	}
	answer := VoiceSignal{Kind: VoiceAnswer, Conn: "white-conn-1", SDP: audioSDP("recvonly")}
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
		sig  VoiceSignal
		err  error
	}{
		{"non-VIP offers to send", black, VoiceSignal{Kind: VoiceOffer, Conn: "black-conn-1", SDP: audioSDP("sendonly")}, ErrVoiceNotVIP},
		{"non-VIP offers sendrecv by default", black, VoiceSignal{Kind: VoiceOffer, Conn: "black-conn-1", SDP: audioSDP("")}, ErrVoiceNotVIP},
		{"non-VIP answers sendrecv", black, VoiceSignal{Kind: VoiceAnswer, Conn: "white-conn-1", SDP: audioSDP("sendrecv")}, ErrVoiceNotVIP},
		{"spectator", 3, VoiceSignal{Kind: VoiceListen}, ErrNotPlayer},
		{"no game", black, VoiceSignal{Kind: VoiceListen}, ErrNotFound},
		{"video from a VIP", white, VoiceSignal{Kind: VoiceOffer, Conn: "white-conn-2", SDP: audioSDP("sendonly", "m=video 9 UDP/TLS/RTP/SAVPF 96")}, ErrVoiceInvalid},
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
	if err := s.Signal(ctx, id, white, offer); !errors.Is(err, ErrVoiceNotVIP) {
		t.Errorf("offer after the VIP was taken away = %v, want ErrVoiceNotVIP", err)
	}
	// The next relayed signal is the one after the refusals.
	listen := VoiceSignal{Kind: VoiceListen}
	if err := s.Signal(ctx, id, black, listen); err != nil {
		t.Fatal(err)
	}
	if got := nextVoice(t, sub.C()); got.Signal != listen {
		t.Errorf("relayed %+v after the refusals, want black's listen", got)
	}

	if err := s.Resign(ctx, id, white); err != nil {
		t.Fatal(err)
	}
	if err := s.Signal(ctx, id, black, listen); !errors.Is(err, ErrVoiceClosed) {
		t.Errorf("Signal after the game = %v, want ErrVoiceClosed", err)
	}
}

func TestSignalClosed(t *testing.T) {
	ctx := context.Background()
	st := newMemStore()
	s := newService(st)
	defer s.Close()
	st.setVIP(1, true)
	listen := VoiceSignal{Kind: VoiceListen}

	waiting, _, err := s.CreatePrivateGame(ctx, 1, clock.MustParse("5+0"))
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Signal(ctx, waiting, 1, listen); !errors.Is(err, ErrVoiceClosed) {
		t.Errorf("Signal before the friend joins = %v, want ErrVoiceClosed", err)
	}
	practice, err := s.CreatePracticeGame(ctx, 1, game.Easy, clock.MustParse("5+0"), PlayWhite)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Signal(ctx, practice, 1, listen); !errors.Is(err, ErrVoiceClosed) {
		t.Errorf("Signal against the computer = %v, want ErrVoiceClosed", err)
	}
}

func TestSignalFlood(t *testing.T) {
	// In the bubble the clock moves only by Sleep: the window is exact.
	synctest.Test(t, func(t *testing.T) {
		ctx := context.Background()
		s := newService(newMemStore())
		defer s.Close()
		id, white, black := privateGame(t, s, "5+0")
		bye := VoiceSignal{Kind: VoiceBye, Conn: "white-conn-1"}
		for i := range VoiceBurst {
			if err := s.Signal(ctx, id, white, bye); err != nil {
				t.Fatalf("signal %d: %v", i+1, err)
			}
		}
		if err := s.Signal(ctx, id, white, bye); !errors.Is(err, ErrVoiceFlood) {
			t.Errorf("signal %d in the window = %v, want ErrVoiceFlood", VoiceBurst+1, err)
		}
		if err := s.Signal(ctx, id, black, bye); err != nil {
			t.Errorf("the opponent is limited too: %v", err)
		}
		time.Sleep(VoiceWindow)
		if err := s.Signal(ctx, id, white, bye); err != nil {
			t.Errorf("signal after the window: %v", err)
		}
	})
}
