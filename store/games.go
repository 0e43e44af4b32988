package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"

	"satranc/engine/chess"
	"satranc/engine/clock"
	"satranc/engine/game"
	"satranc/engine/play"
)

// Store implements play.Store.
var _ play.Store = (*Store)(nil)

// errGameNotFound is a missing game: store.ErrNotFound and, for engine/play,
// play.ErrNotFound.
var errGameNotFound = fmt.Errorf("%w: %w", ErrNotFound, play.ErrNotFound)

// gameRow is one row of games.
type gameRow struct {
	ID          int64          `db:"id"`
	Kind        string         `db:"kind"`
	WhiteID     sql.NullInt64  `db:"white_id"`
	BlackID     sql.NullInt64  `db:"black_id"`
	WhiteBot    string         `db:"white_bot"`
	BlackBot    string         `db:"black_bot"`
	StartFEN    string         `db:"start_fen"`
	InitialMS   int64          `db:"initial_ms"`
	IncrementMS int64          `db:"increment_ms"`
	Status      string         `db:"status"`
	Result      string         `db:"result"`
	Termination string         `db:"termination"`
	EndedBy     string         `db:"ended_by"`
	InviteToken sql.NullString `db:"invite_token"`
	RematchOf   sql.NullInt64  `db:"rematch_of"`
	Stake       int64          `db:"stake"`
	Rated       bool           `db:"rated"`
	Unstaked    bool           `db:"unstaked"`
	CreatedAt   string         `db:"created_at"`
	StartedAt   sql.NullString `db:"started_at"`
	EndedAt     sql.NullString `db:"ended_at"`
	VoidedAt    sql.NullString `db:"voided_at"`
}

// gameColumns are the columns of gameRow, in a SELECT.
const gameColumns = `id, kind, white_id, black_id, white_bot, black_bot, start_fen,
	initial_ms, increment_ms, status, result, termination, ended_by, invite_token,
	rematch_of, stake, rated, unstaked, created_at, started_at, ended_at, voided_at`

// moveRow is one row of moves.
type moveRow struct {
	GameID   int64         `db:"game_id"`
	Ply      int           `db:"ply"`
	UCI      string        `db:"uci"`
	PlayedAt string        `db:"played_at"`
	ClockMS  sql.NullInt64 `db:"clock_ms"`
}

// CreateGame inserts a game without moves and returns its id. Its one
// statement is atomic as it stands, so it runs without a transaction of
// its own, which would take the writer connection for a BEGIN and a COMMIT
// besides, while the moves' batches wait for it.
func (s *Store) CreateGame(ctx context.Context, g play.GameRecord) (int64, error) {
	id, err := createGame(ctx, s.db, g)
	if err != nil {
		return 0, fmt.Errorf("store: create game: %w", err)
	}
	return id, nil
}

func createGame(ctx context.Context, q sqlx.ExtContext, g play.GameRecord) (int64, error) {
	fen := g.StartFEN
	if fen == "" {
		fen = chess.StartFEN
	}
	row := gameRow{
		Kind: string(g.Kind), StartFEN: fen,
		InitialMS: g.Control.Initial.Milliseconds(), IncrementMS: g.Control.Increment.Milliseconds(),
		Status: g.Status.String(), Result: game.NoResult.String(),
		InviteToken: sql.NullString{String: g.InviteToken, Valid: g.InviteToken != ""},
		RematchOf:   sql.NullInt64{Int64: g.RematchOf, Valid: g.RematchOf != 0},
		Stake:       g.Stake,
		Unstaked:    g.Unstaked,
		Rated:       (g.Kind == play.Quick || g.Kind == play.Lounge) && !g.Unstaked,
		CreatedAt:   formatTime(g.CreatedAt),
		StartedAt:   nullTime(g.StartedAt),
	}
	row.WhiteID, row.WhiteBot = seatColumns(g.White)
	row.BlackID, row.BlackBot = seatColumns(g.Black)
	// RETURNING rather than LastInsertId, which PostgreSQL's driver lacks.
	query, args, err := sqlx.Named(`INSERT INTO games
		(kind, white_id, black_id, white_bot, black_bot, start_fen, initial_ms, increment_ms,
		 status, result, invite_token, rematch_of, stake, rated, unstaked, created_at, started_at)
		VALUES (:kind, :white_id, :black_id, :white_bot, :black_bot, :start_fen, :initial_ms, :increment_ms,
		 :status, :result, :invite_token, :rematch_of, :stake, :rated, :unstaked, :created_at, :started_at)
		RETURNING id`, row)
	if err != nil {
		return 0, err
	}
	var id int64
	err = sqlx.GetContext(ctx, q, &id, query, args...)
	return id, err
}

// Game returns game id with its moves.
func (s *Store) Game(ctx context.Context, id int64) (play.GameRecord, error) {
	g, err := gameWhere(ctx, s.rdb, "id = ?", id)
	if err != nil {
		return play.GameRecord{}, fmt.Errorf("store: game %d: %w", id, err)
	}
	return g, nil
}

// GameByInvite returns the game whose invite token is token.
func (s *Store) GameByInvite(ctx context.Context, token string) (play.GameRecord, error) {
	g, err := gameWhere(ctx, s.rdb, "invite_token = ?", token)
	if err != nil {
		return play.GameRecord{}, fmt.Errorf("store: game by invite: %w", err)
	}
	return g, nil
}

// UnfinishedGames returns every waiting or active game with its moves, in
// order of id.
func (s *Store) UnfinishedGames(ctx context.Context) ([]play.GameRecord, error) {
	var ids []int64
	err := s.rdb.SelectContext(ctx, &ids, "SELECT id FROM games WHERE status IN ('waiting', 'active') ORDER BY id")
	if err != nil {
		return nil, fmt.Errorf("store: unfinished games: %w", err)
	}
	out := make([]play.GameRecord, 0, len(ids))
	for _, id := range ids {
		g, err := gameWhere(ctx, s.rdb, "id = ?", id)
		if err != nil {
			return nil, fmt.Errorf("store: unfinished game %d: %w", id, err)
		}
		out = append(out, g)
	}
	return out, nil
}

// gameWhere reads the one game matching where, with its moves.
func gameWhere(ctx context.Context, q sqlx.QueryerContext, where string, args ...any) (play.GameRecord, error) {
	var row gameRow
	err := sqlx.GetContext(ctx, q, &row, "SELECT "+gameColumns+" FROM games WHERE "+where, args...)
	if errors.Is(err, sql.ErrNoRows) {
		return play.GameRecord{}, errGameNotFound
	}
	if err != nil {
		return play.GameRecord{}, err
	}
	var moves []moveRow
	err = sqlx.SelectContext(ctx, q, &moves,
		"SELECT game_id, ply, uci, played_at, clock_ms FROM moves WHERE game_id = ? ORDER BY ply", row.ID)
	if err != nil {
		return play.GameRecord{}, err
	}
	return toGame(row, moves)
}

// StartGame seats both players of a waiting game and makes it active.
func (s *Store) StartGame(ctx context.Context, id int64, white, black game.Seat, at time.Time) error {
	tx, err := s.db.BeginTxx(ctx, nil)
	if err != nil {
		return fmt.Errorf("store: start game %d: %w", id, err)
	}
	defer func() { _ = tx.Rollback() }()
	if err := s.fenceGame(ctx, tx, id); err != nil {
		return fmt.Errorf("store: start game %d: %w", id, err)
	}
	wID, wBot := seatColumns(white)
	bID, bBot := seatColumns(black)
	res, err := tx.ExecContext(ctx, `UPDATE games SET white_id = ?, white_bot = ?, black_id = ?, black_bot = ?,
		status = 'active', started_at = ? WHERE id = ? AND status = 'waiting'`,
		wID, wBot, bID, bBot, formatTime(at), id)
	if err == nil {
		err = oneRow(ctx, tx, res, id, "waiting")
	}
	if err == nil {
		err = tx.Commit()
	}
	if err != nil {
		return fmt.Errorf("store: start game %d: %w", id, err)
	}
	return nil
}

// AppendMove stores move m of game id and, if end is not nil, ends the
// game, in one transaction. The move must be the next ply of an active game.
//
// The move is committed together with the other games' writes waiting at
// the same time (write_batch.go): under load, the writer connection (see
// Store) is what every move waits for. On a node of a cluster the
// transaction that writes the move first checks the fence (fence.go).
func (s *Store) AppendMove(ctx context.Context, id int64, m play.StoredMove, end *play.Ending) error {
	if err := s.writes.write(ctx, gameWrite{id: id, move: &m, end: end}); err != nil {
		return fmt.Errorf("store: game %d, move %d: %w", id, m.Ply, err)
	}
	return nil
}

// appendMove inserts move m if game id is active and m is its next ply; if
// not, it says why. A game's plies run from 1 without a gap (this check
// keeps them so), so the last one is the count of its moves: MAX reads it
// from the end of the primary key where COUNT would read every move.
func appendMove(ctx context.Context, q sqlx.ExtContext, id int64, m play.StoredMove) error {
	clockMS := sql.NullInt64{Int64: max(m.Clock, 0).Milliseconds(), Valid: m.HasClock}
	res, err := q.ExecContext(ctx, `INSERT INTO moves (game_id, ply, uci, played_at, clock_ms)
		SELECT id, ?, ?, ?, ? FROM games
		WHERE id = ? AND status = ? AND COALESCE((SELECT MAX(ply) FROM moves WHERE game_id = games.id), 0) = ?`,
		m.Ply, m.UCI, formatTime(m.At), clockMS, id, game.Active.String(), m.Ply-1)
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err != nil || n == 1 {
		return err
	}
	var cur struct {
		Status string `db:"status"`
		Plies  int    `db:"plies"`
	}
	err = sqlx.GetContext(ctx, q, &cur,
		"SELECT status, (SELECT COUNT(*) FROM moves WHERE game_id = games.id) AS plies FROM games WHERE id = ?", id)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return refusal{errGameNotFound}
	case err != nil:
		return err
	case cur.Status != game.Active.String():
		return refusal{fmt.Errorf("game is %s", cur.Status)}
	}
	return refusal{fmt.Errorf("ply %d does not follow ply %d", m.Ply, cur.Plies)}
}

// FinishGame ends game id (a waiting or active game) as end says, and
// settles it, committed with the other games' writes waiting at the same
// time, as AppendMove's moves are.
func (s *Store) FinishGame(ctx context.Context, id int64, end play.Ending) error {
	if err := s.writes.write(ctx, gameWrite{id: id, end: &end}); err != nil {
		return fmt.Errorf("store: finish game %d: %w", id, err)
	}
	return nil
}

func finishGame(ctx context.Context, q sqlx.ExtContext, id int64, end play.Ending) error {
	if !end.Status.Over() {
		return refusal{fmt.Errorf("ending with status %s", end.Status)}
	}
	endedBy := ""
	if end.Outcome.Reason != game.NoReason {
		endedBy = end.Outcome.Side.String()
	}
	whiteName, blackName := publicBotNames(id)
	res, err := q.ExecContext(ctx, `UPDATE games SET status = ?, result = ?, termination = ?, ended_by = ?, ended_at = ?,
		`+setPublicBotNames+` WHERE id = ? AND status IN ('waiting', 'active')`,
		end.Status.String(), end.Outcome.Result.String(), end.Outcome.Reason.String(), endedBy, formatTime(end.At),
		whiteName, blackName, id)
	if err != nil {
		return err
	}
	if err := oneRow(ctx, q, res, id, "unfinished"); err != nil {
		return err
	}
	return settleGame(ctx, q, id) // chips, Elo and XP, in the same transaction (store/settle.go)
}

// oneRow checks that an UPDATE of game id changed a row: if not, the game
// is missing or not in the state the update wanted, and the refusal says
// which (nothing was written).
func oneRow(ctx context.Context, q sqlx.QueryerContext, res sql.Result, id int64, want string) error {
	n, err := res.RowsAffected()
	if err != nil || n == 1 {
		return err
	}
	var status string
	if err := sqlx.GetContext(ctx, q, &status, "SELECT status FROM games WHERE id = ?", id); errors.Is(err, sql.ErrNoRows) {
		return refusal{errGameNotFound}
	} else if err != nil {
		return err
	}
	return refusal{fmt.Errorf("game is %s, not %s", status, want)}
}

// toGame converts rows to a play.GameRecord.
func toGame(r gameRow, moves []moveRow) (play.GameRecord, error) {
	g := play.GameRecord{
		ID: r.ID, Kind: play.Kind(r.Kind),
		Control:     clock.Control{Initial: time.Duration(r.InitialMS) * time.Millisecond, Increment: time.Duration(r.IncrementMS) * time.Millisecond},
		StartFEN:    r.StartFEN,
		InviteToken: r.InviteToken.String,
		RematchOf:   r.RematchOf.Int64,
		Stake:       r.Stake,
		Unstaked:    r.Unstaked,
	}
	var err error
	if g.White, err = toSeat(r.WhiteID, r.WhiteBot); err != nil {
		return g, err
	}
	if g.Black, err = toSeat(r.BlackID, r.BlackBot); err != nil {
		return g, err
	}
	if g.Status, err = game.ParseStatus(r.Status); err != nil {
		return g, err
	}
	if g.Outcome.Result, err = game.ParseResult(r.Result); err != nil {
		return g, err
	}
	if g.Outcome.Reason, err = game.ParseReason(r.Termination); err != nil {
		return g, err
	}
	if r.EndedBy == "black" {
		g.Outcome.Side = chess.Black
	}
	if g.CreatedAt, err = parseTime(r.CreatedAt); err != nil {
		return g, err
	}
	if g.StartedAt, err = parseNullTime(r.StartedAt); err != nil {
		return g, err
	}
	if g.EndedAt, err = parseNullTime(r.EndedAt); err != nil {
		return g, err
	}
	if g.VoidedAt, err = parseNullTime(r.VoidedAt); err != nil {
		return g, err
	}
	g.Moves = make([]play.StoredMove, len(moves))
	for i, m := range moves {
		at, err := parseTime(m.PlayedAt)
		if err != nil {
			return g, err
		}
		g.Moves[i] = play.StoredMove{Ply: m.Ply, UCI: m.UCI, At: at,
			Clock: time.Duration(m.ClockMS.Int64) * time.Millisecond, HasClock: m.ClockMS.Valid}
	}
	return g, nil
}

func seatColumns(s game.Seat) (sql.NullInt64, string) {
	return sql.NullInt64{Int64: s.User, Valid: s.IsHuman()}, s.Bot.String()
}

func toSeat(id sql.NullInt64, bot string) (game.Seat, error) {
	l, err := game.ParseLevel(bot)
	return game.Seat{User: id.Int64, Bot: l}, err
}

// formatTime writes t in the stored layout (UTC, milliseconds).
func formatTime(t time.Time) string { return t.UTC().Format(timeLayout) }

// FormatTime writes t as the store keeps times, for SQL written outside
// the package against the same tables (store/postgres's leases).
func FormatTime(t time.Time) string { return formatTime(t) }

func nullTime(t time.Time) sql.NullString {
	if t.IsZero() {
		return sql.NullString{}
	}
	return sql.NullString{String: formatTime(t), Valid: true}
}

func parseTime(s string) (time.Time, error) {
	t, err := time.Parse(timeLayout, s)
	if err != nil {
		return time.Time{}, fmt.Errorf("stored time %q: %w", s, err)
	}
	return t, nil
}

func parseNullTime(s sql.NullString) (time.Time, error) {
	if !s.Valid {
		return time.Time{}, nil
	}
	return parseTime(s.String)
}
