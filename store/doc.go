// Package store keeps Satranç's data in SQLite through sqlx and the
// mattn/go-sqlite3 driver.
//
// Open creates the database file if needed, sets WAL mode, foreign keys and
// a busy timeout on every connection, and applies the embedded migrations
// (migrations/NNNN_name.sql) that the file has not seen yet:
//
//	s, err := store.Open(ctx, "satranc.db")
//	if err != nil { ... }
//	defer s.Close()
//
// Each public method is one transaction boundary. A missing row is
// ErrNotFound, never a nil result with a nil error.
package store
