//go:build e2e

package handlers_test

import (
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"satranc/handlers/tlsserve/tlstest"
)

// The public host name the deployment tests give the site, in place of the
// documentation's chess.example.org. Chromium and the tests' HTTP client
// reach it at ::1, so that the browser's address (::1) differs from the
// proxy's (127.0.0.1, where it reaches Satranç) in the request log.
const (
	docHost   = "chess.example.org"
	testHost  = "chess.test"
	docUpstrm = "127.0.0.1:8080"
)

// proxiedServer starts satranc as docs/operations.md's systemd unit
// configures it for a proxy on the same machine: its listen address,
// trusted proxy and public address are the unit's, with the test's host
// name and ports. restart stops it and starts it again on the same
// database and port, as an upgrade of the binary does.
func proxiedServer(t *testing.T, publicPort int) (srv *server, port int, restart func() *server) {
	t.Helper()
	port = freePort(t)
	env := unitEnvironment(t)
	args := []string{
		"--addr", substitute(t, env["SATRANC_ADDR"], docUpstrm, fmt.Sprintf("127.0.0.1:%d", port)),
		"--trusted-proxy", env["SATRANC_TRUSTED_PROXY"],
		"--base-url", substitute(t, env["SATRANC_BASE_URL"], docHost, fmt.Sprintf("%s:%d", testHost, publicPort)),
	}
	if env["SATRANC_H2C"] == "true" {
		args = append(args, "--h2c")
	}
	srv = startServer(t, args...)
	restart = func() *server {
		srv.stop(t)
		srv = startServerOn(t, srv.DB, args...)
		return srv
	}
	return srv, port, restart
}

// unitEnvironment returns the Environment= settings of the documented
// satranc.service.
func unitEnvironment(t *testing.T) map[string]string {
	t.Helper()
	env := map[string]string{}
	for _, line := range strings.Split(docBlock(t, "ini", "# /etc/systemd/system/satranc.service\n"), "\n") {
		if kv, ok := strings.CutPrefix(line, "Environment="); ok {
			k, v, _ := strings.Cut(kv, "=")
			env[k] = v
		}
	}
	for _, k := range []string{"SATRANC_ADDR", "SATRANC_TRUSTED_PROXY", "SATRANC_BASE_URL"} {
		if env[k] == "" {
			t.Fatalf("the documented satranc.service sets no %s", k)
		}
	}
	return env
}

// TestDeployCaddy runs the site behind Caddy with docs/operations.md's
// Caddyfile block, Caddy's own local certificate authority standing in
// for Let's Encrypt (the global options are the test's).
func TestDeployCaddy(t *testing.T) {
	httpPort, httpsPort := freePort(t), freePort(t)
	srv, port, restart := proxiedServer(t, httpsPort)
	dir := t.TempDir()
	site := substitute(t, docBlock(t, "caddy", "reverse_proxy"),
		docHost, testHost,
		docUpstrm, fmt.Sprintf("127.0.0.1:%d", port),
	)
	global := fmt.Sprintf("{\n\tadmin off\n\tlocal_certs\n\tskip_install_trust\n\thttp_port %d\n\thttps_port %d\n\tstorage file_system %s\n}\n\n",
		httpPort, httpsPort, filepath.Join(dir, "data"))
	caddyfile := filepath.Join(dir, "Caddyfile")
	if err := os.WriteFile(caddyfile, []byte(global+site), 0o644); err != nil {
		t.Fatal(err)
	}
	home := []string{"HOME=" + dir, "XDG_DATA_HOME=" + dir, "XDG_CONFIG_HOME=" + dir}
	runDaemon(t, "caddy", home, "run", "--config", caddyfile, "--adapter", "caddyfile")

	d := deployment{
		name:       "caddy",
		base:       fmt.Sprintf("https://%s:%d", testHost, httpsPort),
		hostRules:  "MAP " + testHost + " [::1]",
		srv:        srv,
		restart:    restart,
		clientAddr: "[::1]",
		upstream:   "HTTP/2.0", // versions h2c
	}
	c := httpsClient("::1")
	waitServing(t, c, d.base+"/healthz")
	checkCompression(t, c, d.base)
	checkLivePlay(t, d)
}

// TestDeployNginx runs the site behind nginx with docs/operations.md's
// server blocks, with a certificate the test makes in place of certbot's.
func TestDeployNginx(t *testing.T) {
	httpPort, httpsPort := freePort(t), freePort(t)
	srv, port, restart := proxiedServer(t, httpsPort)
	dir := t.TempDir()
	cert, key := makeCertificate(t, dir, testHost)
	site := substitute(t, docBlock(t, "nginx", "proxy_pass"),
		"/etc/letsencrypt/live/"+docHost+"/fullchain.pem", cert,
		"/etc/letsencrypt/live/"+docHost+"/privkey.pem", key,
		docHost, testHost,
		docUpstrm, fmt.Sprintf("127.0.0.1:%d", port),
	)
	site = listenPorts(t, site, map[string]int{"80": httpPort, "443": httpsPort})

	// The main configuration is Debian's, reduced to what a test run
	// needs: its own files, and the workers able to use them.
	temp := filepath.Join(dir, "temp")
	if err := os.MkdirAll(temp, 0o755); err != nil {
		t.Fatal(err)
	}
	user := ""
	if os.Geteuid() == 0 {
		user = "user root;\n" // workers write into the test's folders
	}
	main := fmt.Sprintf(`%sdaemon off;
pid %[2]s/nginx.pid;
error_log %[2]s/error.log;
events { worker_connections 1024; }
http {
    include /etc/nginx/mime.types;
    default_type application/octet-stream;
    ssl_protocols TLSv1.2 TLSv1.3;
    access_log %[2]s/access.log;
    client_body_temp_path %[2]s/body;
    proxy_temp_path %[2]s/proxy;
    fastcgi_temp_path %[2]s/fastcgi;
    uwsgi_temp_path %[2]s/uwsgi;
    scgi_temp_path %[2]s/scgi;
    include %[2]s/satranc.conf;
}
`, user, temp)
	for name, text := range map[string]string{"nginx.conf": main, "satranc.conf": site} {
		if err := os.WriteFile(filepath.Join(temp, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	runDaemon(t, "nginx", nil, "-c", filepath.Join(temp, "nginx.conf"), "-p", temp)

	d := deployment{
		name:       "nginx",
		base:       fmt.Sprintf("https://%s:%d", testHost, httpsPort),
		hostRules:  "MAP " + testHost + " [::1]",
		srv:        srv,
		restart:    restart,
		clientAddr: "[::1]",
		upstream:   "HTTP/1.1", // nginx proxies HTTP/1.1 only
	}
	c := httpsClient("::1")
	waitServing(t, c, d.base+"/healthz")
	checkCompression(t, c, d.base)

	// Plain HTTP leads to HTTPS.
	resp, err := c.Get(fmt.Sprintf("http://%s:%d/rules?lang=tr", testHost, httpPort))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if loc := resp.Header.Get("Location"); resp.StatusCode != http.StatusMovedPermanently || loc != "https://"+testHost+"/rules?lang=tr" {
		t.Errorf("http:// answered %d to %q, want 301 to https://%s/rules?lang=tr", resp.StatusCode, loc, testHost)
	}
	checkLivePlay(t, d)
}

var listenPort = regexp.MustCompile(`(?m)^(\s*listen (?:\[::\]:)?)(\d+)\b`)

// listenPorts replaces the ports of nginx's listen lines.
func listenPorts(t *testing.T, conf string, ports map[string]int) string {
	t.Helper()
	return listenPort.ReplaceAllStringFunc(conf, func(line string) string {
		m := listenPort.FindStringSubmatch(line)
		p, ok := ports[m[2]]
		if !ok {
			t.Fatalf("the documented nginx block listens on port %s, which the test does not expect", m[2])
		}
		return m[1] + strconv.Itoa(p)
	})
}

// makeCertificate writes a self-signed certificate for host and its key
// into dir, and returns their paths.
func makeCertificate(t *testing.T, dir, host string) (certPath, keyPath string) {
	t.Helper()
	certPath, keyPath = filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")
	tlstest.WriteCert(t, certPath, keyPath, host, 1, host)
	return certPath, keyPath
}
