package tlsserve

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

// Config is where and how the site is served.
type Config struct {
	// Addr is the main listener's address.
	Addr string
	// TLS is the site's certificate; nil serves plain HTTP.
	TLS *TLS
	// HTTPAddr is the address of the plain HTTP listener that answers
	// ACME's http-01 challenges and redirects every other request to
	// HTTPS; "" for none. It needs TLS.
	HTTPAddr string
	// BaseURL is the site's public address, the redirect's target when it
	// is an https:// one; nil: the host the browser asked for.
	BaseURL *url.URL
	// Logger logs the listeners, certificate reloads and failures.
	Logger *slog.Logger
}

// Site is the listeners of the site: the main one, serving an
// *http.Server over plain HTTP or, with TLS, HTTPS and HTTP/2; and with
// TLS the plain HTTP listener that answers ACME's http-01 challenges and
// redirects every other request to HTTPS.
type Site struct {
	srv        *http.Server
	ln         net.Listener
	tls        *TLS
	logger     *slog.Logger
	redirect   *http.Server // nil without the redirect listener
	redirectLn net.Listener
	errc       chan error // the servers' errors once they stop (Serve)
	served     int        // how many servers Serve started
}

// Listen opens the site's listeners for srv, whose TLSConfig it sets.
func Listen(ctx context.Context, c Config, srv *http.Server) (*Site, error) {
	if c.HTTPAddr != "" && c.TLS == nil {
		return nil, errors.New("tlsserve: a redirect listener needs TLS: it redirects to HTTPS")
	}
	logger := c.Logger
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	var lc net.ListenConfig
	ln, err := lc.Listen(ctx, "tcp", c.Addr)
	if err != nil {
		return nil, fmt.Errorf("listen: %w", err)
	}
	s := &Site{srv: srv, ln: ln, tls: c.TLS, logger: logger}
	srv.TLSConfig = c.TLS.config(logger)
	if c.HTTPAddr == "" {
		return s, nil
	}
	if s.redirectLn, err = lc.Listen(ctx, "tcp", c.HTTPAddr); err != nil {
		_ = ln.Close()
		return nil, fmt.Errorf("listen: redirect: %w", err)
	}
	port := strconv.Itoa(ln.Addr().(*net.TCPAddr).Port) // the actual one, for an address :0
	var h http.Handler = redirectHTTPS(c.BaseURL, port)
	if c.TLS.acme != nil {
		h = c.TLS.acme.HTTPHandler(h)
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

// Addr is the main listener's address.
func (s *Site) Addr() net.Addr { return s.ln.Addr() }

// RedirectAddr is the redirect listener's address; nil without it.
func (s *Site) RedirectAddr() net.Addr {
	if s.redirectLn == nil {
		return nil
	}
	return s.redirectLn.Addr()
}

// Log logs the listeners: "listening" first, with attrs and how TLS is
// served (the browser tests read the site's address from the first
// addr=127.0.0.1:PORT of the log), then "redirecting".
func (s *Site) Log(attrs ...any) {
	s.logger.Info("listening", append(append([]any{"addr", s.ln.Addr().String()}, attrs...), s.tls.logAttrs()...)...)
	if s.redirect != nil {
		s.logger.Info("redirecting", "addr", s.redirectLn.Addr().String(), "to", "https")
	}
}

// Serve starts the servers. The channel receives each one's error when
// it stops (http.ErrServerClosed after shutdown): the main server's, and
// the redirect server's if there is one. Call it once.
func (s *Site) Serve() <-chan error {
	s.errc = make(chan error, 2)
	s.served = 1
	go func() {
		if s.srv.TLSConfig != nil {
			s.errc <- s.srv.ServeTLS(s.ln, "", "") // sets up HTTP/2
			return
		}
		s.errc <- s.srv.Serve(s.ln)
	}()
	if s.redirect != nil {
		s.served++
		go func() { s.errc <- s.redirect.Serve(s.redirectLn) }()
	}
	return s.errc
}

// Shutdown shuts the redirect server down gracefully (the main server is
// shut down by the caller, which knows its streams: handlers'
// Handler.ShutdownServer), then collects the errors of the servers Serve
// started, none of which may have been received from its channel.
func (s *Site) Shutdown(ctx context.Context) error {
	var err error
	if s.redirect != nil {
		if serr := s.redirect.Shutdown(ctx); serr != nil {
			err = fmt.Errorf("shutdown: redirect: %w", serr)
		}
	}
	for range s.served {
		if serr := <-s.errc; !errors.Is(serr, http.ErrServerClosed) && err == nil {
			err = fmt.Errorf("serve: %w", serr)
		}
	}
	return err
}

// Close closes the listeners and the servers' connections at once, after
// a failure.
func (s *Site) Close() {
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
