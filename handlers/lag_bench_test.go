package handlers

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"
)

// BenchmarkLagEcho measures a page's echo of a lag ping over HTTP/2
// without TLS, as a reverse proxy passes it on (ServeH2C), through the
// whole site: with the nonce in the address and no body, as the game page
// sends it (static/js/board.js), and with it in a form's body. Client and
// server share the process, so each figure is the round trip's, both ends
// included.
func BenchmarkLagEcho(b *testing.B) {
	e := newLagEnv(b, true, time.Hour)
	id, white, _ := e.blitzGame(b, e.player(b, "ayse"), e.player(b, "bora"))
	srv := httptest.NewUnstartedServer(e.handler.Routes())
	startH2C(b, srv)
	defer srv.Close()
	echo := srv.URL + "/games/" + strconv.FormatInt(id, 10) + "/lag"
	nonce := url.Values{"n": {"3kq9v0x2m7ab"}}.Encode()
	for _, c := range []struct {
		name string
		req  func() *http.Request
	}{
		{"address", func() *http.Request {
			req, _ := http.NewRequest(http.MethodPost, echo+"?"+nonce, nil)
			return req
		}},
		{"form", func() *http.Request {
			req, _ := http.NewRequest(http.MethodPost, echo, strings.NewReader(nonce))
			req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
			return req
		}},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				req := c.req()
				req.AddCookie(white.cookie)
				postOverH2C(b, srv, req, http.StatusNoContent)
			}
		})
	}
}
