package voice

import (
	"fmt"
	"strings"
)

// sendsAudio checks sdp, the session description of an offer or an
// answer of voice chat (RFC 8866), and reports whether its sender would
// send audio. Voice chat carries audio only: a description with any other
// media section, or none, is refused. A media section sends when its port
// is not 0 (RFC 3264 section 6: 0 rejects the stream) and its direction,
// its own a= attribute or else the session's, is sendrecv (also the
// default when none is given) or sendonly (RFC 3264 section 5.1).
//
// Only what decides the sending is read: the browser at the other end
// parses the rest, and refuses what it does not understand.
func sendsAudio(sdp string) (bool, error) {
	if len(sdp) > MaxSDP {
		return false, fmt.Errorf("%w: description of %d bytes", ErrInvalid, len(sdp))
	}
	lines := strings.Split(strings.TrimRight(sdp, "\r\n"), "\n")
	if strings.TrimSuffix(lines[0], "\r") != "v=0" {
		return false, fmt.Errorf("%w: description does not start with v=0", ErrInvalid)
	}
	session := "sendrecv"
	var sections []sdpSection
	for _, line := range lines {
		line = strings.TrimSuffix(line, "\r")
		if len(line) < 2 || line[1] != '=' || strings.ContainsFunc(line, isControl) {
			return false, fmt.Errorf("%w: description line %q", ErrInvalid, line)
		}
		switch {
		case line[0] == 'm':
			f := strings.Fields(line[2:])
			if len(f) < 4 {
				return false, fmt.Errorf("%w: media line %q", ErrInvalid, line)
			}
			if f[0] != "audio" {
				return false, fmt.Errorf("%w: %s media", ErrInvalid, f[0])
			}
			sections = append(sections, sdpSection{enabled: f[1] != "0"})
		case isDirection(line):
			if n := len(sections); n > 0 {
				sections[n-1].direction = line[2:]
			} else {
				session = line[2:]
			}
		}
	}
	if len(sections) == 0 {
		return false, fmt.Errorf("%w: no audio in the description", ErrInvalid)
	}
	for _, s := range sections {
		dir := s.direction
		if dir == "" {
			dir = session
		}
		if s.enabled && (dir == "sendrecv" || dir == "sendonly") {
			return true, nil
		}
	}
	return false, nil
}

// sdpSection is what sendsAudio keeps of a media section.
type sdpSection struct {
	enabled   bool
	direction string // "" until an a= direction line
}

// isDirection reports whether line is one of the four direction
// attributes.
func isDirection(line string) bool {
	switch line {
	case "a=sendrecv", "a=sendonly", "a=recvonly", "a=inactive":
		return true
	}
	return false
}

// isControl reports control characters, which no SDP line holds once its
// CR LF is cut (RFC 8866 section 9: text is printable).
func isControl(r rune) bool { return (r < 0x20 && r != '\t') || r == 0x7f }
