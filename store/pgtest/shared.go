package pgtest

import (
	"errors"
	"os"
	"sync"
	"testing"
)

// Shared is one server for a package's tests: the first test that asks
// for a database starts it, and Main stops it when the tests are done.
type Shared struct {
	once   sync.Once
	server *Server
	err    error
}

// NewDatabase returns the URL of a fresh database for tb on the shared
// server; it skips tb when PostgreSQL is not installed.
func (sh *Shared) NewDatabase(tb testing.TB) string {
	tb.Helper()
	sh.once.Do(func() { sh.server, sh.err = Start() })
	if sh.err != nil {
		if errors.Is(sh.err, ErrUnavailable) {
			Skip(tb, "%v", sh.err)
		}
		tb.Fatal(sh.err)
	}
	return sh.server.NewDatabase(tb)
}

// Main runs the package's tests (a TestMain's body) and then stops the
// shared server, if one started.
func (sh *Shared) Main(m *testing.M) {
	code := m.Run()
	if sh.server != nil {
		if err := sh.server.Stop(); err != nil {
			os.Stderr.WriteString(err.Error() + "\n")
			code = 1
		}
	}
	os.Exit(code)
}
