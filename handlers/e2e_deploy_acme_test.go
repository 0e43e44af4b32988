//go:build e2e

package handlers_test

import (
	"bufio"
	"crypto/x509"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// TestDeployACME runs the site with TLS built in (--domain), its
// certificate obtained from Pebble, Let's Encrypt's test ACME server, by
// the tls-alpn-01 challenge on the HTTPS port; then a browser plays on it,
// straight to satranc, over HTTP/2.
func TestDeployACME(t *testing.T) {
	checkLivePlay(t, acmeDeployment(t, true))
}

// TestDeployACMEHTTP01 obtains the certificate by the http-01 challenge,
// answered on the redirect listener (--http-addr): Pebble's tls-alpn-01
// validation goes to a port nothing listens on, so that the first
// challenge fails and the manager tries the next.
func TestDeployACMEHTTP01(t *testing.T) {
	acmeDeployment(t, false)
}

// acmeDeployment starts Pebble, its DNS server (which resolves every name
// to 127.0.0.1) and satranc with --domain chess.test; it checks the
// certificate satranc obtains (Pebble's, for chess.test), HTTP/2, and the
// redirect from plain HTTP. With alpn false, Pebble validates tls-alpn-01
// on a port nothing listens on.
func acmeDeployment(t *testing.T, alpn bool) deployment {
	t.Helper()
	if _, err := exec.LookPath("pebble"); err != nil && os.Getenv("SATRANC_TEST_NO_SKIP") != "1" {
		t.Skip("pebble is not installed (Debian: apt install pebble)")
	}
	httpsPort, httpPort := freePort(t), freePort(t)
	pebblePort, pebbleAdmin, dnsPort, dnsAdmin := freePort(t), freePort(t), freePort(t), freePort(t)
	alpnPort := httpsPort
	if !alpn {
		alpnPort = freePort(t)
	}

	// Pebble serves its API over HTTPS with a certificate of the test's
	// (the Debian package ships none); satranc trusts it through
	// SSL_CERT_FILE, as an operator would a private CA's.
	dir := t.TempDir()
	pebbleCert, pebbleKey := makeCertificate(t, dir, "localhost")
	config, err := json.Marshal(map[string]any{"pebble": map[string]any{
		"listenAddress":                  fmt.Sprintf("127.0.0.1:%d", pebblePort),
		"managementListenAddress":        fmt.Sprintf("127.0.0.1:%d", pebbleAdmin),
		"certificate":                    pebbleCert,
		"privateKey":                     pebbleKey,
		"httpPort":                       httpPort,
		"tlsPort":                        alpnPort,
		"ocspResponderURL":               "",
		"externalAccountBindingRequired": false,
	}})
	if err != nil {
		t.Fatal(err)
	}
	configFile := filepath.Join(dir, "pebble.json")
	if err := os.WriteFile(configFile, config, 0o644); err != nil {
		t.Fatal(err)
	}
	runDaemon(t, "pebble-challtestsrv", nil,
		"-defaultIPv4", "127.0.0.1", "-defaultIPv6", "",
		"-dns01", fmt.Sprintf("127.0.0.1:%d", dnsPort),
		"-management", fmt.Sprintf("127.0.0.1:%d", dnsAdmin),
		"-http01", "", "-https01", "", "-tlsalpn01", "")
	runDaemon(t, "pebble", []string{"PEBBLE_VA_NOSLEEP=1", "PEBBLE_WFE_NONCEREJECT=0"},
		"-config", configFile, "-dnsserver", fmt.Sprintf("127.0.0.1:%d", dnsPort))
	pebbleClient := httpsClient("127.0.0.1")
	directory := fmt.Sprintf("https://localhost:%d/dir", pebblePort)
	waitServing(t, pebbleClient, directory)

	db := filepath.Join(t.TempDir(), "satranc.db")
	srv := startTLSServer(t, []string{"SSL_CERT_FILE=" + pebbleCert},
		"--db", db,
		"--domain", testHost,
		"--addr", fmt.Sprintf("127.0.0.1:%d", httpsPort),
		"--http-addr", fmt.Sprintf("127.0.0.1:%d", httpPort),
		"--acme-directory", directory,
		"--acme-email", "admin@"+testHost,
	)
	d := deployment{
		name:       "acme",
		base:       fmt.Sprintf("https://%s:%d", testHost, httpsPort),
		hostRules:  "MAP " + testHost + " 127.0.0.1",
		srv:        srv,
		clientAddr: "127.0.0.1",
	}

	// The first handshake for chess.test obtains the certificate.
	c := httpsClient("127.0.0.1")
	start := time.Now()
	waitServing(t, c, d.base+"/healthz")
	t.Logf("acme (alpn %v): the first answer over HTTPS, certificate included, took %v", alpn, time.Since(start).Round(time.Millisecond))

	resp, err := c.Get(d.base + "/")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || resp.ProtoMajor != 2 {
		t.Errorf("GET / = %d over %s, want 200 over HTTP/2", resp.StatusCode, resp.Proto)
	}
	leaf := resp.TLS.PeerCertificates[0]
	if err := leaf.VerifyHostname(testHost); err != nil {
		t.Errorf("the certificate served: %v", err)
	}
	if err := leaf.CheckSignatureFrom(pebbleIntermediate(t, pebbleClient, pebbleAdmin)); err != nil {
		t.Errorf("the certificate served (issuer %q) is not signed by Pebble's intermediate: %v", leaf.Issuer, err)
	}
	if cached, _ := filepath.Glob(filepath.Join(filepath.Dir(db), "certs", testHost+"*")); len(cached) == 0 {
		t.Errorf("no certificate for %s kept in the folder beside the database", testHost)
	}

	// Plain HTTP leads to HTTPS, on the HTTPS listener's port.
	resp, err = c.Get(fmt.Sprintf("http://%s:%d/rules?lang=tr", testHost, httpPort))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if want := d.base + "/rules?lang=tr"; resp.StatusCode != http.StatusPermanentRedirect || resp.Header.Get("Location") != want {
		t.Errorf("http:// answered %d to %q, want 308 to %s", resp.StatusCode, resp.Header.Get("Location"), want)
	}
	return d
}

// pebbleIntermediate fetches the certificate Pebble signs with from its
// management interface (a new one at each start).
func pebbleIntermediate(t *testing.T, c *http.Client, adminPort int) *x509.Certificate {
	t.Helper()
	resp, err := c.Get(fmt.Sprintf("https://127.0.0.1:%d/intermediates/0", adminPort))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	block, _ := pem.Decode(body)
	if resp.StatusCode != http.StatusOK || block == nil {
		t.Fatalf("Pebble's intermediate: %d, %q", resp.StatusCode, body)
	}
	cert, err := x509.ParseCertificate(block.Bytes)
	if err != nil {
		t.Fatal(err)
	}
	return cert
}

var (
	logListening = regexp.MustCompile(`msg=listening addr=(127\.0\.0\.1:\d+)`)
	logDebug     = regexp.MustCompile(`msg="debug listening" addr=(127\.0\.0\.1:\d+)`)
)

// startTLSServer runs `satranc serve` with TLS built in, with env added to
// its environment and args, until the test ends. Its site answers HTTPS
// only, so the server's URL is its debug listener (--debug-addr), where
// the tests read /metrics over plain HTTP.
func startTLSServer(t *testing.T, env []string, args ...string) *server {
	t.Helper()
	cmd := exec.Command(satrancBinary(t), append([]string{"serve", "--debug-addr", "127.0.0.1:0"}, args...)...)
	cmd.Env = append(os.Environ(), env...)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	s := &server{cmd: cmd}
	t.Cleanup(func() {
		s.stop(t)
		if t.Failed() {
			t.Logf("satranc's log:\n%s", strings.Join(s.logLines(), "\n"))
		}
	})
	debug := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			line := sc.Text()
			s.logMu.Lock()
			s.log = append(s.log, line)
			s.logMu.Unlock()
			if m := logDebug.FindStringSubmatch(line); m != nil {
				debug <- m[1]
			}
		}
		_, _ = io.Copy(io.Discard, stderr)
	}()
	select {
	case addr := <-debug:
		s.URL = "http://" + addr
	case <-time.After(30 * time.Second):
		t.Fatal("the server did not report its debug address within 30 s")
	}
	listening := ""
	for _, line := range s.logLines() {
		if m := logListening.FindStringSubmatch(line); m != nil && strings.Contains(line, "tls=acme") {
			listening = m[1]
		}
	}
	if listening == "" {
		t.Fatal(`the server's "listening" line does not say tls=acme`)
	}
	return s
}
