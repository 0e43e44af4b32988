package voice

import (
	"errors"
	"strings"
	"testing"

	"satranc/engine/voice/voicetest"
)

var audioSDP = voicetest.AudioSDP

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
		{"video", audioSDP("recvonly", "m=video 9 UDP/TLS/RTP/SAVPF 96", "a=recvonly"), false, ErrInvalid},
		{"data channel", audioSDP("recvonly", "m=application 9 UDP/DTLS/SCTP webrtc-datachannel"), false, ErrInvalid},
		{"no media", "v=0\r\no=- 1 2 IN IP4 127.0.0.1\r\ns=-\r\nt=0 0\r\n", false, ErrInvalid},
		{"not SDP", "hello", false, ErrInvalid},
		{"empty", "", false, ErrInvalid},
		{"short media line", audioSDP("recvonly", "m=audio 9"), false, ErrInvalid},
		{"control character", audioSDP("recvonly", "a=x\x00y"), false, ErrInvalid},
		{"line without =", audioSDP("recvonly", "garbage"), false, ErrInvalid},
		{"too big", audioSDP("recvonly", "a=x:"+strings.Repeat("y", MaxSDP)), false, ErrInvalid},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			sends, err := sendsAudio(tc.sdp)
			if sends != tc.sends || !errors.Is(err, tc.err) || (tc.err == nil) != (err == nil) {
				t.Errorf("sendsAudio = %v, %v; want %v, %v", sends, err, tc.sends, tc.err)
			}
		})
	}
}
