// Package voicetest holds what tests of voice signalling share: a session
// description as Chromium writes one.
package voicetest

import "strings"

// AudioSDP returns a description like Chromium's for one audio section
// with the direction line dir ("" for none), and extra lines appended.
func AudioSDP(dir string, extra ...string) string {
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
