package postgres

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"

	"satranc/engine/play"
	"satranc/store"
)

// Leases say which node owns each live game when several nodes share one
// database (migration 0010_leases, docs/scaling.md): the owner runs the
// game's writer, the others forward the game's requests to it. Times are
// the database's clock (nowMS), so the nodes' clocks need not
// agree.

// Lease is a game's owner.
type Lease struct {
	Node  string // the owning node's id
	Addr  string // where other nodes forward the game's requests
	Epoch int64  // counts the changes of owner
}

// ClaimGame makes node (reachable at addr) the owner of game id for ttl,
// unless another node holds a lease that has not expired; either way it
// returns the lease that holds after the call, so the caller compares its
// Node with its own. A claim by the owner renews its lease; a change of
// owner increases the epoch.
func (s *Store) ClaimGame(ctx context.Context, id int64, node, addr string, ttl time.Duration) (Lease, error) {
	l, err := s.claimLease(ctx, "game_leases", "game_id", id, node, addr, ttl)
	if constraint(err) == store.ForeignKeyConstraint {
		err = fmt.Errorf("%w: %w", store.ErrNotFound, play.ErrNotFound)
	}
	if err != nil {
		return Lease{}, fmt.Errorf("postgres: claim game %d: %w", id, err)
	}
	return l, nil
}

// claimLease is ClaimGame and ClaimRole (roles.go): in table, whose
// primary key is keyCol, it makes node the holder of key's lease for ttl
// unless another node holds it unexpired, and returns the lease that
// holds after the call.
func (s *Store) claimLease(ctx context.Context, table, keyCol string, key any, node, addr string, ttl time.Duration) (Lease, error) {
	tx, err := s.db.BeginTxx(ctx, nil)
	if err != nil {
		return Lease{}, err
	}
	defer func() { _ = tx.Rollback() }()
	now := nowMS
	_, err = tx.ExecContext(ctx, `INSERT INTO `+table+` (`+keyCol+`, node, addr, epoch, expires_ms)
		VALUES (?, ?, ?, 1, `+now+` + ?)
		ON CONFLICT (`+keyCol+`) DO UPDATE SET
			epoch = CASE WHEN `+table+`.node = excluded.node THEN `+table+`.epoch ELSE `+table+`.epoch + 1 END,
			node = excluded.node, addr = excluded.addr, expires_ms = excluded.expires_ms
		WHERE `+table+`.node = excluded.node OR `+table+`.expires_ms < `+now,
		key, node, addr, ttl.Milliseconds())
	var l Lease
	if err == nil {
		err = tx.GetContext(ctx, &l, "SELECT node, addr, epoch FROM "+table+" WHERE "+keyCol+" = ?", key)
	}
	if err == nil {
		err = tx.Commit()
	}
	return l, err
}

// GameLease returns the unexpired lease of game id; ok is false when no
// node holds one.
func (s *Store) GameLease(ctx context.Context, id int64) (l Lease, ok bool, err error) {
	err = s.rdb.GetContext(ctx, &l, `SELECT node, addr, epoch FROM game_leases
		WHERE game_id = ? AND expires_ms >= `+nowMS, id)
	if errors.Is(err, sql.ErrNoRows) {
		return Lease{}, false, nil
	}
	if err != nil {
		return Lease{}, false, fmt.Errorf("postgres: lease of game %d: %w", id, err)
	}
	return l, true, nil
}

// RenewLeases extends by ttl the leases node holds on games that are not
// over or ended after endedAfter (a finished game stays with its owner a
// while, for the rematch), and returns how many it renewed. The others
// lapse.
func (s *Store) RenewLeases(ctx context.Context, node string, ttl time.Duration, endedAfter time.Time) (int64, error) {
	res, err := s.db.ExecContext(ctx, `UPDATE game_leases SET expires_ms = `+nowMS+` + ?
		WHERE node = ? AND game_id IN (SELECT id FROM games
			WHERE status IN ('waiting', 'active') OR ended_at > ?)`,
		ttl.Milliseconds(), node, store.FormatTime(endedAfter))
	var n int64
	if err == nil {
		n, err = res.RowsAffected()
	}
	if err != nil {
		return 0, fmt.Errorf("postgres: renew leases of %s: %w", node, err)
	}
	return n, nil
}

// ReleaseLeases ends every lease of node at once (a node shutting down,
// after its games' writers stopped), so that other nodes take its games
// over on their next request instead of after the leases' time.
func (s *Store) ReleaseLeases(ctx context.Context, node string) error {
	if _, err := s.db.ExecContext(ctx, "UPDATE game_leases SET expires_ms = 0 WHERE node = ?", node); err != nil {
		return fmt.Errorf("postgres: release leases of %s: %w", node, err)
	}
	return nil
}

// FenceAs makes the store check, in the transaction that writes a game's
// start, moves or end, that node holds the game's unexpired lease, so that
// a node that lost the game (paused past its lease while another node
// took over) cannot write to it: the write's error then wraps
// play.ErrNotOwner. Leases change only in transactions, which run one at
// a time (the writers' lock), so the lease cannot change between the check
// and the write. Call it before the store's first write of a game.
func (s *Store) FenceAs(node string) {
	s.FenceWith(func(ctx context.Context, q sqlx.QueryerContext, id int64) error {
		var n int
		err := sqlx.GetContext(ctx, q, &n, `SELECT COUNT(*) FROM game_leases
			WHERE game_id = ? AND node = ? AND expires_ms >= `+nowMS, id, node)
		if err != nil {
			return err
		}
		if n == 0 {
			return fmt.Errorf("game %d: lease not held by %s: %w", id, node, play.ErrNotOwner)
		}
		return nil
	})
}
