// Command satranc is the Satranç chess server and its tools, in one binary:
//
//	satranc serve [--addr :8080] [--db satranc.db]   the web server
//	satranc perft --depth N [--fen FEN] [--divide]   move-generation node counts
//	satranc pgn [--lang en|tr] [--format pgn|json]   replay and normalise PGN
//	satranc uci [--level easy|medium|hard|max]     a UCI engine on stdin/stdout
//	satranc backup [--db satranc.db] FILE            copy the live database
//	satranc admin vip|restrict|grant ...             account administration
//	satranc loadtest --addr URL --games N            drive simulated games
//	satranc version                                  print the version
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
)

// version is the release version, set at build time with
// -ldflags "-X main.version=v1.2.3"; otherwise it comes from the build info.
var version string

const usage = `Satranç: a self-hosted chess server.

Usage:
  satranc <command> [flags]

Commands:
  serve     run the web server (--addr, --db)
  perft     count move-generation nodes (--depth, --fen, --divide)
  pgn       replay PGN from stdin and write it back normalised (--lang, --format)
  uci       play as a UCI engine on stdin/stdout
  backup    copy the live database to a new file (--db, FILE)
  admin     administer accounts and games
  loadtest  drive simulated games against a server (--addr, --games, --duration)
  version   print the version

Run 'satranc <command> -h' for a command's flags.
`

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	go func() {
		// After the first signal, restore the default handling so that a
		// second one ends a shutdown that hangs.
		<-ctx.Done()
		stop()
	}()
	code := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// run executes the command in args (without the program name) and returns
// the exit status: 0 on success, 1 on failure, 2 on a usage error.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	cmd, rest := args[0], args[1:]
	switch cmd {
	case "serve":
		return runServe(ctx, rest, stdout, stderr)
	case "perft":
		return runPerft(ctx, rest, stdout, stderr)
	case "pgn":
		return runPGN(ctx, rest, stdin, stdout, stderr)
	case "uci":
		return runUCI(ctx, rest, stdin, stdout, stderr)
	case "backup":
		return runBackup(ctx, rest, stdout, stderr)
	case "admin":
		return runAdmin(ctx, rest, stdout, stderr)
	case "loadtest":
		return runLoadtest(ctx, rest, stdout, stderr)
	case "version":
		fmt.Fprint(stdout, buildInfo())
		return 0
	case "help", "-h", "-help", "--help":
		fmt.Fprint(stdout, usage)
		return 0
	default:
		fmt.Fprintf(stderr, "satranc: unknown command %q\n\n%s", cmd, usage)
		return 2
	}
}

// buildVersion returns the short version: the release version, or "devel"
// with the VCS revision (see app.BuildInfo.Short).
func buildVersion() string {
	return buildInfo().Short()
}
