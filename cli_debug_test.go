package main

import (
	"bytes"
	"io"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestServeDebugAddr starts serve in-process with --debug-addr: the debug
// listener serves pprof and the metrics, which count the site's requests;
// the site serves /metrics too, but no pprof.
func TestServeDebugAddr(t *testing.T) {
	addr, debugAddr := freeAddr(t), freeAddr(t)
	srv := serveInProcess(t, "--addr", addr, "--debug-addr", debugAddr,
		"--db", filepath.Join(t.TempDir(), "x.db"), "--log-format", "json")
	client := &http.Client{Timeout: 5 * time.Second}
	exited := make(chan error)
	waitHealthy(t, client, "http://"+addr+"/healthz", exited)

	fetch := func(url string) (int, string) {
		t.Helper()
		for range 100 { // the debug listener starts just after the site's
			resp, err := client.Get(url)
			if err != nil {
				time.Sleep(20 * time.Millisecond)
				continue
			}
			defer resp.Body.Close()
			body, _ := io.ReadAll(resp.Body)
			return resp.StatusCode, string(body)
		}
		t.Fatalf("GET %s: no answer", url)
		return 0, ""
	}
	if code, body := fetch("http://" + debugAddr + "/metrics"); code != http.StatusOK ||
		!strings.Contains(body, `satranc_http_requests_total{code="200",method="GET",route="/healthz"}`) {
		t.Errorf("debug /metrics = %d, without the /healthz requests:\n%s", code, body)
	}
	if code, body := fetch("http://" + debugAddr + "/debug/pprof/"); code != http.StatusOK || !strings.Contains(body, "goroutine") {
		t.Errorf("debug /debug/pprof/ = %d", code)
	}
	if code, _ := fetch("http://" + addr + "/metrics"); code != http.StatusOK {
		t.Errorf("site /metrics = %d, want 200", code)
	}
	if code, _ := fetch("http://" + addr + "/debug/pprof/"); code != http.StatusNotFound {
		t.Errorf("site /debug/pprof/ = %d, want 404", code)
	}
	if !bytes.Contains([]byte(srv.logs.String()), []byte(`"msg":"debug listening"`)) {
		t.Errorf("no JSON log line for the debug listener")
	}
}
