package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// site is the listeners of the site: the main one, serving srv over
// plain HTTP or, with TLS, HTTPS and HTTP/2; and with TLS the plain HTTP
// listener that answers ACME's http-01 challenges and redirects every
// other request to HTTPS.
type site struct {
	srv        *http.Server
	ln         net.Listener
	tls        siteTLS
	redirect   *http.Server // nil without the redirect listener
	redirectLn net.Listener
}

// listenSite opens the site's listeners at addr and, with TLS, at
// t.httpAddr, for srv; base is --base-url, the redirect's target when it
// is an https:// one.
func listenSite(addr string, t siteTLS, base *url.URL, srv *http.Server, logger *slog.Logger) (*site, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("listen: %w", err)
	}
	s := &site{srv: srv, ln: ln, tls: t}
	srv.TLSConfig = t.config(logger)
	if t.httpAddr == "" {
		return s, nil
	}
	if s.redirectLn, err = net.Listen("tcp", t.httpAddr); err != nil {
		_ = ln.Close()
		return nil, fmt.Errorf("listen: redirect: %w", err)
	}
	port := strconv.Itoa(ln.Addr().(*net.TCPAddr).Port) // the actual one, for --addr :0
	var h http.Handler = redirectHTTPS(base, port)
	if t.acme != nil {
		h = t.acme.HTTPHandler(h)
	}
	s.redirect = &http.Server{
		Handler:           h,
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       10 * time.Second,
		WriteTimeout:      10 * time.Second,
		IdleTimeout:       time.Minute,
		ErrorLog:          slog.NewLogLogger(logger.Handler(), slog.LevelWarn),
	}
	return s, nil
}

// log logs the listeners: "listening" first, with attrs and how TLS is
// served (the browser tests read the site's address from the first
// addr=127.0.0.1:PORT of the log), then "redirecting".
func (s *site) log(logger *slog.Logger, attrs ...any) {
	logger.Info("listening", append(append([]any{"addr", s.ln.Addr().String()}, attrs...), s.tls.logAttrs()...)...)
	if s.redirect != nil {
		logger.Info("redirecting", "addr", s.redirectLn.Addr().String(), "to", "https")
	}
}

// serve starts the servers. The channel receives each one's error when
// it stops (http.ErrServerClosed after shutdown): the main server's, and
// the redirect server's if there is one.
func (s *site) serve() <-chan error {
	errc := make(chan error, 2)
	go func() {
		if s.srv.TLSConfig != nil {
			errc <- s.srv.ServeTLS(s.ln, "", "") // sets up HTTP/2
			return
		}
		errc <- s.srv.Serve(s.ln)
	}()
	if s.redirect != nil {
		go func() { errc <- s.redirect.Serve(s.redirectLn) }()
	}
	return errc
}

// shutdown shuts the redirect server down gracefully (the main server is
// shut down by the caller: Handler.ShutdownServer), then collects both
// servers' errors from errc, which serve returned.
func (s *site) shutdown(ctx context.Context, errc <-chan error) error {
	var err error
	n := 1
	if s.redirect != nil {
		n++
		if serr := s.redirect.Shutdown(ctx); serr != nil {
			err = fmt.Errorf("shutdown: redirect: %w", serr)
		}
	}
	for range n {
		if serr := <-errc; !errors.Is(serr, http.ErrServerClosed) && err == nil {
			err = fmt.Errorf("serve: %w", serr)
		}
	}
	return err
}

// close closes the listeners and the servers' connections at once, after
// a failure.
func (s *site) close() {
	_ = s.srv.Close()
	_ = s.ln.Close() // in case srv was not serving yet
	if s.redirect != nil {
		_ = s.redirect.Close()
		_ = s.redirectLn.Close()
	}
}

// redirectHTTPS redirects every request to the same path and query over
// HTTPS (308: the method and body are kept), on base's host when the
// site's public https:// address is known, or else on the host the
// browser asked for at httpsPort, the HTTPS listener's port (left out
// when it is 443).
func redirectHTTPS(base *url.URL, httpsPort string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		host := ""
		if base != nil && base.Scheme == "https" {
			host = base.Host
		} else {
			name := (&url.URL{Host: r.Host}).Hostname() // without port or brackets
			if name == "" {
				http.Error(w, "Bad Request: no host", http.StatusBadRequest)
				return
			}
			host = net.JoinHostPort(name, httpsPort)
			if httpsPort == "443" {
				host = strings.TrimSuffix(host, ":443")
			}
		}
		http.Redirect(w, r, "https://"+host+r.URL.RequestURI(), http.StatusPermanentRedirect)
	})
}
