// Package postgres runs the store on PostgreSQL, for several nodes sharing
// one database (docs/scaling.md). The store's SQL is the same as on
// SQLite: this package makes the connections (placeholders rewritten,
// read-write transactions serialized by one advisory lock), keeps
// PostgreSQL's migrations (one for each of the store's, checked to build
// the same schema) and tells the store its errors. Besides, it keeps what
// only a cluster needs: the games' leases, with the fence that keeps a
// node from writing a game it lost, and the cluster's roles.
//
//	st, err := postgres.Open(ctx, "postgres:///satranc?host=/run/postgresql")
//	if err != nil { ... }
//	defer st.Close()
package postgres
