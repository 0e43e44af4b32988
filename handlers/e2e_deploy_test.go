//go:build e2e

package handlers_test

// The deployment tests run the real binary as docs/operations.md tells a
// self-hoster to: behind Caddy, behind nginx, or with TLS built in. The
// proxies' configurations are read from docs/operations.md itself, so that
// the page cannot drift from what is tested. This file holds what they
// share: the documentation's blocks, free ports, and the browser scenario.

import (
	"bufio"
	"context"
	"crypto/tls"
	"database/sql"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
	_ "github.com/mattn/go-sqlite3"
)

// operationsDoc is the self-hoster's guide, relative to this package.
const operationsDoc = "../docs/operations.md"

// docBlock returns the one fenced code block of docs/operations.md whose
// language is lang and whose text holds marker.
func docBlock(t *testing.T, lang, marker string) string {
	t.Helper()
	f, err := os.Open(operationsDoc)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var blocks []string
	var cur *strings.Builder
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case cur == nil && line == "```"+lang:
			cur = &strings.Builder{}
		case cur != nil && line == "```":
			if strings.Contains(cur.String(), marker) {
				blocks = append(blocks, cur.String())
			}
			cur = nil
		case cur != nil:
			cur.WriteString(line + "\n")
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if len(blocks) != 1 {
		t.Fatalf("%s has %d %s blocks holding %q, want 1", operationsDoc, len(blocks), lang, marker)
	}
	return blocks[0]
}

// substitute replaces each old string of pairs by the new one after it,
// failing the test if the block does not hold one: the documentation has
// changed under the test.
func substitute(t *testing.T, block string, pairs ...string) string {
	t.Helper()
	for i := 0; i+1 < len(pairs); i += 2 {
		if !strings.Contains(block, pairs[i]) {
			t.Fatalf("the documented block no longer holds %q:\n%s", pairs[i], block)
		}
		block = strings.ReplaceAll(block, pairs[i], pairs[i+1])
	}
	return block
}

// givenPorts are the ports freePort returned so far: the kernel may hand
// a port it just freed out again, and a test that asks for several (the
// site's, a proxy's, an ACME server's) must get different ones.
var givenPorts = struct {
	sync.Mutex
	m map[int]bool
}{m: map[int]bool{}}

// freePort returns a TCP port nothing listens on at the moment, on every
// loopback address, and that no other call returned.
func freePort(t *testing.T) int {
	t.Helper()
	for range 50 {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		port := ln.Addr().(*net.TCPAddr).Port
		ln.Close()
		givenPorts.Lock()
		taken := givenPorts.m[port]
		givenPorts.Unlock()
		if taken {
			continue
		}
		if ln6, err := net.Listen("tcp", fmt.Sprintf("[::1]:%d", port)); err == nil {
			ln6.Close()
			givenPorts.Lock()
			givenPorts.m[port] = true
			givenPorts.Unlock()
			return port
		}
	}
	t.Fatal("no port free on both 127.0.0.1 and ::1")
	return 0
}

// runDaemon starts a helper program (a proxy, an ACME server) that runs
// until the test ends; its output goes to the test log when the test fails.
func runDaemon(t *testing.T, name string, env []string, args ...string) {
	t.Helper()
	path, err := exec.LookPath(name)
	if err != nil {
		// Debian installs nginx in /usr/sbin, off an ordinary user's PATH.
		path, err = exec.LookPath(filepath.Join("/usr/sbin", name))
	}
	if err != nil {
		if os.Getenv("SATRANC_TEST_NO_SKIP") == "1" {
			t.Fatalf("%s is not installed: %v", name, err)
		}
		t.Skipf("%s is not installed", name)
	}
	logFile := filepath.Join(t.TempDir(), name+".log")
	out, err := os.Create(logFile)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(path, args...)
	cmd.Env = append(os.Environ(), env...)
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		t.Fatalf("start %s: %v", name, err)
	}
	t.Cleanup(func() {
		// SIGTERM, so that a master process (nginx's) stops its workers
		// too; SIGKILL would leave them behind, holding the ports.
		_ = cmd.Process.Signal(syscall.SIGTERM)
		done := make(chan struct{})
		go func() { _ = cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			_ = cmd.Process.Kill()
			<-done
		}
		out.Close()
		if t.Failed() {
			if b, err := os.ReadFile(logFile); err == nil {
				t.Logf("%s's output:\n%s", name, b)
			}
		}
	})
}

// httpsClient reaches the deployment as a browser would, at host mapped to
// addr, trusting any certificate (the tests' are made on the spot), with
// HTTP/2 when the server offers it, and without following redirects.
func httpsClient(addr string) *http.Client {
	dialer := &net.Dialer{Timeout: 5 * time.Second}
	tr := &http.Transport{
		DialContext: func(ctx context.Context, network, hostPort string) (net.Conn, error) {
			_, port, _ := net.SplitHostPort(hostPort)
			return dialer.DialContext(ctx, network, net.JoinHostPort(addr, port))
		},
		ForceAttemptHTTP2:  true,
		DisableCompression: true, // the tests ask for gzip themselves
	}
	tr.TLSClientConfig = &tls.Config{InsecureSkipVerify: true}
	return &http.Client{
		Transport:     tr,
		Timeout:       15 * time.Second,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
}

// waitServing polls url until it answers 200, for a proxy just started.
func waitServing(t *testing.T, c *http.Client, url string) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	var last error
	for time.Now().Before(deadline) {
		resp, err := c.Get(url)
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return
			}
			err = fmt.Errorf("status %d", resp.StatusCode)
		}
		last = err
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatalf("%s never answered 200: %v", url, last)
}

// checkCompression asks for a page and a style sheet with gzip accepted,
// as a browser does: both come compressed, over HTTP/2.
func checkCompression(t *testing.T, c *http.Client, base string) {
	t.Helper()
	for _, path := range []string{"/rules", "/static/css/app.css", "/static/js/board.js"} {
		req, _ := http.NewRequest(http.MethodGet, base+path, nil)
		req.Header.Set("Accept-Encoding", "gzip")
		resp, err := c.Do(req)
		if err != nil {
			t.Fatalf("GET %s: %v", path, err)
		}
		resp.Body.Close()
		if resp.ProtoMajor != 2 {
			t.Errorf("GET %s: %s, want HTTP/2", path, resp.Proto)
		}
		if got := resp.Header.Get("Content-Encoding"); got != "gzip" {
			t.Errorf("GET %s: Content-Encoding %q, want gzip", path, got)
		}
	}
}

// deployment is the site as a self-hoster has set it up.
type deployment struct {
	name      string  // "caddy", "nginx", "tls": in the log and the screenshots
	base      string  // the public address, such as https://chess.test:8443
	hostRules string  // Chromium's --host-resolver-rules: where the host name leads
	srv       *server // the satranc process behind it
	// restart, if set, replaces the satranc process by a new one on the
	// same database and address, as an upgrade does.
	restart func() *server
	// clientAddr is the browser's address as the server's request log
	// must show it (not the proxy's); "" skips the check.
	clientAddr string
	// upstream is the protocol the proxy speaks to the server, as the
	// request log shows it ("HTTP/2.0" for h2c); "" skips the check.
	upstream string
}

// deployBrowser is a Chromium that reaches d's host name where d says,
// trusting the certificates the tests make. It speaks no HTTP/3: Caddy
// offers it (Alt-Svc) and the tests check HTTP/2; a tab left waiting for
// its page's resources while HTTP/3 was on offer is what openTab's log
// describes.
func deployBrowser(t *testing.T, d deployment, name string) *browser {
	t.Helper()
	return newBrowser(t, d.name+"-"+name,
		chromedp.Flag("host-resolver-rules", d.hostRules),
		chromedp.Flag("ignore-certificate-errors", true),
		chromedp.Flag("disable-quic", true),
	)
}

// secureSession reports whether b holds a session cookie for base with
// the Secure attribute.
func secureSession(b *browser, base string) bool {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, 10*time.Second)
	defer cancel()
	res, err := chromedp.Run(ctx, func(ctx context.Context, tg *chromedp.Target) (network.GetCookiesResult, error) {
		return cdp.Call(ctx, tg, network.GetCookies, network.GetCookiesParams{URLs: []string{base + "/"}})
	})
	if err != nil {
		b.t.Fatalf("%s: cookies: %v", b.name, err)
	}
	for _, c := range res.Cookies {
		if c.Name == "session" {
			return c.Secure
		}
	}
	b.t.Fatalf("%s: no session cookie for %s", b.name, base)
	return false
}

// protocol returns the protocol b's page was loaded with ("h2", "http/1.1").
func protocol(b *browser) string {
	b.t.Helper()
	return eval[string](b, `performance.getEntriesByType('navigation')[0].nextHopProtocol`)
}

var sseStreams = regexp.MustCompile(`(?m)^satranc_sse_streams (\d+)`)

// waitStreams waits until the server holds at least n event streams (its
// own gauge, read on its own address, behind the proxy). A page whose
// stream failed tries again after htmx's SSE extension's back-off, which
// doubles from half a second (0.5, 1.5, 3.5, 7.5, 15.5, 31.5 s after the
// first failure): 45 s lets a page that met the server still down a few
// times come back. On failure it shows the stream requests the server
// logged.
func waitStreams(t *testing.T, srv *server, n int) {
	t.Helper()
	deadline := time.Now().Add(45 * time.Second)
	got := -1
	for time.Now().Before(deadline) {
		resp, err := http.Get(srv.URL + "/metrics")
		if err == nil {
			var sb strings.Builder
			_, _ = bufio.NewReader(resp.Body).WriteTo(&sb)
			resp.Body.Close()
			if m := sseStreams.FindStringSubmatch(sb.String()); m != nil {
				got, _ = strconv.Atoi(m[1])
				if got >= n {
					return
				}
			}
		}
		time.Sleep(100 * time.Millisecond)
	}
	for _, line := range srv.logLines() {
		if strings.Contains(line, "/events") {
			t.Log(line)
		}
	}
	t.Fatalf("the server holds %d event streams after 45 s, want %d", got, n)
}

// watchPly makes b's page note the time (Date.now(), the same clock in
// every browser of the machine) at which its game panel first shows ply,
// and mark the page so that a reload, which would show the move without
// any live update, is caught.
func watchPly(b *browser, ply int) {
	b.t.Helper()
	eval[bool](b, fmt.Sprintf(`(function(){
		window.__live = true; window.__sawAt = 0;
		const seen = () => { const g = document.querySelector('[data-testid="game-panel"]'); if (!window.__sawAt && g && g.dataset.ply == "%d") window.__sawAt = Date.now(); };
		new MutationObserver(seen).observe(document.body, {subtree: true, childList: true, attributes: true});
		seen(); return true })()`, ply))
}

// sawAt waits for b's page to show the ply watchPly watches for, without
// a reload, and returns the time it did.
func sawAt(b *browser) int64 {
	b.t.Helper()
	waitFor(b, 20*time.Second, `window.__sawAt > 0`)
	if !eval[bool](b, `window.__live === true`) {
		b.t.Fatalf("%s: the page was reloaded instead of updated live", b.name)
	}
	return int64(eval[float64](b, `window.__sawAt`))
}

// moveAndTime has mover play from-to by clicking and returns the time its
// page took the last click (the pointer going down on the target square).
func moveAndTime(mover *browser, from, to string) int64 {
	mover.t.Helper()
	eval[bool](mover, `(function(){ window.__downAt = 0; document.addEventListener('pointerdown', () => { window.__downAt = Date.now() }, true); return true })()`)
	clickMove(mover, from, to)
	return int64(eval[float64](mover, `window.__downAt`))
}

// openTab opens url in a new tab of b's browser (the same person, the same
// cookies and, over HTTP/2, the same connection).
func openTab(t *testing.T, b *browser, name, url string) *browser {
	t.Helper()
	ctx, cancel := chromedp.NewContext(b.ctx)
	t.Cleanup(cancel)
	// The first run opens the tab, which lives as long as that run's
	// context: so not one with a timeout.
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("open a tab: %v", err)
	}
	tab := &browser{ctx: ctx, name: name, t: t}
	err := tab.tryDo(30*time.Second, chromedp.Navigate(url), chromedp.WaitVisible(`[data-testid="game-panel"]`))
	if err != nil {
		// What the tab loaded and what it still waits for, by protocol.
		state, evalErr := tryEval[string](tab, tabLoadState, 5*time.Second)
		t.Fatalf("%s: %v; the tab: %s %v", name, err, state, evalErr)
	}
	return tab
}

// tabLoadState describes a page's load: its state, the resources fetched
// (with the protocol of each) and the images, style sheets and scripts
// that have not come.
const tabLoadState = `(() => {
	const entries = performance.getEntriesByType("resource");
	const got = entries.map(e => e.name.replace(location.origin, "") + " " + e.nextHopProtocol);
	const fetched = new Set(entries.map(e => e.name));
	const waiting = [...document.querySelectorAll("img")].filter(i => !i.complete).map(i => i.src)
		.concat([...document.querySelectorAll("link[rel=stylesheet]")].filter(l => !l.sheet).map(l => l.href))
		.concat([...document.querySelectorAll("script[src]")].filter(s => !fetched.has(s.src)).map(s => s.src));
	return document.readyState + " " + location.href + "; fetched: " + got.join(", ") + "; waiting: " + waiting.join(", ");
})()`

// checkLivePlay runs the browser scenario of a deployment: two players sign
// up (the first is the administrator), start a private game and move; each
// move must reach the opponent's page within a second, live, over HTTP/2,
// with a Secure session cookie; the opponent keeps the game open in eight
// more tabs, and a spectator watches, and every one of those pages sees
// the next move; the request log shows the browser's address.
func checkLivePlay(t *testing.T, d deployment) {
	t.Helper()
	site := &server{URL: d.base} // the helpers navigate to site.URL
	alice, bob := deployBrowser(t, d, "alice"), deployBrowser(t, d, "bob")
	signUp(alice, site, "alice")
	signUp(bob, site, "bob")
	if !eval[bool](alice, `!!document.querySelector('[data-testid="nav-admin"]')`) {
		t.Errorf("%s: the first account is not the administrator", d.name)
	}
	for _, b := range []*browser{alice, bob} {
		if !secureSession(b, d.base) {
			t.Errorf("%s: %s's session cookie is not Secure", d.name, b.name)
		}
	}
	white, black := startPrivateGame(t, site, alice, bob, "5+0")
	for _, b := range []*browser{white, black} {
		if p := protocol(b); p != "h2" {
			t.Errorf("%s: %s's game page came over %q, want h2", d.name, b.name, p)
		}
	}

	// The first move, timed from White's click to Black's page.
	waitStreams(t, d.srv, 2)
	watchPly(black, 1)
	waitMyTurn(white, 0)
	clicked := moveAndTime(white, "e2", "e4")
	latency := time.Duration(sawAt(black)-clicked) * time.Millisecond
	t.Logf("%s: move-to-opponent %v (White's click to Black's page)", d.name, latency)
	if latency > time.Second {
		t.Errorf("%s: the move took %v to reach the opponent, want under a second", d.name, latency)
	}

	// Black answers; then Black keeps the game open in eight more tabs
	// and Carol watches. Over HTTP/1.1 a browser opens at most six
	// connections to a host, so the ninth stream would never start.
	waitMyTurn(black, 1)
	clickMove(black, "e7", "e5")
	waitPly(white, 2)
	url := gameURL(black)
	pages := []*browser{black}
	for i := range 8 {
		pages = append(pages, openTab(t, black, fmt.Sprintf("%s-bob-tab%d", d.name, i+2), url))
	}
	carol := deployBrowser(t, d, "carol")
	signUp(carol, site, "carol")
	carol.do(30*time.Second, chromedp.Navigate(url), chromedp.WaitVisible(`[data-testid="game-panel"]`))
	pages = append(pages, carol)
	waitStreams(t, d.srv, 1+len(pages))
	for _, p := range pages {
		if got := protocol(p); got != "h2" {
			t.Errorf("%s: %s came over %q, want h2", d.name, p.name, got)
		}
		watchPly(p, 3)
	}
	clicked = moveAndTime(white, "g1", "f3")
	var slowest time.Duration
	for _, p := range pages {
		if l := time.Duration(sawAt(p)-clicked) * time.Millisecond; l > slowest {
			slowest = l
		}
	}
	t.Logf("%s: the next move reached all %d pages (Black's nine tabs, a spectator) within %v", d.name, len(pages), slowest)
	if slowest > time.Second {
		t.Errorf("%s: the move took %v to reach every page, want under a second", d.name, slowest)
	}
	carol.screenshot("spectator")
	black.screenshot("black")

	if d.restart != nil {
		checkUpgrade(t, &d, white, black, pages)
	}

	if d.clientAddr != "" {
		checkClientAddr(t, d)
	}
}

// checkClientAddr finds the moves in the server's request log: each must
// carry the browser's address, not the proxy's, and come over the protocol
// the proxy is configured to speak.
func checkClientAddr(t *testing.T, d deployment) {
	t.Helper()
	moves := 0
	for _, line := range d.srv.logLines() {
		if !strings.Contains(line, "msg=request") || !strings.Contains(line, "/moves") {
			continue
		}
		moves++
		if !strings.Contains(line, "remote="+d.clientAddr) {
			t.Errorf("%s: a move's request log line does not name the browser's address %s: %s", d.name, d.clientAddr, line)
		}
		if d.upstream != "" && !strings.Contains(line, "proto="+d.upstream) {
			t.Errorf("%s: a move reached the server over another protocol than %s: %s", d.name, d.upstream, line)
		}
	}
	if moves == 0 {
		t.Errorf("%s: no move in the server's request log", d.name)
	}
}

// checkUpgrade takes a backup with the documented command, then restarts
// the server with the game in progress, as an upgrade of the binary does
// (docs/operations.md, "Install on a Debian server"): every page's stream
// comes back by itself, and the next move reaches the opponent and the
// other pages live.
func checkUpgrade(t *testing.T, d *deployment, white, black *browser, pages []*browser) {
	t.Helper()
	if n := documentedBackup(t, d.srv.DB); n < 3 {
		t.Errorf("%s: the backup taken during the game holds %d moves, want 3", d.name, n)
	}
	began := time.Now()
	d.srv = d.restart()
	waitStreams(t, d.srv, 1+len(pages))
	t.Logf("%s: restarted with the game in progress; all %d streams back after %v", d.name, 1+len(pages), time.Since(began).Round(time.Millisecond))
	watchers := append([]*browser{white}, pages[1:]...)
	for _, p := range watchers {
		watchPly(p, 4)
	}
	waitMyTurn(black, 3)
	clicked := moveAndTime(black, "b8", "c6")
	var slowest time.Duration
	for _, p := range watchers {
		if l := time.Duration(sawAt(p)-clicked) * time.Millisecond; l > slowest {
			slowest = l
		}
	}
	t.Logf("%s: after the restart, a move reached all %d other pages within %v", d.name, len(watchers), slowest)
	if slowest > time.Second {
		t.Errorf("%s: after the restart the move took %v to reach every page, want under a second", d.name, slowest)
	}
}

// documentedBackup runs the backup timer's command of docs/operations.md
// on db, in a folder standing for /var/lib/satranc, and returns how many
// moves the backup holds.
func documentedBackup(t *testing.T, db string) int {
	t.Helper()
	unit := docBlock(t, "ini", "satranc-backup.service")
	var command string
	for _, line := range strings.Split(unit, "\n") {
		if rest, ok := strings.CutPrefix(line, "ExecStart=/bin/sh -c "); ok {
			command = strings.Trim(rest, "'")
		}
	}
	if command == "" {
		t.Fatalf("the documented backup unit has no ExecStart=/bin/sh -c line:\n%s", unit)
	}
	state := t.TempDir()
	command = substitute(t, command,
		"/usr/local/bin/satranc", satrancBinary(t),
		"/var/lib/satranc/satranc.db", db,
		"/var/lib/satranc/", state+"/",
		"%%", "%", // systemd's escape of %
	)
	if out, err := exec.Command("/bin/sh", "-c", command).CombinedOutput(); err != nil {
		t.Fatalf("the documented backup command: %v\n%s", err, out)
	}
	backups, _ := filepath.Glob(filepath.Join(state, "backup-*.db"))
	if len(backups) != 1 {
		t.Fatalf("the documented backup command made %d backup-*.db files, want 1", len(backups))
	}
	conn, err := sql.Open("sqlite3", "file:"+backups[0]+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	var n int
	if err := conn.QueryRow(`SELECT count(*) FROM moves`).Scan(&n); err != nil {
		t.Fatalf("read the backup: %v", err)
	}
	return n
}
