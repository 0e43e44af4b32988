package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"satranc/handlers/admincli"
	"satranc/handlers/app"
	"satranc/store/postgres"
)

// runAdmin implements `satranc admin`: administration of accounts on the
// database, also while the server runs (the store serialises the writes).
// The commands are handlers/admincli's.
func runAdmin(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("admin", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), admincli.Usage)
		fs.PrintDefaults()
	}
	dbPath := fs.String("db", envOr("SATRANC_DB", "satranc.db"), "SQLite database `file`, or a postgres:// URL (env SATRANC_DB)")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	cmd := fs.Args()
	if !admincli.ArgsOK(cmd) {
		fs.Usage()
		return 2
	}
	// An administration command never creates a database file: a mistyped
	// path should say so, not make an empty one. (A PostgreSQL URL names a
	// server, which Open reaches or not.)
	if _, err := os.Stat(*dbPath); err != nil && !postgres.IsURL(*dbPath) {
		fmt.Fprintf(stderr, "satranc admin: %v\n", err)
		return 1
	}
	st, _, err := app.OpenStore(ctx, *dbPath)
	if err != nil {
		fmt.Fprintf(stderr, "satranc admin: %v\n", err)
		return 1
	}
	defer st.Close()

	return admincli.Run(ctx, st, cmd, fs.Usage, stdout, stderr)
}
