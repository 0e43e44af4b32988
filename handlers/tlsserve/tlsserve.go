// Package tlsserve serves the site over HTTPS itself, without a reverse
// proxy, in one of two ways: with a certificate it obtains and renews by
// ACME (as miniflux's CERT_DOMAIN does), or with a certificate the
// administrator already has, in files read again when they change. Either
// way HTTP/2 is served, and a plain HTTP listener answers ACME's http-01
// challenges and redirects everything else to HTTPS. Without TLS the site
// is served over plain HTTP.
//
// Package main parses the flags and calls ACME or Files, then Listen.
package tlsserve

import (
	"context"
	"crypto/tls"
	"fmt"
	"log/slog"
	"net"
	"net/url"
	"strings"

	"golang.org/x/crypto/acme"
	"golang.org/x/crypto/acme/autocert"
)

// TLS is how the site is served over TLS: with a certificate by ACME, or
// from files. A nil *TLS serves plain HTTP.
type TLS struct {
	domain string            // the ACME certificate's name; "" without ACME
	acme   *autocert.Manager // nil without ACME
	files  *certFiles        // nil without certificate files
}

// ACMEConfig is the certificate to obtain and renew by ACME.
type ACMEConfig struct {
	// Domain is the certificate's host name, such as chess.example.org.
	Domain string
	// CertDir is the folder keeping the ACME account key and the
	// certificates.
	CertDir string
	// Email is the contact address the authority may write to; "" for
	// none.
	Email string
	// DirectoryURL is the authority's directory URL; "" for Let's
	// Encrypt's production one.
	DirectoryURL string
}

// ACME returns TLS with the certificate of c.Domain, obtained and renewed
// by ACME (tls-alpn-01 on the HTTPS listener, http-01 on the redirect
// one).
func ACME(c ACMEConfig) (*TLS, error) {
	if err := checkDomain(c.Domain); err != nil {
		return nil, err
	}
	var client *acme.Client // nil: Let's Encrypt's production directory
	if c.DirectoryURL != "" {
		u, err := url.Parse(c.DirectoryURL)
		if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
			return nil, fmt.Errorf("tlsserve: ACME directory %q: want the directory's https:// URL", c.DirectoryURL)
		}
		client = &acme.Client{DirectoryURL: c.DirectoryURL}
	}
	whitelist := autocert.HostWhitelist(c.Domain)
	m := &autocert.Manager{
		Prompt: autocert.AcceptTOS,
		// The http-01 handler checks the request's Host header, which
		// carries a port when the redirect listener is not on port 80.
		HostPolicy: func(ctx context.Context, host string) error {
			if h, _, err := net.SplitHostPort(host); err == nil {
				host = h
			}
			return whitelist(ctx, host)
		},
		Cache:  autocert.DirCache(c.CertDir),
		Email:  c.Email,
		Client: client,
	}
	return &TLS{domain: c.Domain, acme: m}, nil
}

// checkDomain refuses a domain that is not a host name: a URL, an address
// with a port, an IP address (ACME certificates name hosts).
func checkDomain(d string) error {
	if strings.ContainsAny(d, "/:@ *") || net.ParseIP(d) != nil || !strings.Contains(strings.Trim(d, "."), ".") {
		return fmt.Errorf("tlsserve: domain %q: want a host name such as chess.example.org", d)
	}
	return nil
}

// Files returns TLS with the certificate chain in the PEM file certFile
// and its private key in keyFile. Both are read at once, so that an
// unreadable file stops the start, and again when either changes.
func Files(certFile, keyFile string) (*TLS, error) {
	files, err := loadCertFiles(certFile, keyFile)
	if err != nil {
		return nil, fmt.Errorf("tlsserve: certificate files: %w", err)
	}
	return &TLS{files: files}, nil
}

// config returns the site's TLS configuration, nil without TLS. Its
// NextProtos offer HTTP/2 (http.Server.ServeTLS adds "h2" and
// "http/1.1" when they are missing) and, with ACME, the tls-alpn-01
// challenge.
func (t *TLS) config(logger *slog.Logger) *tls.Config {
	switch {
	case t == nil:
	case t.acme != nil:
		cfg := t.acme.TLSConfig()
		cfg.GetCertificate = warnCertFailures(cfg.GetCertificate, t.domain, logger)
		return cfg
	case t.files != nil:
		return t.files.tlsConfig(logger)
	}
	return nil
}

// warnCertFailures logs at warn level each time get fails to give a
// certificate for domain: the authority cannot be reached, the name does
// not lead here, a challenge failed. The handshake fails with it, and
// net/http logs failed handshakes at debug level only (scanners cause
// them all day: no server name, another name), so this is the line that
// tells the administrator why the site does not answer.
func warnCertFailures(get func(*tls.ClientHelloInfo) (*tls.Certificate, error), domain string, logger *slog.Logger) func(*tls.ClientHelloInfo) (*tls.Certificate, error) {
	return func(hello *tls.ClientHelloInfo) (*tls.Certificate, error) {
		cert, err := get(hello)
		if err != nil && strings.EqualFold(strings.TrimSuffix(hello.ServerName, "."), domain) {
			logger.Warn("tls: no certificate for the domain", "domain", domain, "err", err)
		}
		return cert, err
	}
}

// logAttrs are the attributes of the "listening" log line that tell how
// TLS is served.
func (t *TLS) logAttrs() []any {
	switch {
	case t == nil:
	case t.acme != nil:
		return []any{"tls", "acme", "domain", t.domain}
	case t.files != nil:
		return []any{"tls", "files", "cert", t.files.certFile}
	}
	return nil
}
