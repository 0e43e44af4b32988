package main

import (
	"bufio"
	"context"
	"net/http"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// shrinkableStack is the most an idle stream's goroutine may have on its
// stack for a collection to halve an 8 KB stack: the runtime halves a
// stack only while what is in use, plus 800 bytes of guard, is under a
// quarter of it (shrinkstack in runtime/stack.go). Measured from the
// goexit frame, which sits a few words under the top: a margin of 32
// bytes for those.
const shrinkableStack = 8192/4 - 800 - 32

// TestIdleStreamStack: an idle game stream over h2c waits a few frames
// from the top of its goroutine (handlers/sse_handoff.go), few enough that
// a collection brings its stack down to 4 KB. It runs the real binary,
// built as it ships (the race detector's frames are larger), follows a
// game with a player's and a spectator's stream, and reads the stack
// pointers of every frame in the goroutine dump that SIGQUIT prints under
// GOTRACEBACK=system. A frame grown on that path, or one more frame, fails
// it: the idle streams would keep 8 KB each.
func TestIdleStreamStack(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the binary")
	}
	dir := t.TempDir()
	bin := buildSatranc(t, dir)
	t.Setenv("GOTRACEBACK", "system")
	srv := startServer(t, bin, freeAddr(t), filepath.Join(dir, "x.db"), "--h2c")

	h2c := &http.Transport{}
	h2c.Protocols = new(http.Protocols)
	h2c.Protocols.SetUnencryptedHTTP2(true)
	defer h2c.CloseIdleConnections()
	a, b := newUserOver(t, h2c, srv.base, "ayse"), newUserOver(t, h2c, srv.base, "bora")
	gamePath, _, white, _ := privateGame(t, a, b)
	white.move(t, gamePath, "e2e4", 0)

	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	for i, c := range []*http.Client{white.client, {Transport: h2c}} { // a player, a guest watching
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, srv.base+gamePath+"/events", nil)
		if err != nil {
			t.Fatal(err)
		}
		resp, err := c.Do(req)
		if err != nil {
			t.Fatalf("stream %d: %v", i, err)
		}
		defer resp.Body.Close()
		if resp.StatusCode != http.StatusOK || resp.ProtoMajor != 2 {
			t.Fatalf("stream %d = %d over %s, want 200 over HTTP/2", i, resp.StatusCode, resp.Proto)
		}
		if event := firstEvent(bufio.NewReader(resp.Body)); !strings.HasSuffix(event, "\n\n") {
			t.Fatalf("stream %d sent no event: %q", i, event)
		}
	}

	// A stream enters its loop as soon as its first event is out.
	time.Sleep(500 * time.Millisecond)
	srv.signal(t, syscall.SIGQUIT)
	dump := srv.logs.String()
	waiting := idleStreamStacks(t, dump)
	if len(waiting) != 2 {
		t.Fatalf("%d streams found waiting in their loop, want 2:\n%s", len(waiting), dump)
	}
	for _, used := range waiting {
		if used >= shrinkableStack {
			t.Errorf("an idle stream uses %d bytes of stack under its wait, want under %d (4 KB stacks)", used, shrinkableStack)
		}
	}
	t.Logf("idle streams' stacks in use: %v bytes, at most %d", waiting, shrinkableStack-1)
}

var (
	goparkFrame = regexp.MustCompile(`(?m)^runtime\.gopark\(.*\n.* sp=(0x[0-9a-f]+) `)
	goexitFrame = regexp.MustCompile(`(?m)^runtime\.goexit\(.*\n.* fp=(0x[0-9a-f]+) `)
)

// idleStreamStacks returns, for each goroutine of the dump waiting in a
// game stream's loop, the bytes from the top of its stack (the goexit
// frame) to the stack pointer it parked with.
func idleStreamStacks(t *testing.T, dump string) []int {
	t.Helper()
	var used []int
	for _, g := range strings.Split(dump, "\n\n") {
		if !strings.Contains(g, "(*gameStream).wait(") {
			continue
		}
		park, exit := goparkFrame.FindStringSubmatch(g), goexitFrame.FindStringSubmatch(g)
		if park == nil || exit == nil {
			t.Fatalf("no stack pointers in the dump of a stream (GOTRACEBACK=system):\n%s", g)
		}
		sp, err1 := strconv.ParseUint(park[1], 0, 64)
		fp, err2 := strconv.ParseUint(exit[1], 0, 64)
		if err1 != nil || err2 != nil || fp < sp {
			t.Fatalf("stack pointers %s and %s: %v, %v", park[1], exit[1], err1, err2)
		}
		used = append(used, int(fp+8-sp)) // goexit's frame is its return address
	}
	return used
}
