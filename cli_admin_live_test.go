package main

import (
	"net/http"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// TestAdminReachesRunningServer: `satranc admin admin NAME on`, run as a
// process of its own beside a running server on the same database, gives
// the member the administration pages at their next requests, and `off`
// takes them away: the server's cache of sessions reads the log of
// changes once a second (store/session_cache.go), where it used to keep a
// member 30 s.
func TestAdminReachesRunningServer(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the binary")
	}
	dir := t.TempDir()
	bin := buildSatranc(t, dir)
	db := filepath.Join(dir, "x.db")
	srv := startServer(t, bin, freeAddr(t), db)
	newUser(t, srv.base, "ilk") // the first account: an administrator
	u := newUser(t, srv.base, "zeynep")
	adminPage := func() int {
		resp, _ := u.getBody(t, "/admin")
		return resp.StatusCode
	}
	// Read once, the member is kept by the server's cache from here on.
	if code := adminPage(); code != http.StatusNotFound {
		t.Fatalf("GET /admin before the command = %d, want 404", code)
	}
	for _, tc := range []struct {
		to   string
		want int
	}{{"on", http.StatusOK}, {"off", http.StatusNotFound}} {
		if out, err := exec.Command(bin, "admin", "--db", db, "admin", "zeynep", tc.to).CombinedOutput(); err != nil {
			t.Fatalf("satranc admin admin zeynep %s: %v\n%s", tc.to, err, out)
		}
		ran := time.Now()
		code := adminPage()
		for code != tc.want && time.Since(ran) < 10*time.Second {
			time.Sleep(100 * time.Millisecond)
			code = adminPage()
		}
		if code != tc.want {
			t.Errorf("GET /admin 10 s after `admin zeynep %s` = %d, want %d", tc.to, code, tc.want)
			continue
		}
		t.Logf("admin %s reached the server in %v", tc.to, time.Since(ran).Round(time.Millisecond))
	}
}
