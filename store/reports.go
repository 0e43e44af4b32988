package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"satranc/engine/fairplay"
	"satranc/engine/play"
)

// ReportPlayer records reporter's report of their opponent in game id,
// with reason (fairplay.ParseReason). Only a player of the game may report
// (play.ErrNotPlayer), once per game (fairplay.ErrAlreadyReported); a
// missing game is ErrNotFound. The opponent may be a computer player: the
// report is kept without a reported account.
func (s *Store) ReportPlayer(ctx context.Context, id, reporter int64, reason string) error {
	reason, err := fairplay.ParseReason(reason)
	if err != nil {
		return fmt.Errorf("store: report in game %d: %w", id, err)
	}
	var seats struct {
		White sql.NullInt64 `db:"white_id"`
		Black sql.NullInt64 `db:"black_id"`
	}
	err = s.rdb.GetContext(ctx, &seats, "SELECT white_id, black_id FROM games WHERE id = ?", id)
	if errors.Is(err, sql.ErrNoRows) {
		err = errGameNotFound
	}
	if err != nil {
		return fmt.Errorf("store: report in game %d: %w", id, err)
	}
	var reported sql.NullInt64
	switch {
	case seats.White.Valid && seats.White.Int64 == reporter:
		reported = seats.Black
	case seats.Black.Valid && seats.Black.Int64 == reporter:
		reported = seats.White
	default:
		return fmt.Errorf("store: report in game %d by user %d: %w", id, reporter, play.ErrNotPlayer)
	}
	_, err = s.db.ExecContext(ctx, `INSERT INTO reports (game_id, reporter_id, reported_id, reason, created_at)
		VALUES (?, ?, ?, ?, ?)`, id, reporter, reported, reason, s.now())
	if broken(err) == UniqueConstraint {
		err = fairplay.ErrAlreadyReported
	}
	if err != nil {
		return fmt.Errorf("store: report in game %d by user %d: %w", id, reporter, err)
	}
	return nil
}

// HasReported reports whether reporter reported their opponent in game id.
func (s *Store) HasReported(ctx context.Context, id, reporter int64) (bool, error) {
	var n int
	err := s.rdb.GetContext(ctx, &n, "SELECT COUNT(*) FROM reports WHERE game_id = ? AND reporter_id = ?", id, reporter)
	if err != nil {
		return false, fmt.Errorf("store: report in game %d by user %d: %w", id, reporter, err)
	}
	return n > 0, nil
}

// Reports returns the limit most recent reports, newest first, with the
// names of the reporter and the reported player ("" for a computer).
func (s *Store) Reports(ctx context.Context, limit int) ([]fairplay.Report, error) {
	var rows []struct {
		ID           int64          `db:"id"`
		GameID       int64          `db:"game_id"`
		Reporter     int64          `db:"reporter_id"`
		Reported     sql.NullInt64  `db:"reported_id"`
		ReporterName string         `db:"reporter_name"`
		ReportedName sql.NullString `db:"reported_name"`
		Reason       string         `db:"reason"`
		CreatedAt    string         `db:"created_at"`
	}
	err := s.rdb.SelectContext(ctx, &rows, `SELECT r.id, r.game_id, r.reporter_id, r.reported_id,
		a.username AS reporter_name, b.username AS reported_name, r.reason, r.created_at
		FROM reports r JOIN users a ON a.id = r.reporter_id LEFT JOIN users b ON b.id = r.reported_id
		ORDER BY r.id DESC LIMIT ?`, limit)
	if err != nil {
		return nil, fmt.Errorf("store: reports: %w", err)
	}
	out := make([]fairplay.Report, len(rows))
	for i, r := range rows {
		at, err := parseTime(r.CreatedAt)
		if err != nil {
			return nil, fmt.Errorf("store: report %d: %w", r.ID, err)
		}
		out[i] = fairplay.Report{ID: r.ID, GameID: r.GameID, Reporter: r.Reporter, Reported: r.Reported.Int64,
			ReporterName: r.ReporterName, ReportedName: r.ReportedName.String, Reason: r.Reason, At: at}
	}
	return out, nil
}
