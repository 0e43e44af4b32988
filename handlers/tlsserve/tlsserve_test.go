package tlsserve

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"satranc/handlers/tlsserve/tlstest"
)

func TestRedirectHTTPS(t *testing.T) {
	tests := []struct {
		name, base, port, method, target, want string
	}{
		{"port kept", "", "8443", "GET", "http://chess.example.org/games/7?lang=tr", "https://chess.example.org:8443/games/7?lang=tr"},
		{"port 443 left out", "", "443", "GET", "http://chess.example.org:80/rules", "https://chess.example.org/rules"},
		{"http port dropped", "", "8443", "GET", "http://127.0.0.1:8080/x?y=1&z=%2F", "https://127.0.0.1:8443/x?y=1&z=%2F"},
		{"ipv6", "", "443", "GET", "http://[::1]:8080/", "https://[::1]/"},
		{"ipv6 port", "", "8443", "HEAD", "http://[::1]/", "https://[::1]:8443/"},
		{"post", "", "443", "POST", "http://chess.example.org/login", "https://chess.example.org/login"},
		{"base url", "https://chess.example.org", "8443", "GET", "http://10.0.0.2/a?b=c", "https://chess.example.org/a?b=c"},
		{"http base url ignored", "http://chess.example.org", "443", "GET", "http://10.0.0.2/a", "https://10.0.0.2/a"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var base *url.URL
			if tc.base != "" {
				base, _ = url.Parse(tc.base)
			}
			w := httptest.NewRecorder()
			redirectHTTPS(base, tc.port).ServeHTTP(w, httptest.NewRequest(tc.method, tc.target, nil))
			if got := w.Header().Get("Location"); w.Code != http.StatusPermanentRedirect || got != tc.want {
				t.Errorf("%s %s = %d to %q, want 308 to %q", tc.method, tc.target, w.Code, got, tc.want)
			}
		})
	}
}

// TestWarnCertFailures: a certificate that cannot be had for the site's
// own name is logged at warn level (the failed handshake itself only at
// debug); a scanner's handshake for another name or none is not.
func TestWarnCertFailures(t *testing.T) {
	var buf bytes.Buffer
	logger := slog.New(slog.NewTextHandler(&buf, nil))
	failing := func(*tls.ClientHelloInfo) (*tls.Certificate, error) {
		return nil, errors.New("acme: dial tcp: network is unreachable")
	}
	get := warnCertFailures(failing, "chess.example.org", logger)
	for _, name := range []string{"", "other.example.org", "203.0.113.9"} {
		if _, err := get(&tls.ClientHelloInfo{ServerName: name}); err == nil {
			t.Fatal("the failure was swallowed")
		}
	}
	if buf.Len() != 0 {
		t.Errorf("handshakes for other names logged:\n%s", buf.String())
	}
	if _, err := get(&tls.ClientHelloInfo{ServerName: "Chess.Example.org."}); err == nil {
		t.Fatal("the failure was swallowed")
	}
	if out := buf.String(); !strings.Contains(out, `level=WARN msg="tls: no certificate for the domain" domain=chess.example.org err="acme: dial tcp: network is unreachable"`) {
		t.Errorf("log = %q", out)
	}
}

func TestACME(t *testing.T) {
	tests := []struct {
		name string
		c    ACMEConfig
		want string // "" for none
	}{
		{"ok", ACMEConfig{Domain: "chess.example.org"}, ""},
		{"test authority", ACMEConfig{Domain: "chess.example.org", DirectoryURL: "https://127.0.0.1:14000/dir", Email: "admin@example.org"}, ""},
		{"domain is a URL", ACMEConfig{Domain: "https://chess.example.org"}, "want a host name"},
		{"domain with a port", ACMEConfig{Domain: "chess.example.org:443"}, "want a host name"},
		{"domain is an address", ACMEConfig{Domain: "192.0.2.7"}, "want a host name"},
		{"domain without a dot", ACMEConfig{Domain: "localhost"}, "want a host name"},
		{"wildcard", ACMEConfig{Domain: "*.example.org"}, "want a host name"},
		{"bad directory", ACMEConfig{Domain: "chess.example.org", DirectoryURL: "127.0.0.1:14000/dir"}, "ACME directory"},
		{"directory without host", ACMEConfig{Domain: "chess.example.org", DirectoryURL: "https:///dir"}, "ACME directory"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := tc.c
			c.CertDir = t.TempDir()
			tl, err := ACME(c)
			switch {
			case tc.want == "" && err != nil:
				t.Fatalf("ACME(%+v) = %v", tc.c, err)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Fatalf("ACME(%+v) = %v, want an error with %q", tc.c, err, tc.want)
			case tc.want != "":
				return
			}
			attrs := tl.logAttrs()
			if len(attrs) != 4 || attrs[1] != "acme" || attrs[3] != c.Domain {
				t.Errorf("logAttrs = %v, want tls=acme domain=%s", attrs, c.Domain)
			}
			cfg := tl.config(slog.New(slog.DiscardHandler))
			if cfg == nil || cfg.GetCertificate == nil || !slices.Contains(cfg.NextProtos, "h2") || !slices.Contains(cfg.NextProtos, "acme-tls/1") {
				t.Errorf("config = %+v, want GetCertificate and NextProtos with h2 and acme-tls/1", cfg)
			}
			// The http-01 handler's host policy allows the domain with
			// the redirect listener's port, and no other host.
			if err := tl.acme.HostPolicy(context.Background(), c.Domain+":8080"); err != nil {
				t.Errorf("host policy refuses %s:8080: %v", c.Domain, err)
			}
			if err := tl.acme.HostPolicy(context.Background(), "other.example.org"); err == nil {
				t.Error("host policy allows other.example.org")
			}
		})
	}
}

func TestFilesErrors(t *testing.T) {
	dir := t.TempDir()
	certA, keyA := tlstest.WriteSelfSigned(t, dir, "a", 1)
	_, keyB := tlstest.WriteSelfSigned(t, dir, "b", 2)
	if _, err := Files(filepath.Join(dir, "none.pem"), keyA); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("Files with a missing certificate = %v, want os.ErrNotExist", err)
	}
	if _, err := Files(certA, keyB); err == nil || !strings.Contains(err.Error(), "private key does not match") {
		t.Errorf("Files with another certificate's key = %v, want private key does not match", err)
	}
	tl, err := Files(certA, keyA)
	if err != nil {
		t.Fatal(err)
	}
	if attrs := tl.logAttrs(); len(attrs) != 4 || attrs[1] != "files" || attrs[3] != certA {
		t.Errorf("logAttrs = %v, want tls=files cert=%s", attrs, certA)
	}
}

// TestCertFilesReload: the files are read again when they change; a pair
// that does not load keeps the certificate served, is logged once, and is
// tried again once the files change again.
func TestCertFilesReload(t *testing.T) {
	dir := t.TempDir()
	certFile, keyFile := tlstest.WriteSelfSigned(t, dir, "site", 1)
	var logs syncBuffer
	logger := slog.New(slog.NewTextHandler(&logs, nil))
	tl, err := Files(certFile, keyFile)
	if err != nil {
		t.Fatal(err)
	}
	cfg := tl.config(logger)
	if !slices.Contains(cfg.NextProtos, "h2") {
		t.Errorf("NextProtos = %v, want h2", cfg.NextProtos)
	}
	serial := func() int64 {
		t.Helper()
		cert, err := cfg.GetCertificate(&tls.ClientHelloInfo{ServerName: "localhost"})
		if err != nil || cert == nil {
			t.Fatalf("GetCertificate = %v, %v", cert, err)
		}
		leaf, err := x509.ParseCertificate(cert.Certificate[0])
		if err != nil {
			t.Fatal(err)
		}
		return leaf.SerialNumber.Int64()
	}
	touch := func(at time.Time) {
		t.Helper()
		for _, f := range []string{certFile, keyFile} {
			if err := os.Chtimes(f, at, at); err != nil {
				t.Fatal(err)
			}
		}
	}
	now := time.Now()
	if got := serial(); got != 1 {
		t.Fatalf("serial %d, want 1", got)
	}

	tlstest.WriteCert(t, certFile, keyFile, "site", 2)
	touch(now.Add(time.Minute))
	if got := serial(); got != 2 {
		t.Errorf("after renewal: serial %d, want 2", got)
	}
	if n := strings.Count(logs.String(), "certificate reloaded"); n != 1 {
		t.Errorf("%d log lines for the reload, want 1:\n%s", n, logs.String())
	}

	// The key written but not yet the certificate: the old pair stays.
	tlstest.WriteCert(t, filepath.Join(dir, "next.pem"), keyFile, "site", 3)
	touch(now.Add(2 * time.Minute))
	for range 3 {
		if got := serial(); got != 2 {
			t.Errorf("with a mismatched pair: serial %d, want 2 kept", got)
		}
	}
	if n := strings.Count(logs.String(), "keeping the certificate served"); n != 1 {
		t.Errorf("%d warnings for the mismatched pair, want 1:\n%s", n, logs.String())
	}

	// Then the certificate: the new pair is served.
	next, err := os.ReadFile(filepath.Join(dir, "next.pem"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(certFile, next, 0o644); err != nil {
		t.Fatal(err)
	}
	touch(now.Add(3 * time.Minute))
	if got := serial(); got != 3 {
		t.Errorf("after the certificate followed its key: serial %d, want 3", got)
	}

	// A file gone keeps the certificate served too.
	if err := os.Remove(keyFile); err != nil {
		t.Fatal(err)
	}
	if got := serial(); got != 3 {
		t.Errorf("with the key file gone: serial %d, want 3 kept", got)
	}
	if n := strings.Count(logs.String(), "keeping the certificate served"); n != 2 {
		t.Errorf("%d warnings, want 2 (the mismatch, the missing file):\n%s", n, logs.String())
	}
}

// TestListen serves a handler with certificate files and a redirect
// listener: HTTP/2 over TLS, plain HTTP redirected to the HTTPS port, the
// log lines, and a clean shutdown of both listeners.
func TestListen(t *testing.T) {
	dir := t.TempDir()
	certFile, keyFile := tlstest.WriteSelfSigned(t, dir, "site", 1)
	tl, err := Files(certFile, keyFile)
	if err != nil {
		t.Fatal(err)
	}
	var logs syncBuffer
	logger := slog.New(slog.NewTextHandler(&logs, nil))
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.WriteString(w, r.Proto)
	})}
	site, err := Listen(context.Background(), Config{Addr: "127.0.0.1:0", TLS: tl, HTTPAddr: "127.0.0.1:0", Logger: logger}, srv)
	if err != nil {
		t.Fatal(err)
	}
	addr, httpAddr := site.Addr().String(), site.RedirectAddr().String()
	site.Log("db", "x.db")
	if line := logs.String(); !strings.Contains(line, "msg=listening addr="+addr+" db=x.db tls=files cert="+certFile) ||
		!strings.Contains(line, "msg=redirecting addr="+httpAddr+" to=https") {
		t.Errorf("log =\n%s", line)
	}
	errc := site.Serve()

	pemBytes, err := os.ReadFile(certFile)
	if err != nil {
		t.Fatal(err)
	}
	roots := x509.NewCertPool()
	roots.AppendCertsFromPEM(pemBytes)
	tr := &http.Transport{TLSClientConfig: &tls.Config{RootCAs: roots}, ForceAttemptHTTP2: true}
	defer tr.CloseIdleConnections()
	client := &http.Client{Transport: tr, Timeout: 10 * time.Second,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := client.Get("https://" + addr + "/")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || resp.ProtoMajor != 2 || string(body) != "HTTP/2.0" {
		t.Errorf("GET / = %d over %s, body %q; want 200 over HTTP/2", resp.StatusCode, resp.Proto, body)
	}
	resp, err = client.Get("http://" + httpAddr + "/some/path?x=1")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if want := "https://" + addr + "/some/path?x=1"; resp.StatusCode != http.StatusPermanentRedirect || resp.Header.Get("Location") != want {
		t.Errorf("GET http://%s/some/path?x=1 = %d to %q, want 308 to %s", httpAddr, resp.StatusCode, resp.Header.Get("Location"), want)
	}

	select {
	case err := <-errc:
		t.Fatalf("a server stopped: %v", err)
	default:
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := srv.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}
	if err := site.Shutdown(ctx); err != nil {
		t.Errorf("Shutdown = %v, want nil", err)
	}
	for _, a := range []string{addr, httpAddr} {
		if c, err := net.DialTimeout("tcp", a, time.Second); err == nil {
			c.Close()
			t.Errorf("%s still accepts connections after the shutdown", a)
		}
	}
}

// TestListenPlain: without TLS the site is plain HTTP, with no redirect
// listener, and a redirect listener without TLS is refused.
func TestListenPlain(t *testing.T) {
	if _, err := Listen(context.Background(), Config{Addr: "127.0.0.1:0", HTTPAddr: "127.0.0.1:0"}, &http.Server{}); err == nil {
		t.Error("Listen with a redirect listener and no TLS = nil error")
	}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.WriteString(w, r.Proto)
	})}
	site, err := Listen(context.Background(), Config{Addr: "127.0.0.1:0"}, srv)
	if err != nil {
		t.Fatal(err)
	}
	if srv.TLSConfig != nil || site.RedirectAddr() != nil {
		t.Errorf("plain site: TLSConfig %v, redirect %v; want none", srv.TLSConfig, site.RedirectAddr())
	}
	errc := site.Serve()
	resp, err := http.Get("http://" + site.Addr().String() + "/")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if string(body) != "HTTP/1.1" {
		t.Errorf("GET / over %q, want HTTP/1.1", body)
	}
	// Close stops the server at once; its error reaches the channel.
	site.Close()
	if err := <-errc; !errors.Is(err, http.ErrServerClosed) {
		t.Errorf("after Close the server returned %v, want http.ErrServerClosed", err)
	}

	// A busy address fails with the listener's error.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	var opErr *net.OpError
	if _, err := Listen(context.Background(), Config{Addr: ln.Addr().String()}, &http.Server{}); !errors.As(err, &opErr) {
		t.Errorf("Listen on a busy address = %v, want a *net.OpError", err)
	}
}

// syncBuffer is a bytes.Buffer safe for concurrent writes (the logger's)
// and reads (the test's).
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
