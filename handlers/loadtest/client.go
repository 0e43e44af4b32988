package loadtest

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// requestTimeout bounds each request of the driver other than the event
// streams, so that one stuck request shows as an error instead of a game
// that silently stops moving.
const requestTimeout = 15 * time.Second

// user is a simulated browser: one account, its own cookie jar, and the
// driver's shared transports.
type user struct {
	name string
	base string
	// client makes the requests, streams opens the event streams: each
	// has a transport of its own (transports).
	client, streams *http.Client
}

// transports are the driver's two pools of connections: one for the
// requests and one for the event streams. In one pool the requests would
// share the connections of thousands of open streams, and the pool looks
// through all its connections for a free slot at every request: at
// 10,000 games (some 600 connections over h2c) that search was a tenth of
// the driver's CPU, which the server on the same machine does not get.
type transports struct {
	requests, streams http.RoundTripper
}

// h2cDials bounds the connections the driver dials at once over h2c, as
// a reverse proxy does. net/http's Transport otherwise dials one for every
// request that finds no connection with a stream free, and closes the
// spare ones once they are up: a two-minute run at 5,000 games made the
// server accept 1,961 to 4,783 connections, most in the second after the
// driver resigned its games, each with its goroutine and buffers, and
// the process's high-water mark was 364 to 435 MB against 346 to 352
// with the bound. Caddy 2.6.2 in front of the server, sent 5,000 requests
// at once from 5,000 connections of its own, opened 8 to the server
// (docs/performance.md, "Memory"). A connection carries up to 256
// streams (handlers.H2CStreams), and one dialled while others wait
// serves them all, so the bound holds back no request for long.
const h2cDials = 8

// newTransports returns the driver's two pools for cfg, each keeping up
// to four idle connections a game (HTTP/1.1 holds one a stream).
func newTransports(cfg Config) transports {
	tr := &http.Transport{
		MaxIdleConns:        4*cfg.Games + 64,
		MaxIdleConnsPerHost: 4*cfg.Games + 64,
		IdleConnTimeout:     90 * time.Second,
	}
	if cfg.H2C {
		tr.Protocols = new(http.Protocols)
		tr.Protocols.SetUnencryptedHTTP2(true)
		tr.MaxConnsPerHost = h2cDials
	}
	return transports{requests: tr, streams: tr.Clone()}
}

// closeIdle closes the idle connections of both pools: at a run's end,
// they would count as the server's goroutines.
func (t transports) closeIdle() {
	for _, rt := range []http.RoundTripper{t.requests, t.streams} {
		if c, ok := rt.(interface{ CloseIdleConnections() }); ok {
			c.CloseIdleConnections()
		}
	}
}

// newUser returns the browser of the account name on base, with its
// cookie jar.
func newUser(name, base string, jar http.CookieJar, t transports) *user {
	return &user{
		name:    name,
		base:    base,
		client:  &http.Client{Jar: jar, Transport: t.requests},
		streams: &http.Client{Jar: jar, Transport: t.streams},
	}
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

// signUp creates the account name on base and returns its browser.
func signUp(ctx context.Context, t transports, base, name string) (*user, error) {
	jar, err := cookiejar.New(nil)
	if err != nil {
		return nil, fmt.Errorf("cookie jar: %w", err)
	}
	u := newUser(name, base, jar, t)
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
func (u *user) postForm(ctx context.Context, path string, form url.Values, htmx bool) (*http.Response, error) {
	return u.post(ctx, path, "", strings.NewReader(form.Encode()), htmx)
}

// postInAddress posts form in path's address, without a body, as the
// board's script posts a move (htmx with useUrlParams, static/js/board.js).
func (u *user) postInAddress(ctx context.Context, path string, form url.Values) (*http.Response, error) {
	return u.post(ctx, path, "?"+form.Encode(), nil, true)
}

// post sends a POST of body to path and query with a form's type, as
// browsers and htmx send one. The Origin header is set because the server
// refuses cross-origin POSTs.
func (u *user) post(ctx context.Context, path, query string, body io.Reader, htmx bool) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, u.base+path+query, body)
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

// getPage fetches path and reads what the driver needs of it (readPage);
// kind names the request in a statusError.
func (u *user) getPage(ctx context.Context, path, kind string) (page, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.base+path, nil)
	if err != nil {
		return page{}, fmt.Errorf("GET %s: %w", path, err)
	}
	resp, err := u.client.Do(req)
	if err != nil {
		return page{}, fmt.Errorf("GET %s: %w", path, err)
	}
	defer drainClose(resp)
	if resp.StatusCode != http.StatusOK {
		return page{}, &statusError{kind, resp.StatusCode}
	}
	p, err := readPage(resp.Body, false)
	if err != nil {
		return page{}, fmt.Errorf("parse %s: %w", path, err)
	}
	return p, nil
}

// move plays uci at ply as htmx does, with the nonce of the player's
// latest lag ping and how long the page held it, if one came since the
// last move (as the game page sends them, static/js/board.js, for lag
// compensation); the server answers 204.
func (u *user) move(ctx context.Context, gamePath, uci string, ply int, nonce string, held time.Duration) error {
	ctx, cancel := context.WithTimeout(ctx, requestTimeout)
	defer cancel()
	form := url.Values{"uci": {uci}, "ply": {strconv.Itoa(ply)}}
	if nonce != "" {
		form.Set("lag", nonce)
		form.Set("held", strconv.FormatInt(held.Milliseconds(), 10))
	}
	resp, err := u.postInAddress(ctx, gamePath+"/moves", form)
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
// game may have ended already. A request that fails on its way (on a kept
// connection that the server had closed) is sent again, twice at most, or
// the game would be left running.
func (u *user) resign(ctx context.Context, gamePath string) {
	ctx, cancel := context.WithTimeout(ctx, requestTimeout)
	defer cancel()
	for range 3 {
		resp, err := u.postForm(ctx, gamePath+"/resign", nil, true)
		if err == nil {
			drainClose(resp)
			return
		}
		if ctx.Err() != nil {
			return
		}
	}
}

// drainClose reads what is left of a body (up to 1 MB) before closing it, so
// that the keep-alive connection can serve the next request.
func drainClose(resp *http.Response) {
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<20))
	resp.Body.Close()
}
