package main

import (
	"bufio"
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"flag"
	"io"
	"net"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"satranc/handlers/tlsserve/tlstest"
)

func TestServeTLSFlagErrors(t *testing.T) {
	dir := t.TempDir()
	certA, keyA := tlstest.WriteSelfSigned(t, dir, "a", 1)
	_, keyB := tlstest.WriteSelfSigned(t, dir, "b", 2)
	db := filepath.Join(dir, "x.db")
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"cert without key", []string{"--tls-cert", certA}, "--tls-cert and --tls-key go together"},
		{"key without cert", []string{"--tls-key", keyA}, "--tls-cert and --tls-key go together"},
		{"domain and files", []string{"--domain", "chess.example.org", "--tls-cert", certA, "--tls-key", keyA}, "--domain and --tls-cert exclude each other"},
		{"acme email without domain", []string{"--acme-email", "admin@example.org"}, "need --domain"},
		{"acme directory without domain", []string{"--acme-directory", "https://127.0.0.1:14000/dir"}, "need --domain"},
		{"http-addr without tls", []string{"--http-addr", "127.0.0.1:0"}, "--http-addr needs --domain or --tls-cert"},
		{"domain is a URL", []string{"--domain", "https://chess.example.org"}, "want a host name"},
		{"domain with a port", []string{"--domain", "chess.example.org:443"}, "want a host name"},
		{"domain is an address", []string{"--domain", "192.0.2.7"}, "want a host name"},
		{"bad acme directory", []string{"--domain", "chess.example.org", "--acme-directory", "127.0.0.1:14000/dir"}, "--acme-directory"},
		{"domain with postgres", []string{"--domain", "chess.example.org", "--db", "postgres://satranc@db.example.org/satranc"}, "needs --cert-dir"},
		{"missing cert file", []string{"--tls-cert", filepath.Join(dir, "none.pem"), "--tls-key", keyA}, "none.pem: no such file"},
		{"key of another cert", []string{"--tls-cert", certA, "--tls-key", keyB}, "private key does not match"},
		{"h2c with tls", []string{"--tls-cert", certA, "--tls-key", keyA, "--h2c"}, "--h2c is for a plain listener"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var stderr bytes.Buffer
			args := append([]string{"serve", "--addr", "127.0.0.1:0", "--db", db}, tc.args...)
			code := run(context.Background(), args, nil, &bytes.Buffer{}, &stderr)
			if code != 2 || !strings.Contains(stderr.String(), tc.want) {
				t.Errorf("serve %q = %d, stderr %q; want 2 and %q", tc.args, code, stderr.String(), tc.want)
			}
		})
	}
}

func TestFlagGiven(t *testing.T) {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	addr := fs.String("addr", ":8080", "")
	if err := fs.Parse([]string{"--addr", ":8080"}); err != nil {
		t.Fatal(err)
	}
	if !flagGiven(fs, "addr", "SATRANC_TEST_UNSET") || flagGiven(fs, "db", "SATRANC_TEST_UNSET") {
		t.Errorf("flagGiven: --addr %s given, --db not, want true and false", *addr)
	}
	t.Setenv("SATRANC_TEST_SET", "x")
	if !flagGiven(fs, "db", "SATRANC_TEST_SET") {
		t.Error("flagGiven(db) with its environment variable set = false, want true")
	}
}

// TestServeTLSFiles starts serve in-process with --tls-cert and --tls-key
// and a redirect listener: the site answers over HTTP/2, the session
// cookie is Secure, plain HTTP is redirected to the HTTPS port, a
// spectator's stream works over HTTP/1.1 (the connection, a TLS one, taken
// out of net/http) and over HTTP/2, a renewed certificate is served
// without a restart, and cancelling stops both listeners cleanly and ends
// the streams.
func TestServeTLSFiles(t *testing.T) {
	dir := t.TempDir()
	certFile, keyFile := tlstest.WriteSelfSigned(t, dir, "site", 1)
	roots := x509.NewCertPool()
	pemBytes, err := os.ReadFile(certFile)
	if err != nil {
		t.Fatal(err)
	}
	roots.AppendCertsFromPEM(pemBytes)

	srv := serveInProcess(t, "--addr", "127.0.0.1:0", "--http-addr", "127.0.0.1:0",
		"--tls-cert", certFile, "--tls-key", keyFile, "--auth-burst", "50",
		"--db", filepath.Join(dir, "x.db"))
	addr := srv.logged(t, "listening")
	httpAddr := srv.logged(t, "redirecting")
	base := "https://" + addr
	if line := logLine(srv.logs.String(), "listening"); !strings.Contains(line, "tls=files") {
		t.Errorf("listening line %q does not say tls=files", line)
	}

	var streamsEnded sync.WaitGroup
	h2 := &http.Transport{TLSClientConfig: &tls.Config{RootCAs: roots}, ForceAttemptHTTP2: true}
	h1 := &http.Transport{TLSClientConfig: &tls.Config{RootCAs: roots}}
	h1.Protocols = new(http.Protocols)
	h1.Protocols.SetHTTP1(true)
	defer h2.CloseIdleConnections()
	defer h1.CloseIdleConnections()
	client := &http.Client{Transport: h2, Timeout: 10 * time.Second}
	waitHealthy(t, client, base+"/healthz", nil)

	resp, err := client.Get(base + "/")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || resp.ProtoMajor != 2 {
		t.Errorf("GET / = %d over %s, want 200 over HTTP/2", resp.StatusCode, resp.Proto)
	}

	// Sign-up as a browser would post it: the session cookie is Secure.
	noFollow := &http.Client{Transport: h2, Timeout: 20 * time.Second,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	form := url.Values{"username": {"ayse"}, "password": {"correct horse ayse"}}
	req, err := http.NewRequest(http.MethodPost, base+"/signup", strings.NewReader(form.Encode()))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Origin", base)
	req.Header.Set("Sec-Fetch-Site", "same-origin")
	resp, err = noFollow.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if len(resp.Cookies()) == 0 {
		t.Errorf("sign-up = %d with no cookie", resp.StatusCode)
	}
	for _, c := range resp.Cookies() {
		if !c.Secure || !c.HttpOnly {
			t.Errorf("sign-up over TLS: cookie %s Secure %v HttpOnly %v, want both", c.Name, c.Secure, c.HttpOnly)
		}
	}

	// Plain HTTP is sent to HTTPS, path and query kept, port included.
	resp, err = noFollow.Get("http://" + httpAddr + "/some/path?x=1")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if want := base + "/some/path?x=1"; resp.StatusCode != http.StatusPermanentRedirect || resp.Header.Get("Location") != want {
		t.Errorf("GET http://%s/some/path?x=1 = %d to %q, want 308 to %s", httpAddr, resp.StatusCode, resp.Header.Get("Location"), want)
	}

	// A spectator watches over HTTP/1.1 (the stream taken out of net/http,
	// on its TLS connection) and over HTTP/2 (through net/http).
	a, b := newUserOver(t, h2, base, "bora"), newUserOver(t, h2, base, "cemil")
	gamePath, _, white, _ := privateGame(t, a, b)
	white.move(t, gamePath, "e2e4", 0)
	for _, tc := range []struct {
		name, spectator string
		tr              *http.Transport
		proto           int
		detached        bool
	}{{"HTTP/1.1", "deniz", h1, 1, true}, {"HTTP/2", "emre", h2, 2, false}} {
		spectator := newUserOver(t, tc.tr, base, tc.spectator)
		streamCtx, stopStream := context.WithTimeout(context.Background(), 10*time.Second)
		req, err := http.NewRequestWithContext(streamCtx, http.MethodGet, base+gamePath+"/events", nil)
		if err != nil {
			t.Fatal(err)
		}
		resp, err := (&http.Client{Transport: tc.tr, Jar: spectator.client.Jar}).Do(req)
		if err != nil {
			t.Fatalf("%s stream: %v", tc.name, err)
		}
		detached := resp.Close && len(resp.TransferEncoding) == 0 && resp.ProtoMajor == 1
		if resp.StatusCode != http.StatusOK || resp.ProtoMajor != tc.proto || detached != tc.detached {
			t.Errorf("%s stream = %d over %s, outside net/http %v; want 200 over HTTP/%d, %v", tc.name, resp.StatusCode, resp.Proto, detached, tc.proto, tc.detached)
		}
		br := bufio.NewReader(resp.Body)
		if event := firstEvent(br); !strings.Contains(event, "e4") {
			t.Errorf("%s stream: first event does not show the move e4:\n%.300s", tc.name, event)
		}
		// The stream stays open: the shutdown must end it.
		streamsEnded.Go(func() {
			defer stopStream()
			defer resp.Body.Close()
			_, _ = io.Copy(io.Discard, br)
		})
	}

	// A renewed certificate is served at the next handshake.
	old := servedSerial(t, addr)
	tlstest.WriteCert(t, certFile, keyFile, "site", 2)
	later := time.Now().Add(time.Minute)
	for _, f := range []string{certFile, keyFile} {
		if err := os.Chtimes(f, later, later); err != nil {
			t.Fatal(err)
		}
	}
	if got := servedSerial(t, addr); old != 1 || got != 2 {
		t.Errorf("certificate served before and after renewal: serial %d then %d, want 1 then 2", old, got)
	}
	if !strings.Contains(srv.logs.String(), "certificate reloaded") {
		t.Error("no log line for the certificate reloaded")
	}

	srv.stop(t)
	if !strings.Contains(srv.logs.String(), "stopped") {
		t.Error("serve did not log a graceful stop")
	}
	ended := make(chan struct{})
	go func() { streamsEnded.Wait(); close(ended) }()
	select {
	case <-ended:
	case <-time.After(5 * time.Second):
		t.Error("the spectators' streams were still open after the shutdown")
	}
	for _, a := range []string{addr, httpAddr} {
		if c, err := net.DialTimeout("tcp", a, time.Second); err == nil {
			c.Close()
			t.Errorf("%s still accepts connections after the shutdown", a)
		}
	}
}

// newUserOver signs a new user up over the transport tr.
func newUserOver(t *testing.T, tr http.RoundTripper, base, name string) *user {
	t.Helper()
	jar, err := cookiejar.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	u := &user{name: name, base: base, client: &http.Client{Transport: tr, Jar: jar, Timeout: 20 * time.Second}}
	resp, _ := u.post(t, "/signup", url.Values{"username": {name}, "password": {"correct horse " + name}})
	if resp.StatusCode != http.StatusOK || !hasCookie(jar, base) {
		t.Fatalf("sign up %s: %d at %s", name, resp.StatusCode, resp.Request.URL)
	}
	return u
}

// firstEvent reads a stream's first event (up to its blank line).
func firstEvent(br *bufio.Reader) string {
	var b strings.Builder
	for {
		line, err := br.ReadString('\n')
		b.WriteString(line)
		if err != nil || (line == "\n" && b.Len() > 1) {
			return b.String()
		}
	}
}

// servedSerial returns the serial number of the certificate addr serves
// on a new connection (whichever it is: the test trusts the first only).
func servedSerial(t *testing.T, addr string) int64 {
	t.Helper()
	conn, err := tls.Dial("tcp", addr, &tls.Config{InsecureSkipVerify: true})
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	return conn.ConnectionState().PeerCertificates[0].SerialNumber.Int64()
}

var logAddr = regexp.MustCompile(`addr=(\S+)`)

// logged waits for the log line msg and returns its address.
func logged(t *testing.T, logs *syncBuffer, msg string, done <-chan int) string {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		select {
		case code := <-done:
			t.Fatalf("serve exited with %d before logging %q", code, msg)
		default:
		}
		if m := logAddr.FindStringSubmatch(logLine(logs.String(), msg)); m != nil {
			return m[1]
		}
	}
	t.Fatalf("serve did not log %q within 30 s", msg)
	return ""
}

// logLine returns the first text log line whose message is msg.
func logLine(logs, msg string) string {
	for line := range strings.Lines(logs) {
		if strings.Contains(line, " msg="+msg+" ") {
			return line
		}
	}
	return ""
}
