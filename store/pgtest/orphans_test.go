package pgtest

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// TestStopOrphans: a server whose test process is gone is stopped and
// its folder removed by the next Start; a live owner's server is left.
func TestStopOrphans(t *testing.T) {
	orphan, err := Start()
	if errors.Is(err, ErrUnavailable) {
		Skip(t, "%v", err)
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = orphan.Stop() })
	gone := exec.Command("true")
	if err := gone.Run(); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(orphan.dir, ownerFile), []byte(strconv.Itoa(gone.Process.Pid)), 0o644); err != nil {
		t.Fatal(err)
	}

	kept := New(t) // its Start finds the orphan
	if _, err := os.Stat(orphan.dir); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the orphan's folder: %v, want it removed", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if conn, err := pgx.Connect(ctx, orphan.URL("postgres")); err == nil {
		_ = conn.Close(ctx)
		t.Error("the orphan server still answers")
	}
	conn, err := pgx.Connect(ctx, kept.URL("postgres"))
	if err != nil {
		t.Fatalf("the new server: %v", err)
	}
	_ = conn.Close(ctx)
	stopOrphans(kept.bin, kept.cred)
	if _, err := os.Stat(kept.dir); err != nil {
		t.Errorf("a live owner's server was taken: %v", err)
	}
}
