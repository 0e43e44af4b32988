// Package pgtest starts a throwaway PostgreSQL server for tests: initdb
// and pg_ctl from the installed PostgreSQL, a data directory in a
// temporary folder, a Unix socket beside it and no TCP port, and fsync off
// (the data is thrown away). Tests that need it skip, saying why, where
// PostgreSQL is not installed. A server whose test process died without
// stopping it is stopped by the next one's Start (orphans.go).
//
// The binaries are found in $SATRANC_PG_BIN, on PATH, or in the folder
// `pg_config --bindir` names (Debian keeps them off PATH). PostgreSQL
// refuses to run as root, so under root the server runs as the system
// user postgres, which the Debian package creates.
package pgtest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// ErrUnavailable is returned, wrapped with the reason, when PostgreSQL's
// server binaries (or, under root, the postgres user) are missing.
var ErrUnavailable = errors.New("pgtest: PostgreSQL is not available")

// superuser is the name of the server's superuser role, which tests
// connect as (trust authentication on the socket only).
const superuser = "satranc"

// NoSkipEnv names the environment variable that, when set (CI sets it),
// makes a test fail where a server it needs is missing, instead of
// skipping: a green CI then means the tests on PostgreSQL and NATS ran.
const NoSkipEnv = "SATRANC_TEST_NO_SKIP"

// Skip skips tb, saying why, because a server it needs is not installed;
// with NoSkipEnv set it fails tb instead.
func Skip(tb testing.TB, format string, args ...any) {
	tb.Helper()
	if os.Getenv(NoSkipEnv) != "" {
		tb.Fatalf("%s is set, and: "+format, append([]any{NoSkipEnv}, args...)...)
	}
	tb.Skipf("skipping: "+format, args...)
}

// Server is a running throwaway PostgreSQL server.
type Server struct {
	dir  string // the temporary folder: data/, the socket and the log
	bin  string // folder of initdb and pg_ctl
	cred *syscall.Credential
}

// New starts a server for the test tb and stops it, removing its files,
// when tb ends. It skips tb when PostgreSQL is not available.
func New(tb testing.TB) *Server {
	tb.Helper()
	s, err := Start()
	if errors.Is(err, ErrUnavailable) {
		Skip(tb, "%v", err)
	}
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() {
		if err := s.Stop(); err != nil {
			tb.Errorf("pgtest: %v", err)
		}
	})
	return s
}

// Start initialises and starts a server in a new temporary folder. The
// caller must Stop it.
func Start() (*Server, error) {
	bin, err := binDir()
	if err != nil {
		return nil, err
	}
	cred, err := credential()
	if err != nil {
		return nil, err
	}
	stopOrphans(bin, cred)
	// Not t.TempDir: its folders are private to root, and the server may
	// run as postgres. The socket path must also stay short (about 100
	// bytes at most).
	dir, err := os.MkdirTemp("", strings.TrimSuffix(dirPattern, "*"))
	if err != nil {
		return nil, fmt.Errorf("pgtest: %w", err)
	}
	s := &Server{dir: dir, bin: bin, cred: cred}
	if err := os.WriteFile(filepath.Join(dir, ownerFile), []byte(strconv.Itoa(os.Getpid())), 0o644); err != nil {
		_ = os.RemoveAll(dir)
		return nil, fmt.Errorf("pgtest: %w", err)
	}
	if cred != nil {
		if err := os.Chown(dir, int(cred.Uid), int(cred.Gid)); err != nil {
			_ = os.RemoveAll(dir)
			return nil, fmt.Errorf("pgtest: %w", err)
		}
	}
	if err := s.start(); err != nil {
		_ = s.Stop()
		return nil, err
	}
	return s, nil
}

func (s *Server) start() error {
	data := filepath.Join(s.dir, "data")
	if err := s.run("initdb", "-D", data, "-U", superuser, "--auth=trust",
		"-E", "UTF8", "--locale=C", "--no-sync"); err != nil {
		return err
	}
	opts := strings.Join([]string{
		"-k", s.dir, "-c", "listen_addresses=''",
		"-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off",
		"-c", "max_connections=300",
	}, " ")
	return s.run("pg_ctl", "-D", data, "-l", filepath.Join(s.dir, "server.log"), "-o", opts, "-w", "-t", "60", "start")
}

// run runs one of the server's programs as the server's user.
func (s *Server) run(name string, args ...string) error {
	cmd := exec.Command(filepath.Join(s.bin, name), args...)
	cmd.Dir = s.dir
	if s.cred != nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: s.cred}
	}
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		log, _ := os.ReadFile(filepath.Join(s.dir, "server.log"))
		return fmt.Errorf("pgtest: %s: %w\n%s\n%s", name, err, out.Bytes(), log)
	}
	return nil
}

// Stop stops the server at once and removes its files.
func (s *Server) Stop() error {
	var err error
	if _, serr := os.Stat(filepath.Join(s.dir, "data", "postmaster.pid")); serr == nil {
		err = s.run("pg_ctl", "-D", filepath.Join(s.dir, "data"), "-m", "immediate", "-w", "stop")
	}
	return errors.Join(err, os.RemoveAll(s.dir))
}

// URL returns the postgres:// URL of database db on the server.
func (s *Server) URL(db string) string {
	q := url.Values{"host": {s.dir}, "user": {superuser}}
	return "postgres:///" + url.PathEscape(db) + "?" + q.Encode()
}

// CreateDatabase creates an empty database called name and returns its
// URL.
func (s *Server) CreateDatabase(ctx context.Context, name string) (string, error) {
	conn, err := pgx.Connect(ctx, s.URL("postgres"))
	if err != nil {
		return "", fmt.Errorf("pgtest: %w", err)
	}
	defer func() { _ = conn.Close(ctx) }()
	if _, err := conn.Exec(ctx, "CREATE DATABASE "+pgx.Identifier{name}.Sanitize()); err != nil {
		return "", fmt.Errorf("pgtest: create database %s: %w", name, err)
	}
	return s.URL(name), nil
}

// databases counts the databases NewDatabase made, for unique names.
var databases atomic.Int64

// NewDatabase creates a database with a name unique on the server for the
// test tb and returns its URL.
func (s *Server) NewDatabase(tb testing.TB) string {
	tb.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	name := fmt.Sprintf("t%d_%d", time.Now().UnixNano(), databases.Add(1))
	u, err := s.CreateDatabase(ctx, name)
	if err != nil {
		tb.Fatal(err)
	}
	return u
}

// binDir finds the folder of initdb and pg_ctl.
func binDir() (string, error) {
	d, from := os.Getenv("SATRANC_PG_BIN"), "SATRANC_PG_BIN"
	if d == "" {
		if p, err := exec.LookPath("initdb"); err == nil {
			d, from = filepath.Dir(p), "PATH"
		} else if out, err := exec.Command("pg_config", "--bindir").Output(); err == nil {
			d, from = strings.TrimSpace(string(out)), "pg_config --bindir"
		} else {
			return "", fmt.Errorf("%w: no initdb on PATH and no pg_config (install the postgresql package, or set SATRANC_PG_BIN)", ErrUnavailable)
		}
	}
	for _, name := range []string{"initdb", "pg_ctl"} {
		if _, err := os.Stat(filepath.Join(d, name)); err != nil {
			return "", fmt.Errorf("%w: no %s in %s (from %s): install the postgresql package", ErrUnavailable, name, d, from)
		}
	}
	return d, nil
}

// credential returns the postgres user's ids when running as root (whom
// PostgreSQL refuses), nil otherwise.
func credential() (*syscall.Credential, error) {
	if os.Geteuid() != 0 {
		return nil, nil
	}
	u, err := user.Lookup("postgres")
	if err != nil {
		return nil, fmt.Errorf("%w: running as root and there is no postgres user to run the server as: %v", ErrUnavailable, err)
	}
	uid, err1 := strconv.ParseUint(u.Uid, 10, 32)
	gid, err2 := strconv.ParseUint(u.Gid, 10, 32)
	if err := errors.Join(err1, err2); err != nil {
		return nil, fmt.Errorf("pgtest: postgres user: %w", err)
	}
	return &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}, nil
}
