package handlers

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// ICEServer is a STUN or TURN server that the players' browsers use to
// connect voice chat through NATs, as a browser's RTCIceServer takes it.
// Without any, browsers connect on their own addresses alone, which works
// on one network but seldom across the Internet.
type ICEServer struct {
	URLs       []string `json:"urls"`
	Username   string   `json:"username,omitempty"`
	Credential string   `json:"credential,omitempty"`
}

// errICEServers is wrapped by every error of ParseICEServers.
var errICEServers = errors.New("ice servers")

// ParseICEServers reads the --ice-servers setting: empty for none; a
// comma-separated list of STUN or TURN URLs; or, for TURN servers that
// need a user name and credential, a JSON array of objects like the
// browser's RTCIceServer ({"urls": [...], "username": ..., "credential":
// ...}). Each URL must be stun:, stuns:, turn: or turns:, and every TURN
// server needs a user name and a credential, or the browser refuses the
// whole list.
func ParseICEServers(s string) ([]ICEServer, error) {
	s = strings.TrimSpace(s)
	var servers []ICEServer
	switch {
	case s == "":
		return nil, nil
	case strings.HasPrefix(s, "["):
		dec := json.NewDecoder(strings.NewReader(s))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&servers); err != nil {
			return nil, fmt.Errorf("%w: %w", errICEServers, err)
		}
	default:
		for u := range strings.SplitSeq(s, ",") {
			servers = append(servers, ICEServer{URLs: []string{strings.TrimSpace(u)}})
		}
	}
	for _, srv := range servers {
		if len(srv.URLs) == 0 {
			return nil, fmt.Errorf("%w: a server without urls", errICEServers)
		}
		for _, u := range srv.URLs {
			scheme, rest, _ := strings.Cut(u, ":")
			switch {
			case rest == "" || strings.ContainsAny(u, " \t\r\n"):
				return nil, fmt.Errorf("%w: %q is not a URL", errICEServers, u)
			case scheme == "turn" || scheme == "turns":
				if srv.Username == "" || srv.Credential == "" {
					return nil, fmt.Errorf("%w: %s needs a username and a credential, given in the JSON form", errICEServers, u)
				}
			case scheme != "stun" && scheme != "stuns":
				return nil, fmt.Errorf("%w: %q is not a stun, stuns, turn or turns URL", errICEServers, u)
			}
		}
	}
	return servers, nil
}

// iceServersJSON returns servers as the page's voice script reads them.
func iceServersJSON(servers []ICEServer) string {
	if len(servers) == 0 {
		return "[]"
	}
	b, _ := json.Marshal(servers) // strings always marshal
	return string(b)
}
