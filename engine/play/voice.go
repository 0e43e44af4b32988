package play

import (
	"context"
	"fmt"

	"satranc/engine/chess"
	"satranc/engine/game"
	"satranc/engine/voice"
)

// The voice chat's rules (what a signal may hold, who may speak, the
// flood limit) are in engine/voice; this file ties the voice chat to a
// game: only its players signal, only while it runs, and each signal is
// relayed on the game's events to the opponent's page. Nothing is stored.

// VoiceSignalled: From sent a voice signal. Only the opponent's page gets
// it.
type VoiceSignalled struct {
	game.Stamp
	From   chess.Color
	Signal voice.Signal
}

// Signal relays sig from user to the opponent's page in game id. It
// checks the signal (voice.ErrInvalid), that user plays in the game
// (ErrNotPlayer), that the game is running and not a practice game
// (voice.ErrClosed), the flood limit (voice.ErrFlood) and, for a
// description that sends audio, that user is a VIP member
// (voice.ErrNotVIP); then it publishes VoiceSignalled.
func (s *Service) Signal(ctx context.Context, id, user int64, sig voice.Signal) error {
	sends, err := sig.Check()
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
		return fmt.Errorf("play: voice in game %d: %w", id, voice.ErrClosed)
	}
	now := s.now()
	// Counted before the VIP is looked up: a refused offer counts too.
	if err := s.voice.Allow(id, user, now); err != nil {
		return fmt.Errorf("play: voice in game %d, user %d: %w", id, user, err)
	}
	if sends {
		vip, err := s.store.VIP(ctx, user)
		if err != nil {
			return fmt.Errorf("play: voice in game %d: %w", id, err)
		}
		if err := voice.MaySpeak(sends, vip); err != nil {
			return fmt.Errorf("play: voice in game %d, user %d: %w", id, user, err)
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
