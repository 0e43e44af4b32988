//go:build e2e

package handlers_test

import (
	"io"
	"net"
	"strings"
	"sync"
	"testing"
	"time"
)

// cutProxy is a TCP proxy in front of the server whose connections the
// test can cut, as a network that drops would: cut closes every open
// connection and refuses new ones until restore.
type cutProxy struct {
	URL    string
	ln     net.Listener
	target string

	mu    sync.Mutex
	down  bool
	conns map[net.Conn]struct{}
}

// newCutProxy proxies a new address on 127.0.0.1 to srv; it is closed
// when the test ends.
func newCutProxy(t *testing.T, srv *server) *cutProxy {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &cutProxy{URL: "http://" + ln.Addr().String(), ln: ln, target: strings.TrimPrefix(srv.URL, "http://"), conns: map[net.Conn]struct{}{}}
	go p.serve()
	t.Cleanup(func() {
		ln.Close()
		p.cut()
	})
	return p
}

func (p *cutProxy) serve() {
	for {
		c, err := p.ln.Accept()
		if err != nil {
			return // closed
		}
		go p.pipe(c)
	}
}

// pipe copies c to the server and back until either side closes.
func (p *cutProxy) pipe(c net.Conn) {
	up, err := net.Dial("tcp", p.target)
	if err != nil {
		c.Close()
		return
	}
	if !p.track(c, up) {
		c.Close()
		up.Close()
		return
	}
	done := make(chan struct{}, 2)
	go func() { _, _ = io.Copy(up, c); done <- struct{}{} }()
	go func() { _, _ = io.Copy(c, up); done <- struct{}{} }()
	<-done
	c.Close()
	up.Close()
	p.mu.Lock()
	delete(p.conns, c)
	delete(p.conns, up)
	p.mu.Unlock()
}

// track notes the two ends of a new connection, unless the proxy is cut.
func (p *cutProxy) track(conns ...net.Conn) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.down {
		return false
	}
	for _, c := range conns {
		p.conns[c] = struct{}{}
	}
	return true
}

// cut drops every connection and refuses new ones.
func (p *cutProxy) cut() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.down = true
	for c := range p.conns {
		c.Close()
	}
}

// restore lets connections through again.
func (p *cutProxy) restore() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.down = false
}

// gameBehindCut starts a server with the disconnection grace given, and
// a 5+0 private game between Alice, who reaches it directly, and Bob,
// whose every connection goes through a cutProxy; it returns the proxy,
// both pages and the pages of White and Black.
func gameBehindCut(t *testing.T, grace string) (proxy *cutProxy, alice, bob, white, black *browser) {
	t.Helper()
	srv := startServer(t, "--disconnect-grace", grace)
	proxy = newCutProxy(t, srv)
	alice, bob = newBrowser(t, "alice"), newBrowser(t, "bob")
	signUp(alice, srv, "alice")
	signUp(bob, &server{URL: proxy.URL}, "bob")
	white, black = startPrivateGameVia(t, srv, proxy.URL, alice, bob, "5+0")
	return proxy, alice, bob, white, black
}

// TestBrowserConnectionLost: Bob's network drops mid-game (his page stays
// open). Both see the countdown: Alice that her opponent is gone, Bob
// that he must come back in time. When the network returns, Bob's page
// reconnects by itself, both countdowns go, and the game goes on.
func TestBrowserConnectionLost(t *testing.T) {
	proxy, alice, bob, white, black := gameBehindCut(t, "30s")
	playMoves(t, white, black, 0, "e2e4", "e7e5")
	if eval[bool](bob, `!document.querySelector('[data-testid="connection-lost"]').hidden`) {
		t.Fatal("Bob's page says the connection is lost while it is not")
	}

	proxy.cut()
	waitFor(bob, 20*time.Second, `!document.querySelector('[data-testid="connection-lost"]').hidden`)
	waitFor(alice, 20*time.Second, `document.querySelector('[data-testid="opponent-countdown"]')`)
	// Bob's own countdown runs down from the grace period.
	first := eval[string](bob, `document.querySelector('[data-testid="own-countdown"]').textContent.trim()`)
	waitFor(bob, 5*time.Second, `document.querySelector('[data-testid="own-countdown"]').textContent.trim() != "`+first+`"`)
	if n := eval[float64](bob, `parseInt(document.querySelector('[data-testid="own-countdown"]').textContent, 10)`); n <= 0 || n >= 30 {
		t.Errorf("Bob's countdown shows %v, want between 0 and 30 s", n)
	} else {
		t.Logf("Bob's countdown: %v s left", n)
	}
	bob.screenshot("connection-lost")
	alice.screenshot("opponent-gone")

	proxy.restore()
	waitFor(bob, 30*time.Second, `document.querySelector('[data-testid="connection-lost"]').hidden`)
	waitFor(alice, 20*time.Second, `!document.querySelector('[data-testid="opponent-countdown"]')`)
	if st := eval[string](alice, `document.querySelector('[data-testid="game-panel"]').dataset.status`); st != "active" {
		t.Fatalf("after Bob came back the game is %q", st)
	}

	playMoves(t, white, black, 2, "g1f3", "b8c6")
	for _, b := range []*browser{alice, bob} {
		if got := moves(b); strings.Join(got, " ") != "e4 e5 Nf3 Nc6" {
			t.Errorf("%s's moves after the reconnection: %q", b.name, got)
		}
	}
}
