package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/PuerkitoBio/goquery"
)

// loadRequestTimeout bounds each request of the load driver other than the
// event streams.
const loadRequestTimeout = 15 * time.Second

// loadUser is a simulated browser: one account, its own cookie jar, and
// the driver's shared transport.
type loadUser struct {
	name   string
	base   string
	client *http.Client
}

// statusError is an unexpected HTTP status; its kind names the request.
type statusError struct {
	kind   string
	status int
}

func (e *statusError) Error() string { return fmt.Sprintf("%s: HTTP %d", e.kind, e.status) }

// errorKind returns a short label of err for the error counts: the request
// and status for a statusError, else the given fallback.
func errorKind(err error, fallback string) string {
	if se, ok := errors.AsType[*statusError](err); ok {
		return se.kind + "-" + strconv.Itoa(se.status)
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return fallback + "-timeout"
	}
	return fallback
}

// signUpLoadUser creates the account name on base and returns its client.
func signUpLoadUser(ctx context.Context, tr http.RoundTripper, base, name string) (*loadUser, error) {
	jar, err := cookiejar.New(nil)
	if err != nil {
		return nil, fmt.Errorf("cookie jar: %w", err)
	}
	u := &loadUser{name: name, base: base, client: &http.Client{Jar: jar, Transport: tr}}
	resp, err := u.postForm(ctx, "/signup", url.Values{"username": {name}, "password": {"load test password " + name}}, false)
	if err != nil {
		return nil, err
	}
	drainClose(resp)
	if resp.StatusCode != http.StatusOK {
		return nil, &statusError{"signup", resp.StatusCode}
	}
	if bu, _ := url.Parse(base); len(jar.Cookies(bu)) == 0 {
		return nil, fmt.Errorf("signup %s: no session cookie", name)
	}
	return u, nil
}

// postForm posts form to path, as a browser form or (htmx) as htmx does.
func (u *loadUser) postForm(ctx context.Context, path string, form url.Values, htmx bool) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, u.base+path, strings.NewReader(form.Encode()))
	if err != nil {
		return nil, fmt.Errorf("POST %s: %w", path, err)
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Origin", u.base)
	if htmx {
		req.Header.Set("HX-Request", "true")
	}
	resp, err := u.client.Do(req)
	if err != nil {
		return nil, fmt.Errorf("POST %s: %w", path, err)
	}
	return resp, nil
}

// getPage fetches path and parses it as HTML.
func (u *loadUser) getPage(ctx context.Context, path, kind string) (*goquery.Document, *http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.base+path, nil)
	if err != nil {
		return nil, nil, fmt.Errorf("GET %s: %w", path, err)
	}
	resp, err := u.client.Do(req)
	if err != nil {
		return nil, nil, fmt.Errorf("GET %s: %w", path, err)
	}
	defer drainClose(resp)
	if resp.StatusCode != http.StatusOK {
		return nil, resp, &statusError{kind, resp.StatusCode}
	}
	doc, err := goquery.NewDocumentFromReader(resp.Body)
	if err != nil {
		return nil, resp, fmt.Errorf("parse %s: %w", path, err)
	}
	return doc, resp, nil
}

// loadPair is two users at one private game.
type loadPair struct {
	path         string // /games/{id}
	white, black *loadUser
}

// loadControl is the driver's time control: loadInitial on each clock and
// loadIncrement added after each move. At the default pace (--think 5s,
// 120 plies at most) a player keeps more than half of it: the clocks
// never decide a game, and players do not all hurry at once as their
// clocks run low together (which with 3+2 made the load climb by 70% in
// the ninth minute of a soak and ended it in a wave of lost games). It
// must be one of the controls the site offers (clock.Controls).
const (
	loadControl   = "10+0"
	loadInitial   = 10 * time.Minute
	loadIncrement = 0
)

// newPrivateGame has a create a private 10+0 game and b join it by its
// invite link, and returns the game with its colours.
func newPrivateGame(ctx context.Context, a, b *loadUser) (loadPair, error) {
	ctx, cancel := context.WithTimeout(ctx, loadRequestTimeout)
	defer cancel()
	resp, err := a.postForm(ctx, "/games/private", url.Values{"control": {loadControl}}, false)
	if err != nil {
		return loadPair{}, err
	}
	defer drainClose(resp)
	if resp.StatusCode != http.StatusOK || !strings.HasPrefix(resp.Request.URL.Path, "/games/") {
		return loadPair{}, &statusError{"create", resp.StatusCode}
	}
	path := strings.TrimSuffix(resp.Request.URL.Path, "/")
	doc, err := goquery.NewDocumentFromReader(resp.Body)
	if err != nil {
		return loadPair{}, fmt.Errorf("parse new game: %w", err)
	}
	// The link is the text of a read-only box (views/game.templ).
	invite := strings.TrimSpace(doc.Find(`[data-testid="invite-link"]`).First().Text())
	if invite == "" {
		return loadPair{}, errors.New("create: no invite link")
	}
	iu, err := url.Parse(invite)
	if err != nil {
		return loadPair{}, fmt.Errorf("invite link %q: %w", invite, err)
	}
	jr, err := b.postForm(ctx, iu.Path, nil, false)
	if err != nil {
		return loadPair{}, err
	}
	drainClose(jr)
	if jr.StatusCode != http.StatusOK || strings.TrimSuffix(jr.Request.URL.Path, "/") != path {
		return loadPair{}, &statusError{"join", jr.StatusCode}
	}
	page, _, err := a.getPage(ctx, path, "game-page")
	if err != nil {
		return loadPair{}, err
	}
	switch color, _ := page.Find(`[data-color]`).First().Attr("data-color"); color {
	case "w":
		return loadPair{path, a, b}, nil
	case "b":
		return loadPair{path, b, a}, nil
	}
	return loadPair{}, errors.New("game page: no board colour")
}

// move plays uci at ply as htmx does; the server answers 204.
func (u *loadUser) move(ctx context.Context, gamePath, uci string, ply int) error {
	ctx, cancel := context.WithTimeout(ctx, loadRequestTimeout)
	defer cancel()
	resp, err := u.postForm(ctx, gamePath+"/moves", url.Values{"uci": {uci}, "ply": {strconv.Itoa(ply)}}, true)
	if err != nil {
		return err
	}
	drainClose(resp)
	if resp.StatusCode != http.StatusNoContent {
		return &statusError{"move", resp.StatusCode}
	}
	return nil
}

// resign gives up the game at gamePath; the answer is not checked, as the
// game may have ended already.
func (u *loadUser) resign(ctx context.Context, gamePath string) {
	ctx, cancel := context.WithTimeout(ctx, loadRequestTimeout)
	defer cancel()
	if resp, err := u.postForm(ctx, gamePath+"/resign", nil, true); err == nil {
		drainClose(resp)
	}
}

func drainClose(resp *http.Response) {
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<20))
	resp.Body.Close()
}

// gameStream is one player's event stream of a game, read as a browser's
// EventSource reads it: it remembers the highest ply announced by a
// complete `game` event and when that event arrived.
type gameStream struct {
	mu     sync.Mutex
	ply    int       // highest ply seen; -1 before the first event
	at     time.Time // when ply was first seen
	notify chan struct{}
}

func newGameStream() *gameStream {
	return &gameStream{ply: -1, notify: make(chan struct{}, 1)}
}

// run reads the stream of gamePath as u until ctx is done, reconnecting
// when the server ends it; each unexpected end is reported to fail.
func (s *gameStream) run(ctx context.Context, u *loadUser, gamePath string, fail func(kind string)) {
	for ctx.Err() == nil {
		err := s.read(ctx, u, gamePath)
		if ctx.Err() != nil {
			return
		}
		fail(errorKind(err, "stream"))
		select {
		case <-ctx.Done():
		case <-time.After(500 * time.Millisecond):
		}
	}
}

// read opens the stream once and parses its events until it ends.
func (s *gameStream) read(ctx context.Context, u *loadUser, gamePath string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.base+gamePath+"/events", nil)
	if err != nil {
		return fmt.Errorf("stream: %w", err)
	}
	req.Header.Set("Accept", "text/event-stream")
	resp, err := u.client.Do(req)
	if err != nil {
		return fmt.Errorf("stream: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return &statusError{"stream", resp.StatusCode}
	}
	br := bufio.NewReaderSize(resp.Body, 16<<10)
	id, event := "", ""
	inLong := false // within a line longer than the buffer
	for {
		line, err := br.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			inLong = true // a long data line: its content does not matter here
			continue
		}
		if err != nil {
			return fmt.Errorf("stream: %w", err)
		}
		if inLong {
			inLong = false // the rest of the long line
			continue
		}
		text := strings.TrimRight(string(trimLine(line)), "\r")
		switch {
		case text == "": // the end of an event: dispatch it
			if event == "game" && id != "" {
				if ply, err := strconv.Atoi(id); err == nil {
					s.seen(ply, time.Now())
				}
			}
			id, event = "", ""
		case strings.HasPrefix(text, "id:"):
			id = strings.TrimSpace(text[3:])
		case strings.HasPrefix(text, "event:"):
			event = strings.TrimSpace(text[6:])
		}
	}
}

// trimLine drops the newline of a line read by ReadSlice; data lines are
// not converted to strings beyond their first bytes.
func trimLine(line []byte) []byte {
	if len(line) > 64 {
		line = line[:64] // id: and event: lines are short; data is skipped
	}
	for len(line) > 0 && (line[len(line)-1] == '\n' || line[len(line)-1] == '\r') {
		line = line[:len(line)-1]
	}
	return line
}

// seen records a game event of ply arriving at t.
func (s *gameStream) seen(ply int, t time.Time) {
	s.mu.Lock()
	if ply > s.ply {
		s.ply, s.at = ply, t
	}
	s.mu.Unlock()
	select {
	case s.notify <- struct{}{}:
	default:
	}
}

// errNoEvent is returned by wait when the expected event does not come.
var errNoEvent = errors.New("no event")

// wait returns when an event of ply want or later arrived, or an error
// after timeout.
func (s *gameStream) wait(ctx context.Context, want int, timeout time.Duration) (time.Time, error) {
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	for {
		s.mu.Lock()
		ply, at := s.ply, s.at
		s.mu.Unlock()
		if ply >= want {
			return at, nil
		}
		select {
		case <-s.notify:
		case <-timer.C:
			return time.Time{}, fmt.Errorf("ply %d: %w", want, errNoEvent)
		case <-ctx.Done():
			return time.Time{}, ctx.Err()
		}
	}
}
