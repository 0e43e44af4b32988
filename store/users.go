package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"

	"satranc/engine/account"
	"satranc/engine/chips"
	"satranc/engine/cosmetics"
)

// ErrConflict is returned, wrapped, when a write breaks a uniqueness rule.
var ErrConflict = errors.New("store: conflict")

// userColumns are the columns userRow reads, in a query on users.
const userColumns = "id, username, language, gender, is_admin, created_at, board_theme, piece_set, frame, sound_off"

// userRow is a users row as account.User needs it.
type userRow struct {
	ID        int64  `db:"id"`
	Username  string `db:"username"`
	Language  string `db:"language"`
	Gender    string `db:"gender"`
	Admin     bool   `db:"is_admin"`
	CreatedAt string `db:"created_at"`
	// The chosen cosmetics (migration 0009); '' is the default.
	BoardTheme string `db:"board_theme"`
	PieceSet   string `db:"piece_set"`
	Frame      string `db:"frame"`
	// SoundOff: the game page's sounds are off (migration 0013).
	SoundOff bool `db:"sound_off"`
}

// fields are the row's fields in the order of userColumns, to scan into.
func (r *userRow) fields() []any {
	return []any{&r.ID, &r.Username, &r.Language, &r.Gender, &r.Admin, &r.CreatedAt, &r.BoardTheme, &r.PieceSet, &r.Frame, &r.SoundOff}
}

// toUser converts a row.
func toUser(r userRow) (account.User, error) {
	created, err := time.Parse(timeLayout, r.CreatedAt)
	if err != nil {
		return account.User{}, fmt.Errorf("user %d: created_at: %w", r.ID, err)
	}
	return account.User{
		ID:        r.ID,
		Name:      r.Username,
		Language:  r.Language,
		Gender:    account.Gender(r.Gender),
		Admin:     r.Admin,
		CreatedAt: created,
		Look:      cosmetics.Look{Board: r.BoardTheme, Pieces: r.PieceSet, Frame: r.Frame}.Normal(),
		SoundOff:  r.SoundOff,
	}, nil
}

// CreateUser stores a new account and, in the same transaction, issues it
// the sign-up grant (s.SignupGrant chips, SPEC section 5). The first
// account of the database becomes its administrator: the INSERT itself
// asks whether any account exists, inside the IMMEDIATE transaction (see
// dsn), so of two first sign-ups at once only one can be first. A name already
// taken, in any case, is an error matching both ErrConflict and
// account.ErrUsernameTaken.
func (s *Store) CreateUser(ctx context.Context, u account.NewUser) (account.User, error) {
	tx, err := s.db.BeginTxx(ctx, nil)
	if err != nil {
		return account.User{}, fmt.Errorf("store: create user %q: %w", u.Name, err)
	}
	defer func() { _ = tx.Rollback() }()
	var r userRow
	now := s.now()
	err = tx.GetContext(ctx, &r,
		`INSERT INTO users (username, password_hash, language, created_at, is_admin)
		VALUES (?, ?, ?, ?, NOT EXISTS (SELECT 1 FROM users)) RETURNING `+userColumns,
		u.Name, u.PasswordHash, u.Language, now)
	if err == nil && s.SignupGrant > 0 {
		err = post(ctx, tx, now, chips.Grant(r.ID, s.SignupGrant, chips.ReasonSignup))
	}
	if err == nil {
		err = tx.Commit()
	}
	if broken(err) == UniqueConstraint {
		return account.User{}, fmt.Errorf("store: create user %q: %w: %w", u.Name, ErrConflict, account.ErrUsernameTaken)
	}
	if err != nil {
		return account.User{}, fmt.Errorf("store: create user %q: %w", u.Name, err)
	}
	return toUser(r)
}

// UserByName returns the user called name, in any case. A missing user
// matches both ErrNotFound and account.ErrNotFound.
func (s *Store) UserByName(ctx context.Context, name string) (account.User, error) {
	u, err := getUser(ctx, s.rdb, "username = ?", name)
	if err != nil {
		return account.User{}, fmt.Errorf("store: user %q: %w", name, err)
	}
	return u, nil
}

// UserByID returns the user with the given id. A missing user matches both
// ErrNotFound and account.ErrNotFound.
func (s *Store) UserByID(ctx context.Context, id int64) (account.User, error) {
	u, err := getUser(ctx, s.rdb, "id = ?", id)
	if err != nil {
		return account.User{}, fmt.Errorf("store: user %d: %w", id, err)
	}
	return u, nil
}

// Credentials returns the user called name, in any case, with the password
// hash, for a log-in.
func (s *Store) Credentials(ctx context.Context, name string) (account.Credentials, error) {
	var r struct {
		userRow
		PasswordHash string `db:"password_hash"`
	}
	err := s.rdb.GetContext(ctx, &r, "SELECT "+userColumns+", password_hash FROM users WHERE username = ?", name)
	if err != nil {
		return account.Credentials{}, fmt.Errorf("store: credentials %q: %w", name, notFound(err))
	}
	u, err := toUser(r.userRow)
	if err != nil {
		return account.Credentials{}, fmt.Errorf("store: credentials %q: %w", name, err)
	}
	return account.Credentials{User: u, PasswordHash: r.PasswordHash}, nil
}

// UpdateProfile saves the profile of user userID and returns the updated
// user.
func (s *Store) UpdateProfile(ctx context.Context, userID int64, p account.Profile) (account.User, error) {
	var r userRow
	err := s.changeSessions(ctx, userID, func(tx *countedTx) error {
		return tx.GetContext(ctx, &r,
			"UPDATE users SET language = ?, gender = ? WHERE id = ? RETURNING "+userColumns,
			p.Language, string(p.Gender), userID)
	})
	if err != nil {
		return account.User{}, fmt.Errorf("store: update profile of user %d: %w", userID, notFound(err))
	}
	return toUser(r)
}

// SaveSound stores whether the game page plays sounds for user userID
// (account.User.SoundOff is its opposite). A missing user matches
// ErrNotFound.
func (s *Store) SaveSound(ctx context.Context, userID int64, on bool) error {
	err := s.changeSessions(ctx, userID, func(tx *countedTx) error {
		return updatedOne(tx.ExecContext(ctx, "UPDATE users SET sound_off = ? WHERE id = ?", !on, userID))
	})
	if err != nil {
		return fmt.Errorf("store: save sound of user %d: %w", userID, err)
	}
	return nil
}

// getUser reads the one user matching the where clause.
func getUser(ctx context.Context, q sqlx.QueryerContext, where string, args ...any) (account.User, error) {
	var r userRow
	if err := sqlx.GetContext(ctx, q, &r, "SELECT "+userColumns+" FROM users WHERE "+where, args...); err != nil {
		return account.User{}, notFound(err)
	}
	return toUser(r)
}

// notFound turns sql.ErrNoRows into an error matching both ErrNotFound and
// account.ErrNotFound; other errors pass unchanged.
// updatedOne is the error of an update that should change one row: its
// own, or one matching ErrNotFound when it changed none.
func updatedOne(res sql.Result, err error) error {
	if err != nil {
		return err
	}
	n, err := res.RowsAffected()
	if err == nil && n == 0 {
		err = notFound(sql.ErrNoRows)
	}
	return err
}

func notFound(err error) error {
	if errors.Is(err, sql.ErrNoRows) {
		return fmt.Errorf("%w: %w", ErrNotFound, account.ErrNotFound)
	}
	return err
}

// Store keeps the accounts.
var _ account.Store = (*Store)(nil)
