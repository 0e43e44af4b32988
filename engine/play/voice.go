package play

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"satranc/engine/chess"
	"satranc/engine/game"
)

// Voice chat (SPEC section 9): both players of a running game may listen,
// only VIP members may speak. The audio goes between the browsers over
// WebRTC; the service only relays the set-up of each connection (offers,
// answers, ICE candidates) from one player's page to the other's, over the
// hub, and keeps none of it. A speaking page makes one connection per
// direction: it offers to send, and the listening page answers to receive.
const (
	// VoiceMaxSDP is the longest session description relayed, in bytes;
	// a browser's audio offer is a few kilobytes.
	VoiceMaxSDP = 16 << 10
	// VoiceMaxCandidate is the longest ICE candidate relayed, in bytes.
	VoiceMaxCandidate = 1 << 10
	// VoiceBurst signals at most per player in any VoiceWindow: enough
	// for a few connections' offers, answers and trickled candidates.
	VoiceBurst  = 40
	VoiceWindow = 10 * time.Second
)

// Sentinel errors of the voice chat.
var (
	// ErrVoiceInvalid: a signal that is malformed or too big, or a
	// description with media other than audio.
	ErrVoiceInvalid = errors.New("play: voice: invalid signal")
	// ErrVoiceNotVIP: a description that sends audio from a member who is
	// not VIP.
	ErrVoiceNotVIP = errors.New("play: voice: only VIP members can speak")
	// ErrVoiceFlood: more than VoiceBurst signals in VoiceWindow.
	ErrVoiceFlood = errors.New("play: voice: too many signals")
	// ErrVoiceClosed: the game is not running, or is a practice game
	// against the computer.
	ErrVoiceClosed = errors.New("play: voice: only during a game between two players")
)

// VoiceKind is what a voice signal says.
type VoiceKind string

// The kinds of voice signal.
const (
	// VoiceOffer offers a connection, with its description.
	VoiceOffer VoiceKind = "offer"
	// VoiceAnswer answers an offer, with its description.
	VoiceAnswer VoiceKind = "answer"
	// VoiceCandidate is one ICE candidate of a connection.
	VoiceCandidate VoiceKind = "candidate"
	// VoiceListen says the sender now listens: a speaking page offers
	// again.
	VoiceListen VoiceKind = "listen"
	// VoiceBye says the sender closed the connection.
	VoiceBye VoiceKind = "bye"
)

// VoiceSignal is one message of a connection's set-up, as a page sends it
// and the opponent's page receives it.
type VoiceSignal struct {
	Kind VoiceKind
	// Conn names the connection, chosen by the page that offers it
	// (letters, digits and dashes); empty for VoiceListen.
	Conn string
	// SDP is the description of an offer or answer.
	SDP string
	// Candidate, Mid and MLine are an ICE candidate: its a= line without
	// "a=", the media section's identification tag and index.
	Candidate string
	Mid       string
	MLine     int
}

// VoiceSignalled: From sent a voice signal. Only the opponent's page gets
// it.
type VoiceSignalled struct {
	game.Stamp
	From   chess.Color
	Signal VoiceSignal
}

// check validates s and reports whether its description sends audio.
func (s VoiceSignal) check() (sends bool, err error) {
	if s.Kind != VoiceListen && !validConn(s.Conn) {
		return false, fmt.Errorf("%w: connection %q", ErrVoiceInvalid, s.Conn)
	}
	switch s.Kind {
	case VoiceOffer, VoiceAnswer:
		return sdpSendsAudio(s.SDP)
	case VoiceCandidate:
		if len(s.Candidate) > VoiceMaxCandidate || !strings.HasPrefix(s.Candidate, "candidate:") ||
			strings.ContainsFunc(s.Candidate, isControl) || len(s.Mid) > 32 || strings.ContainsFunc(s.Mid, isControl) ||
			s.MLine < 0 || s.MLine > 15 {
			return false, fmt.Errorf("%w: candidate", ErrVoiceInvalid)
		}
		return false, nil
	case VoiceListen, VoiceBye:
		return false, nil
	}
	return false, fmt.Errorf("%w: kind %q", ErrVoiceInvalid, s.Kind)
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

// Signal relays sig from user to the opponent's page in game id. It
// checks the signal (ErrVoiceInvalid), that user plays in the game
// (ErrNotPlayer), that the game is running and not a practice game
// (ErrVoiceClosed), the flood limit (ErrVoiceFlood) and, for a description
// that sends audio, that user is a VIP member (ErrVoiceNotVIP); then it
// publishes VoiceSignalled. Nothing is stored.
func (s *Service) Signal(ctx context.Context, id, user int64, sig VoiceSignal) error {
	sends, err := sig.check()
	if err != nil {
		return fmt.Errorf("play: voice in game %d: %w", id, err)
	}
	snap, err := s.Game(ctx, id)
	if err != nil {
		return err
	}
	side, ok := snap.SideOf(user)
	if !ok {
		return fmt.Errorf("play: voice in game %d, user %d: %w", id, user, ErrNotPlayer)
	}
	// At a public table a bot may sit in for a person, as a person who
	// never listens: its signals go nowhere, and nothing tells it apart.
	if snap.Status != game.Active || snap.Kind == Practice {
		return fmt.Errorf("play: voice in game %d: %w", id, ErrVoiceClosed)
	}
	now := s.now()
	if !s.voice.allow(playerKey{id, user}, now) {
		return fmt.Errorf("play: voice in game %d, user %d: %w", id, user, ErrVoiceFlood)
	}
	if sends {
		vip, err := s.store.VIP(ctx, user)
		if err != nil {
			return fmt.Errorf("play: voice in game %d: %w", id, err)
		}
		if !vip {
			return fmt.Errorf("play: voice in game %d, user %d: %w", id, user, ErrVoiceNotVIP)
		}
	}
	s.publish(id, []game.Event{VoiceSignalled{Stamp: game.Stamp{Ply: snap.Ply, Time: now}, From: side, Signal: sig}}, func() Snapshot { return snap })
	return nil
}

// CanSpeak reports whether user may speak in voice chat: a VIP member.
func (s *Service) CanSpeak(ctx context.Context, user int64) (bool, error) {
	vip, err := s.store.VIP(ctx, user)
	if err != nil {
		return false, fmt.Errorf("play: voice: %w", err)
	}
	return vip, nil
}
