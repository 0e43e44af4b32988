package store

import (
	"context"
	"database/sql"
	"fmt"
	"strings"

	"github.com/jmoiron/sqlx"

	"satranc/engine/fairplay"
)

// What the administration pages read: accounts with their flags and
// figures, and games with their players' names.

// memberRow is a users row with its balance, for fairplay.Member.
type memberRow struct {
	ID         int64  `db:"id"`
	Name       string `db:"username"`
	Admin      bool   `db:"is_admin"`
	VIP        bool   `db:"vip"`
	Restricted bool   `db:"restricted"`
	Balance    int64  `db:"balance"`
	Rating     int    `db:"rating"`
	RatedGames int    `db:"rated_games"`
	XP         int    `db:"xp"`
	CreatedAt  string `db:"created_at"`
}

const memberSelect = `SELECT u.id, u.username, u.is_admin, u.vip, u.restricted,
	COALESCE((SELECT balance FROM balances WHERE kind = 'user' AND id = u.id), 0) AS balance,
	u.rating, u.rated_games, u.xp, u.created_at FROM users u `

func toMember(r memberRow) (fairplay.Member, error) {
	created, err := parseTime(r.CreatedAt)
	if err != nil {
		return fairplay.Member{}, fmt.Errorf("user %d: %w", r.ID, err)
	}
	return fairplay.Member{ID: r.ID, Name: r.Name, Admin: r.Admin, VIP: r.VIP, Restricted: r.Restricted,
		Balance: r.Balance, Rating: r.Rating, RatedGames: r.RatedGames, XP: r.XP, CreatedAt: created}, nil
}

// FindMembers returns at most limit accounts whose name contains query, in
// any case, in order of name. An empty query finds nothing.
func (s *Store) FindMembers(ctx context.Context, query string, limit int) ([]fairplay.Member, error) {
	query = strings.TrimSpace(query)
	if query == "" || limit <= 0 {
		return nil, nil
	}
	// LIKE's wildcards in the query are matched literally.
	pattern := "%" + strings.NewReplacer(`\`, `\\`, "%", `\%`, "_", `\_`).Replace(query) + "%"
	var rows []memberRow
	err := s.rdb.SelectContext(ctx, &rows, memberSelect+`WHERE u.username LIKE ? ESCAPE '\'
		ORDER BY u.username LIMIT ?`, pattern, limit) // username sorts in any case (NOCASE, CITEXT)
	if err != nil {
		return nil, fmt.Errorf("store: find members %q: %w", query, err)
	}
	out := make([]fairplay.Member, len(rows))
	for i, r := range rows {
		if out[i], err = toMember(r); err != nil {
			return nil, fmt.Errorf("store: find members: %w", err)
		}
	}
	return out, nil
}

// Member returns the account called name, in any case. A missing one is
// ErrNotFound (and account.ErrNotFound).
func (s *Store) Member(ctx context.Context, name string) (fairplay.Member, error) {
	var r memberRow
	if err := s.rdb.GetContext(ctx, &r, memberSelect+"WHERE u.username = ?", name); err != nil {
		return fairplay.Member{}, fmt.Errorf("store: member %q: %w", name, notFound(err))
	}
	m, err := toMember(r)
	if err != nil {
		return fairplay.Member{}, fmt.Errorf("store: member %q: %w", name, err)
	}
	return m, nil
}

// adminGameRow is a games row with its players' names.
type adminGameRow struct {
	ID          int64          `db:"id"`
	Kind        string         `db:"kind"`
	WhiteID     sql.NullInt64  `db:"white_id"`
	BlackID     sql.NullInt64  `db:"black_id"`
	White       sql.NullString `db:"white"`
	Black       sql.NullString `db:"black"`
	WhiteBot    string         `db:"white_bot"`
	BlackBot    string         `db:"black_bot"`
	Status      string         `db:"status"`
	Result      string         `db:"result"`
	Termination string         `db:"termination"`
	Stake       int64          `db:"stake"`
	Unstaked    bool           `db:"unstaked"`
	CreatedAt   string         `db:"created_at"`
	VoidedAt    sql.NullString `db:"voided_at"`
}

const adminGameSelect = `SELECT g.id, g.kind, g.white_id, g.black_id, w.username AS white, b.username AS black,
	g.white_bot, g.black_bot, g.status, g.result, g.termination, g.stake, g.unstaked,
	g.created_at, g.voided_at
	FROM games g LEFT JOIN users w ON w.id = g.white_id LEFT JOIN users b ON b.id = g.black_id `

func toAdminGame(r adminGameRow) (fairplay.Game, error) {
	g := fairplay.Game{ID: r.ID, Kind: r.Kind, WhiteID: r.WhiteID.Int64, BlackID: r.BlackID.Int64, White: r.White.String, Black: r.Black.String,
		WhiteBot: r.WhiteBot, BlackBot: r.BlackBot, Status: r.Status, Result: r.Result,
		Termination: r.Termination, Stake: r.Stake, Unstaked: r.Unstaked}
	var err error
	if g.CreatedAt, err = parseTime(r.CreatedAt); err != nil {
		return g, fmt.Errorf("game %d: %w", r.ID, err)
	}
	if r.VoidedAt.Valid {
		if g.VoidedAt, err = parseTime(r.VoidedAt.String); err != nil {
			return g, fmt.Errorf("game %d: %w", r.ID, err)
		}
	}
	return g, nil
}

// AdminGame returns game id as the administration pages show it. A
// missing game is ErrNotFound (and play.ErrNotFound).
func (s *Store) AdminGame(ctx context.Context, id int64) (fairplay.Game, error) {
	gs, err := adminGames(ctx, s.rdb, "WHERE g.id = ?", id)
	if err == nil && len(gs) == 0 {
		err = errGameNotFound
	}
	if err != nil {
		return fairplay.Game{}, fmt.Errorf("store: game %d: %w", id, err)
	}
	return gs[0], nil
}

// MemberGames returns the limit most recent games of user, newest first.
func (s *Store) MemberGames(ctx context.Context, user int64, limit int) ([]fairplay.Game, error) {
	gs, err := adminGames(ctx, s.rdb, `WHERE g.id IN (SELECT id FROM games WHERE white_id = ?
		UNION SELECT id FROM games WHERE black_id = ?) ORDER BY g.id DESC LIMIT ?`, user, user, limit)
	if err != nil {
		return nil, fmt.Errorf("store: games of user %d: %w", user, err)
	}
	return gs, nil
}

func adminGames(ctx context.Context, q sqlx.QueryerContext, where string, args ...any) ([]fairplay.Game, error) {
	var rows []adminGameRow
	if err := sqlx.SelectContext(ctx, q, &rows, adminGameSelect+where, args...); err != nil {
		return nil, err
	}
	out := make([]fairplay.Game, len(rows))
	for i, r := range rows {
		var err error
		if out[i], err = toAdminGame(r); err != nil {
			return nil, err
		}
	}
	return out, nil
}
