// Package voice has the rules of the voice chat (SPEC section 9): both
// players of a running game may listen, only VIP members may speak. The
// audio goes between the browsers over WebRTC; the server only relays
// the set-up of each connection (offers, answers, ICE candidates) from
// one player's page to the other's, and keeps none of it. A speaking page
// makes one connection per direction: it offers to send, and the
// listening page answers to receive.
//
// This package checks the signals (their session descriptions included,
// sdp.go), says who may speak and limits floods. Who plays in a game,
// whether it is running and the relaying itself are for engine/play.
package voice

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"satranc/engine/limit"
)

const (
	// MaxSDP is the longest session description relayed, in bytes; a
	// browser's audio offer is a few kilobytes.
	MaxSDP = 16 << 10
	// MaxCandidate is the longest ICE candidate relayed, in bytes.
	MaxCandidate = 1 << 10
	// Burst signals at most per player and game in any Window: enough
	// for a few connections' offers, answers and trickled candidates.
	Burst = 40
	// Window is the period in which Burst signals are allowed.
	Window = 10 * time.Second
)

// Sentinel errors of the voice chat.
var (
	// ErrInvalid: a signal that is malformed or too big, or a description
	// with media other than audio.
	ErrInvalid = errors.New("voice: invalid signal")
	// ErrNotVIP: a description that sends audio from a member who is not
	// VIP.
	ErrNotVIP = errors.New("voice: only VIP members can speak")
	// ErrFlood: more than Burst signals in Window.
	ErrFlood = errors.New("voice: too many signals")
	// ErrClosed: the game is not running, or is a practice game against
	// the computer.
	ErrClosed = errors.New("voice: only during a game between two players")
)

// Kind is what a voice signal says.
type Kind string

// The kinds of voice signal.
const (
	// Offer offers a connection, with its description.
	Offer Kind = "offer"
	// Answer answers an offer, with its description.
	Answer Kind = "answer"
	// Candidate is one ICE candidate of a connection.
	Candidate Kind = "candidate"
	// Listen says the sender now listens: a speaking page offers again.
	Listen Kind = "listen"
	// Bye says the sender closed the connection.
	Bye Kind = "bye"
)

// Signal is one message of a connection's set-up, as a page sends it and
// the opponent's page receives it.
type Signal struct {
	Kind Kind
	// Conn names the connection, chosen by the page that offers it
	// (letters, digits and dashes); empty for Listen.
	Conn string
	// SDP is the description of an offer or answer.
	SDP string
	// Candidate, Mid and MLine are an ICE candidate: its a= line without
	// "a=", the media section's identification tag and index.
	Candidate string
	Mid       string
	MLine     int
}

// Check validates s and reports whether its description sends audio,
// which only a VIP member may do (MaySpeak). An invalid signal is an
// error wrapping ErrInvalid.
func (s Signal) Check() (sends bool, err error) {
	if s.Kind != Listen && !validConn(s.Conn) {
		return false, fmt.Errorf("%w: connection %q", ErrInvalid, s.Conn)
	}
	switch s.Kind {
	case Offer, Answer:
		return sendsAudio(s.SDP)
	case Candidate:
		if len(s.Candidate) > MaxCandidate || !strings.HasPrefix(s.Candidate, "candidate:") ||
			strings.ContainsFunc(s.Candidate, isControl) || len(s.Mid) > 32 || strings.ContainsFunc(s.Mid, isControl) ||
			s.MLine < 0 || s.MLine > 15 {
			return false, fmt.Errorf("%w: candidate", ErrInvalid)
		}
		return false, nil
	case Listen, Bye:
		return false, nil
	}
	return false, fmt.Errorf("%w: kind %q", ErrInvalid, s.Kind)
}

// validConn reports whether c is a connection name: 8 to 64 letters,
// digits and dashes.
func validConn(c string) bool {
	if len(c) < 8 || len(c) > 64 {
		return false
	}
	for _, r := range c {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-') {
			return false
		}
	}
	return true
}

// MaySpeak returns nil if a member who is VIP (vip) or not may send a
// signal whose description sends audio (sends, from Check), or ErrNotVIP.
// Everyone may listen.
func MaySpeak(sends, vip bool) error {
	if sends && !vip {
		return ErrNotVIP
	}
	return nil
}

// seat is one player at one game: the flood limit is per player and game.
type seat struct{ game, user int64 }

// Guard is the voice chat's memory across games: the flood limit of each
// player. Make one with NewGuard; a Guard is safe for concurrent use.
type Guard struct {
	flood *limit.Window[seat]
}

// NewGuard returns a Guard that allows Burst signals per player and game
// in any Window.
func NewGuard() *Guard {
	return &Guard{flood: &limit.Window[seat]{Burst: Burst, Period: Window}}
}

// Allow counts a signal from user in game at now, or returns ErrFlood if
// user already sent Burst signals there in the last Window.
func (g *Guard) Allow(game, user int64, now time.Time) error {
	if !g.flood.Allow(seat{game, user}, now) {
		return ErrFlood
	}
	return nil
}
