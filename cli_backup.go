package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"time"

	"satranc/store"
)

// runBackup implements `satranc backup [--db satranc.db] FILE`: a
// consistent copy of the database, taken while the server keeps running
// (store.BackupFile, SQLite's VACUUM INTO). It never overwrites FILE.
func runBackup(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("backup", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), `Usage: satranc backup [--db satranc.db] FILE

Writes a consistent copy of the database to the new file FILE while the
server keeps running. FILE must not exist. To restore, stop the server,
copy FILE over the database file, remove any stale -wal and -shm files
beside it, and start the server.

Flags:
`)
		fs.PrintDefaults()
	}
	dbPath := fs.String("db", envOr("SATRANC_DB", "satranc.db"), "SQLite database `file` to back up (env SATRANC_DB)")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fs.NArg() != 1 {
		fmt.Fprintln(stderr, "satranc backup: want exactly one backup FILE")
		fs.Usage()
		return 2
	}
	dest := fs.Arg(0)
	start := time.Now()
	if err := store.BackupFile(ctx, *dbPath, dest); err != nil {
		fmt.Fprintf(stderr, "satranc backup: %v\n", err)
		return 1
	}
	size := int64(-1)
	if fi, err := os.Stat(dest); err == nil {
		size = fi.Size()
	}
	fmt.Fprintf(stdout, "backed up %s to %s (%d bytes) in %v\n", *dbPath, dest, size, time.Since(start).Round(time.Millisecond))
	return 0
}
