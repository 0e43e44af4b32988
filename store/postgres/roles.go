package postgres

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"math"
	"time"
)

// Roles are cluster-wide jobs that one node at a time does when several
// nodes share one database (migration 0012_cluster_roles,
// docs/scaling.md): RoleLobby, the lobby's queues. They are held like a
// game's lease (leases.go), by the database's clock.

// RoleLobby is the role of the node that runs the lobby's queues.
const RoleLobby = "lobby"

// secretRow is the row of cluster_roles that keeps the cluster's secret
// (ClusterSecret) in its node column. No node ever holds it: its "node"
// is no node's id, so no claim, renewal or release touches it.
const secretRow = "cluster-secret"

// ClusterSecret returns the secret the nodes of the cluster share, made
// by the first node that asks (32 random bytes, in hex) and kept in the
// database. A node marks the requests it forwards with it, so that a
// client cannot pass its own request off as forwarded (handlers/cluster).
func (s *Store) ClusterSecret(ctx context.Context) (string, error) {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("postgres: cluster secret: %w", err)
	}
	_, err := s.db.ExecContext(ctx, `INSERT INTO cluster_roles (name, node, addr, epoch, expires_ms)
		VALUES (?, ?, '', 1, ?) ON CONFLICT (name) DO NOTHING`, secretRow, hex.EncodeToString(b), int64(math.MaxInt64))
	var secret string
	if err == nil {
		err = s.db.GetContext(ctx, &secret, "SELECT node FROM cluster_roles WHERE name = ?", secretRow)
	}
	if err != nil {
		return "", fmt.Errorf("postgres: cluster secret: %w", err)
	}
	return secret, nil
}

// ClaimRole makes node (reachable at addr) the holder of role name for
// ttl, unless another node holds it unexpired; either way it returns the
// lease that holds after the call. A claim by the holder renews it.
func (s *Store) ClaimRole(ctx context.Context, name, node, addr string, ttl time.Duration) (Lease, error) {
	l, err := s.claimLease(ctx, "cluster_roles", "name", name, node, addr, ttl)
	if err != nil {
		return Lease{}, fmt.Errorf("postgres: claim role %s: %w", name, err)
	}
	return l, nil
}

// Role returns the unexpired lease of role name; ok is false when no node
// holds it.
func (s *Store) Role(ctx context.Context, name string) (l Lease, ok bool, err error) {
	err = s.rdb.GetContext(ctx, &l, `SELECT node, addr, epoch FROM cluster_roles
		WHERE name = ? AND expires_ms >= `+nowMS, name)
	if errors.Is(err, sql.ErrNoRows) {
		return Lease{}, false, nil
	}
	if err != nil {
		return Lease{}, false, fmt.Errorf("postgres: role %s: %w", name, err)
	}
	return l, true, nil
}

// RenewRoles extends by ttl the unexpired roles node holds and returns how
// many. A role that lapsed stays lapsed: another node may hold it by now.
func (s *Store) RenewRoles(ctx context.Context, node string, ttl time.Duration) (int64, error) {
	now := nowMS
	res, err := s.db.ExecContext(ctx, `UPDATE cluster_roles SET expires_ms = `+now+` + ?
		WHERE node = ? AND expires_ms >= `+now, ttl.Milliseconds(), node)
	var n int64
	if err == nil {
		n, err = res.RowsAffected()
	}
	if err != nil {
		return 0, fmt.Errorf("postgres: renew roles of %s: %w", node, err)
	}
	return n, nil
}

// ReleaseRoles ends every role of node at once (a node shutting down).
func (s *Store) ReleaseRoles(ctx context.Context, node string) error {
	if _, err := s.db.ExecContext(ctx, "UPDATE cluster_roles SET expires_ms = 0 WHERE node = ?", node); err != nil {
		return fmt.Errorf("postgres: release roles of %s: %w", node, err)
	}
	return nil
}
