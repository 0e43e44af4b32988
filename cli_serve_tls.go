package main

import (
	"context"
	"crypto/tls"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/crypto/acme"
	"golang.org/x/crypto/acme/autocert"

	"satranc/store"
)

// The site serves HTTPS itself, without a reverse proxy, in one of two
// ways: with a certificate it obtains and renews by ACME (--domain, as
// miniflux's CERT_DOMAIN does), or with a certificate the administrator
// already has (--tls-cert, --tls-key). Either way HTTP/2 is served, and a
// plain HTTP listener (--http-addr) answers ACME's http-01 challenges and
// redirects everything else to HTTPS.

// tlsFlags are serve's TLS flags as given.
type tlsFlags struct {
	domain, certDir, acmeEmail, acmeDirectory string
	certFile, keyFile                         string
	httpAddr                                  string
}

// httpAddrOff is the --http-addr value that turns the redirect listener
// off (the empty string means its default).
const httpAddrOff = "off"

// register adds the flags to fs, with defaults from their environment
// variables.
func (f *tlsFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.domain, "domain", envOr("SATRANC_DOMAIN", ""),
		"serve HTTPS and HTTP/2 for the host `name`, such as chess.example.org, with a certificate obtained and renewed by ACME (Let's Encrypt unless --acme-directory says otherwise); the name must lead to this machine, reachable on port 443 (or 80, see --http-addr); empty: off (env SATRANC_DOMAIN)")
	fs.StringVar(&f.certDir, "cert-dir", envOr("SATRANC_CERT_DIR", ""),
		"`folder` keeping --domain's ACME account key and certificates; empty: certs beside the SQLite database (env SATRANC_CERT_DIR)")
	fs.StringVar(&f.acmeEmail, "acme-email", envOr("SATRANC_ACME_EMAIL", ""),
		"contact `address` the certificate authority may write to about --domain's certificate; empty: none (env SATRANC_ACME_EMAIL)")
	fs.StringVar(&f.acmeDirectory, "acme-directory", envOr("SATRANC_ACME_DIRECTORY", ""),
		"directory `URL` of the ACME certificate authority, such as a staging or test one (its certificate must be trusted by the system, or by the file SSL_CERT_FILE names); empty: Let's Encrypt (env SATRANC_ACME_DIRECTORY)")
	fs.StringVar(&f.certFile, "tls-cert", envOr("SATRANC_TLS_CERT", ""),
		"serve HTTPS and HTTP/2 with the certificate chain in this PEM `file`, read again when it changes (with --tls-key); empty: off (env SATRANC_TLS_CERT)")
	fs.StringVar(&f.keyFile, "tls-key", envOr("SATRANC_TLS_KEY", ""),
		"PEM `file` of the private key of --tls-cert (env SATRANC_TLS_KEY)")
	fs.StringVar(&f.httpAddr, "http-addr", envOr("SATRANC_HTTP_ADDR", ""),
		"with --domain or --tls-cert, the plain HTTP listen `address` that answers ACME's http-01 challenges and redirects every other request to HTTPS; empty: :80; off: none (env SATRANC_HTTP_ADDR)")
}

// siteTLS is how the site is served over TLS: not at all (the zero
// value), with a certificate by ACME, or from files.
type siteTLS struct {
	domain string            // the ACME certificate's name; "" without ACME
	acme   *autocert.Manager // nil without ACME
	files  *certFiles        // nil without --tls-cert
	// httpAddr is the redirect listener's address; "" for none.
	httpAddr string
}

// on reports whether the site is served over TLS.
func (s siteTLS) on() bool { return s.acme != nil || s.files != nil }

// config returns the site's TLS configuration, nil without TLS. Its
// NextProtos offer HTTP/2 (http.Server.ServeTLS adds "h2" and
// "http/1.1" when they are missing) and, with ACME, the tls-alpn-01
// challenge.
func (s siteTLS) config(logger *slog.Logger) *tls.Config {
	switch {
	case s.acme != nil:
		cfg := s.acme.TLSConfig()
		cfg.GetCertificate = warnCertFailures(cfg.GetCertificate, s.domain, logger)
		return cfg
	case s.files != nil:
		return s.files.tlsConfig(logger)
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
func (s siteTLS) logAttrs() []any {
	switch {
	case s.acme != nil:
		return []any{"tls", "acme", "domain", s.domain}
	case s.files != nil:
		return []any{"tls", "files", "cert", s.files.certFile}
	}
	return nil
}

// resolve checks the flags and returns the site's TLS settings. dbPath is
// --db: an ACME certificate is kept beside a SQLite database unless
// --cert-dir says where. It loads --tls-cert and --tls-key at once, so
// that an unreadable file stops the start.
func (f tlsFlags) resolve(dbPath string) (siteTLS, error) {
	var s siteTLS
	switch {
	case (f.certFile == "") != (f.keyFile == ""):
		return s, errors.New("--tls-cert and --tls-key go together: the certificate and its private key")
	case f.domain != "" && f.certFile != "":
		return s, errors.New("--domain and --tls-cert exclude each other: the certificate is obtained by ACME or read from files, not both")
	case f.domain == "" && (f.certDir != "" || f.acmeEmail != "" || f.acmeDirectory != ""):
		return s, errors.New("--cert-dir, --acme-email and --acme-directory need --domain")
	case f.domain != "":
		m, err := f.acmeManager(dbPath)
		if err != nil {
			return s, err
		}
		s.domain, s.acme = f.domain, m
	case f.certFile != "":
		files, err := loadCertFiles(f.certFile, f.keyFile)
		if err != nil {
			return s, fmt.Errorf("--tls-cert, --tls-key: %w", err)
		}
		s.files = files
	}
	switch {
	case !s.on() && f.httpAddr != "":
		return s, errors.New("--http-addr needs --domain or --tls-cert: it redirects to HTTPS")
	case !s.on() || f.httpAddr == httpAddrOff:
	case f.httpAddr == "":
		s.httpAddr = ":80"
	default:
		s.httpAddr = f.httpAddr
	}
	return s, nil
}

// acmeManager returns the ACME certificate manager of --domain.
func (f tlsFlags) acmeManager(dbPath string) (*autocert.Manager, error) {
	if err := checkDomain(f.domain); err != nil {
		return nil, err
	}
	dir := f.certDir
	if dir == "" {
		if store.IsPostgresURL(dbPath) {
			// Several nodes may share the database, but not a folder.
			return nil, errors.New("--domain with a PostgreSQL --db needs --cert-dir: the folder for the ACME account key and certificates")
		}
		dir = filepath.Join(filepath.Dir(dbPath), "certs")
	}
	var client *acme.Client // nil: Let's Encrypt's production directory
	if f.acmeDirectory != "" {
		u, err := url.Parse(f.acmeDirectory)
		if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
			return nil, fmt.Errorf("--acme-directory %q: want the directory's https:// URL", f.acmeDirectory)
		}
		client = &acme.Client{DirectoryURL: f.acmeDirectory}
	}
	whitelist := autocert.HostWhitelist(f.domain)
	return &autocert.Manager{
		Prompt: autocert.AcceptTOS,
		// The http-01 handler checks the request's Host header, which
		// carries a port when the redirect listener is not on port 80.
		HostPolicy: func(ctx context.Context, host string) error {
			if h, _, err := net.SplitHostPort(host); err == nil {
				host = h
			}
			return whitelist(ctx, host)
		},
		Cache:  autocert.DirCache(dir),
		Email:  f.acmeEmail,
		Client: client,
	}, nil
}

// checkDomain refuses a --domain that is not a host name: a URL, an
// address with a port, an IP address (ACME certificates name hosts).
func checkDomain(d string) error {
	if strings.ContainsAny(d, "/:@ *") || net.ParseIP(d) != nil || !strings.Contains(strings.Trim(d, "."), ".") {
		return fmt.Errorf("--domain %q: want a host name such as chess.example.org", d)
	}
	return nil
}

// flagGiven reports whether the flag name was set on the command line or
// its environment variable env is set.
func flagGiven(fs *flag.FlagSet, name, env string) bool {
	given := os.Getenv(env) != ""
	fs.Visit(func(f *flag.Flag) { given = given || f.Name == name })
	return given
}
