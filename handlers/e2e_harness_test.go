//go:build e2e

// Browser tests: the real satranc binary on 127.0.0.1 driven by a real
// headless Chromium through chromedp. Run them with
//
//	go test -tags e2e -count=1 ./handlers/
//
// CI runs, one at a time, the tests of this build tag named TestBrowser*
// or TestDeploy* (.ci/run). CHROME_BIN names the browser (default:
// chromium on PATH). Screenshots of finished games, and of every failure,
// go to a folder the test logs (E2E_ARTIFACTS, or a new temporary folder
// that is kept).
package handlers_test

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

var (
	buildOnce sync.Once
	binary    string
	buildErr  error

	artifactsOnce sync.Once
	artifacts     string
)

// satrancBinary builds the product once per test run.
func satrancBinary(t *testing.T) string {
	t.Helper()
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "satranc-e2e-bin-")
		if err != nil {
			buildErr = err
			return
		}
		binary = filepath.Join(dir, "satranc")
		out, err := exec.Command("go", "build", "-o", binary, "satranc").CombinedOutput()
		if err != nil {
			buildErr = fmt.Errorf("go build: %w\n%s", err, out)
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return binary
}

// artifactDir returns the folder for screenshots, made once per run.
func artifactDir(t *testing.T) string {
	t.Helper()
	artifactsOnce.Do(func() {
		artifacts = os.Getenv("E2E_ARTIFACTS")
		if artifacts == "" {
			artifacts, _ = os.MkdirTemp("", "satranc-e2e-")
		}
		_ = os.MkdirAll(artifacts, 0o755)
	})
	return artifacts
}

// server is a running satranc process.
type server struct {
	URL string
	DB  string
	cmd *exec.Cmd

	logMu sync.Mutex
	log   []string // the lines it wrote to standard error
}

// logLines returns the lines the server has logged so far.
func (s *server) logLines() []string {
	s.logMu.Lock()
	defer s.logMu.Unlock()
	return append([]string(nil), s.log...)
}

var listeningAddr = regexp.MustCompile(`addr=(127\.0\.0\.1:\d+)`)

// startServer runs `satranc serve` on a free port with a fresh database and
// stops it when the test ends. Extra arguments go to serve.
func startServer(t *testing.T, args ...string) *server {
	t.Helper()
	db := filepath.Join(t.TempDir(), "satranc.db")
	return startServerOn(t, db, args...)
}

// startServerOn runs `satranc serve` on the database file db.
func startServerOn(t *testing.T, db string, args ...string) *server {
	t.Helper()
	cmd := exec.Command(satrancBinary(t), append([]string{"serve", "--addr", "127.0.0.1:0", "--db", db}, args...)...)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	s := &server{DB: db, cmd: cmd}
	t.Cleanup(func() { s.stop(t) })

	found := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			line := sc.Text()
			s.logMu.Lock()
			s.log = append(s.log, line)
			s.logMu.Unlock()
			if m := listeningAddr.FindStringSubmatch(line); m != nil {
				select {
				case found <- m[1]:
				default:
				}
			}
			if testing.Verbose() {
				fmt.Fprintln(os.Stderr, "  server:", line)
			}
		}
		_, _ = io.Copy(io.Discard, stderr)
	}()
	select {
	case addr := <-found:
		s.URL = "http://" + addr
	case <-time.After(30 * time.Second):
		t.Fatal("server did not report its address within 30 s")
	}
	waitHealthy(t, s.URL)
	return s
}

func waitHealthy(t *testing.T, base string) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		resp, err := http.Get(base + "/healthz")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("%s/healthz never answered 200", base)
}

// stop ends the server gracefully (SIGTERM), or kills it after 10 s.
func (s *server) stop(t *testing.T) {
	if s.cmd.Process == nil || s.cmd.ProcessState != nil {
		return
	}
	_ = s.cmd.Process.Signal(syscall.SIGTERM)
	done := make(chan error, 1)
	go func() { done <- s.cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		_ = s.cmd.Process.Kill()
		<-done
	}
}

// kill ends the server at once, as a crash would (SIGKILL).
func (s *server) kill(t *testing.T) {
	t.Helper()
	if err := s.cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = s.cmd.Wait()
}

// browser is one Chromium with its own profile: a separate person.
type browser struct {
	ctx  context.Context
	name string
	t    *testing.T
}

// newBrowser starts a headless Chromium; it is closed when the test ends,
// after a screenshot if the test failed.
func newBrowser(t *testing.T, name string, opts ...chromedp.ExecAllocatorOption) *browser {
	t.Helper()
	profile, err := os.MkdirTemp("", "satranc-chrome-")
	if err != nil {
		t.Fatal(err)
	}
	flags := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.NoSandbox,
		chromedp.UserDataDir(profile),
		chromedp.WindowSize(1100, 900),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("no-first-run", true),
	)
	if bin := os.Getenv("CHROME_BIN"); bin != "" {
		flags = append(flags, chromedp.ExecPath(bin))
	}
	flags = append(flags, opts...)
	// Chromium now and then fails to start on a busy machine ("chrome
	// failed to start" with nothing but its usual noise): try again.
	var allocCtx, ctx context.Context
	var cancelAlloc, cancelCtx context.CancelFunc
	for attempt := 1; ; attempt++ {
		allocCtx, cancelAlloc = chromedp.NewExecAllocator(context.Background(), flags...)
		ctx, cancelCtx = chromedp.NewContext(allocCtx)
		err := chromedp.Do(ctx)
		if err == nil {
			break
		}
		cancelCtx()
		cancelAlloc()
		if attempt == 3 {
			t.Fatalf("start chromium: %v", err)
		}
		t.Logf("start chromium (attempt %d): %v", attempt, err)
		time.Sleep(time.Second)
	}
	b := &browser{ctx: ctx, name: name, t: t}
	t.Cleanup(func() {
		if t.Failed() {
			b.screenshot("FAILED")
		}
		cancelCtx()
		cancelAlloc()
		removeAllRetry(profile)
	})
	return b
}

// do runs chromedp steps with a timeout, failing the test on error.
func (b *browser) do(timeout time.Duration, steps ...chromedp.Action[chromedp.Void]) {
	b.t.Helper()
	if err := b.tryDo(timeout, steps...); err != nil {
		b.t.Fatalf("%s: %v", b.name, err)
	}
}

// tryDo runs steps like do but returns their error, for a step the test
// may repeat.
func (b *browser) tryDo(timeout time.Duration, steps ...chromedp.Action[chromedp.Void]) error {
	ctx, cancel := context.WithTimeout(b.ctx, timeout)
	defer cancel()
	return chromedp.Do(ctx, steps...)
}

// eval evaluates a JavaScript expression in b's page and returns its value.
func eval[T any](b *browser, expr string) T {
	b.t.Helper()
	v, err := tryEval[T](b, expr, 10*time.Second)
	if err != nil {
		b.t.Fatalf("%s: eval %s: %v", b.name, expr, err)
	}
	return v
}

// tryEval is eval that reports its error: an evaluation waits while a page
// loads, which on a busy machine may outlast timeout.
func tryEval[T any](b *browser, expr string, timeout time.Duration) (T, error) {
	ctx, cancel := context.WithTimeout(b.ctx, timeout)
	defer cancel()
	return chromedp.Run(ctx, chromedp.Evaluate[T](expr))
}

// runOnEveryPage has b run script at the start of every page it opens
// from now on, before the page's own scripts.
func runOnEveryPage(b *browser, script string) {
	b.t.Helper()
	b.do(10*time.Second, chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := cdp.Call(ctx, t, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: script})
		return err
	}))
}

// screenshot saves the whole page as <test>-<browser>-<label>.png.
func (b *browser) screenshot(label string) {
	ctx, cancel := context.WithTimeout(b.ctx, 10*time.Second)
	defer cancel()
	// Let images swapped in by the event stream finish loading first.
	_, _ = chromedp.Run(ctx, chromedp.Evaluate[bool](`new Promise(r => { const t = Date.now(); (function w(){ if (Array.from(document.images).every(i => i.complete) || Date.now() - t > 2000) r(true); else setTimeout(w, 50) })() })`, chromedp.EvalAwaitPromise))
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		b.t.Logf("%s: screenshot: %v", b.name, err)
		return
	}
	name := strings.NewReplacer("/", "_", " ", "_").Replace(b.t.Name()) + "-" + b.name + "-" + label + ".png"
	path := filepath.Join(artifactDir(b.t), name)
	if err := os.WriteFile(path, png, 0o644); err != nil {
		b.t.Logf("%s: screenshot: %v", b.name, err)
		return
	}
	b.t.Logf("screenshot: %s", path)
}

// removeAllRetry removes a Chromium profile, which may still be written to
// for a moment after the browser has gone (chromedp's documentation warns).
func removeAllRetry(dir string) {
	for range 20 {
		err := os.RemoveAll(dir)
		if err == nil || errors.Is(err, os.ErrNotExist) {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
}
