package store

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// countUsers opens path as a Store and returns how many users it holds.
func countUsers(t *testing.T, path string) int {
	t.Helper()
	s, err := Open(context.Background(), path)
	if err != nil {
		t.Fatalf("Open(backup) = %v", err)
	}
	defer s.Close()
	var n int
	if err := s.db.Get(&n, "SELECT COUNT(*) FROM users"); err != nil {
		t.Fatal(err)
	}
	var res string
	if err := s.db.Get(&res, "PRAGMA integrity_check"); err != nil || res != "ok" {
		t.Errorf("integrity_check of the backup = %q, %v; want ok", res, err)
	}
	return n
}

// TestBackupWhileWriting backs up while another goroutine inserts rows:
// the copy holds every row committed before the backup began and passes
// the integrity check.
func TestBackupWhileWriting(t *testing.T) {
	s, _ := mustOpenSQLite(t)
	ctx := context.Background()
	mustUsers(t, s, 10)

	stop := make(chan struct{})
	var wg sync.WaitGroup
	var writeErr error
	wg.Go(func() {
		for i := 100; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			if _, err := s.db.Exec(`INSERT INTO users (id, username, password_hash, created_at) VALUES (?, ?, 'x', ?)`,
				i, fmt.Sprintf("writer%d", i), s.now()); err != nil {
				writeErr = err
				return
			}
		}
	})
	dest := filepath.Join(t.TempDir(), "copy.db")
	err := s.Backup(ctx, dest)
	close(stop)
	wg.Wait()
	if err != nil {
		t.Fatalf("Backup() = %v", err)
	}
	if writeErr != nil {
		t.Fatalf("writer: %v", writeErr)
	}
	if n := countUsers(t, dest); n < 10 {
		t.Errorf("backup has %d users, want at least 10", n)
	}
	leftovers, _ := filepath.Glob(filepath.Join(filepath.Dir(dest), ".copy.db.tmp-*"))
	if len(leftovers) > 0 {
		t.Errorf("temporary files left: %v", leftovers)
	}
}

func TestBackupRefusesExistingFile(t *testing.T) {
	s, path := mustOpenSQLite(t)
	dest := filepath.Join(t.TempDir(), "taken.db")
	if err := os.WriteFile(dest, []byte("keep me"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name   string
		backup func() error
	}{
		{"Store.Backup", func() error { return s.Backup(context.Background(), dest) }},
		{"BackupFile", func() error { return BackupFile(context.Background(), path, dest) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if err := tc.backup(); !errors.Is(err, ErrBackupExists) {
				t.Errorf("%s onto an existing file = %v, want ErrBackupExists", tc.name, err)
			}
			if b, _ := os.ReadFile(dest); string(b) != "keep me" {
				t.Errorf("existing file changed to %q", b)
			}
		})
	}
}

func TestBackupFile(t *testing.T) {
	s, path := mustOpenSQLite(t)
	mustUsers(t, s, 3)
	dest := filepath.Join(t.TempDir(), "copy.db")
	if err := BackupFile(context.Background(), path, dest); err != nil {
		t.Fatalf("BackupFile() = %v", err)
	}
	if n := countUsers(t, dest); n != 3 {
		t.Errorf("backup has %d users, want 3", n)
	}
}

func TestBackupFileBadSource(t *testing.T) {
	dir := t.TempDir()
	other := filepath.Join(dir, "other.db")
	if err := os.WriteFile(other, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, src, want string
	}{
		{"missing", filepath.Join(dir, "missing.db"), "no such file"},
		{"directory", dir, "not a regular file"},
		{"not ours", other, "not a Satranç database"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dest := filepath.Join(t.TempDir(), "copy.db")
			err := BackupFile(context.Background(), tc.src, dest)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("BackupFile(%s) = %v, want an error containing %q", tc.name, err, tc.want)
			}
			if _, err := os.Stat(dest); err == nil {
				t.Errorf("BackupFile(%s) created the backup file", tc.name)
			}
			if tc.name == "missing" {
				if _, err := os.Stat(tc.src); err == nil {
					t.Errorf("BackupFile created the missing source")
				}
			}
		})
	}
}
