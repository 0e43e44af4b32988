package voice

import (
	"errors"
	"strings"
	"testing"
	"time"
)

func TestSignalCheck(t *testing.T) {
	const conn = "c0ffee-1234"
	cand := "candidate:842163049 1 udp 1677729535 192.0.2.7 46154 typ srflx raddr 0.0.0.0 rport 0 generation 0"
	tests := []struct {
		name string
		sig  Signal
		ok   bool
	}{
		{"offer", Signal{Kind: Offer, Conn: conn, SDP: audioSDP("sendonly")}, true},
		{"answer", Signal{Kind: Answer, Conn: conn, SDP: audioSDP("recvonly")}, true},
		{"candidate", Signal{Kind: Candidate, Conn: conn, Candidate: cand, Mid: "0"}, true},
		{"listen", Signal{Kind: Listen}, true},
		{"bye", Signal{Kind: Bye, Conn: conn}, true},
		{"unknown kind", Signal{Kind: "shout", Conn: conn}, false},
		{"offer without description", Signal{Kind: Offer, Conn: conn}, false},
		{"no connection", Signal{Kind: Offer, SDP: audioSDP("sendonly")}, false},
		{"short connection", Signal{Kind: Bye, Conn: "abc"}, false},
		{"connection with a space", Signal{Kind: Bye, Conn: "abc def ghi"}, false},
		{"long connection", Signal{Kind: Bye, Conn: strings.Repeat("a", 65)}, false},
		{"candidate not a candidate", Signal{Kind: Candidate, Conn: conn, Candidate: "hello"}, false},
		{"candidate too long", Signal{Kind: Candidate, Conn: conn, Candidate: "candidate:" + strings.Repeat("1", MaxCandidate)}, false},
		{"candidate with a line break", Signal{Kind: Candidate, Conn: conn, Candidate: cand + "\r\na=x"}, false},
		{"candidate bad index", Signal{Kind: Candidate, Conn: conn, Candidate: cand, MLine: -1}, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := tc.sig.Check()
			if (err == nil) != tc.ok || (err != nil && !errors.Is(err, ErrInvalid)) {
				t.Errorf("Check() = %v, want ok %v", err, tc.ok)
			}
		})
	}
}

// TestSignalCheckSends: Check says whether the description sends, which
// decides whether the sender must be VIP.
func TestSignalCheckSends(t *testing.T) {
	const conn = "c0ffee-1234"
	tests := []struct {
		sig   Signal
		sends bool
	}{
		{Signal{Kind: Offer, Conn: conn, SDP: audioSDP("sendonly")}, true},
		{Signal{Kind: Answer, Conn: conn, SDP: audioSDP("sendrecv")}, true},
		{Signal{Kind: Answer, Conn: conn, SDP: audioSDP("recvonly")}, false},
		{Signal{Kind: Listen}, false},
		{Signal{Kind: Bye, Conn: conn}, false},
	}
	for _, tc := range tests {
		if sends, err := tc.sig.Check(); err != nil || sends != tc.sends {
			t.Errorf("%s Check() = %v, %v; want %v", tc.sig.Kind, sends, err, tc.sends)
		}
	}
}

func TestMaySpeak(t *testing.T) {
	tests := []struct {
		sends, vip bool
		err        error
	}{
		{false, false, nil},
		{false, true, nil},
		{true, true, nil},
		{true, false, ErrNotVIP},
	}
	for _, tc := range tests {
		if err := MaySpeak(tc.sends, tc.vip); !errors.Is(err, tc.err) || (tc.err == nil) != (err == nil) {
			t.Errorf("MaySpeak(%v, %v) = %v, want %v", tc.sends, tc.vip, err, tc.err)
		}
	}
}

func TestGuardAllow(t *testing.T) {
	g := NewGuard()
	t0 := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	for i := range Burst {
		if err := g.Allow(1, 1, t0); err != nil {
			t.Fatalf("signal %d: %v", i+1, err)
		}
	}
	if err := g.Allow(1, 1, t0.Add(Window-time.Millisecond)); !errors.Is(err, ErrFlood) {
		t.Errorf("signal %d in the window = %v, want ErrFlood", Burst+1, err)
	}
	if err := g.Allow(1, 2, t0); err != nil {
		t.Errorf("the opponent is limited too: %v", err)
	}
	if err := g.Allow(2, 1, t0); err != nil {
		t.Errorf("the same player in another game is limited too: %v", err)
	}
	if err := g.Allow(1, 1, t0.Add(Window)); err != nil {
		t.Errorf("signal after the window: %v", err)
	}
}
