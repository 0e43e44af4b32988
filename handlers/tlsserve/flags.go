package tlsserve

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
)

// Flags are `satranc serve`'s TLS flags as given: the site serves HTTPS
// itself with a certificate by ACME (--domain) or from files (--tls-cert,
// --tls-key), and a plain HTTP listener (--http-addr) redirects to it.
type Flags struct {
	domain, certDir, acmeEmail, acmeDirectory string
	certFile, keyFile                         string
	httpAddr                                  string
}

// httpAddrOff is the --http-addr value that turns the redirect listener
// off (the empty string means its default).
const httpAddrOff = "off"

// Register adds the flags to fs, with defaults from their environment
// variables.
func (f *Flags) Register(fs *flag.FlagSet) {
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

// Resolve checks the flags and returns the site's TLS and redirect
// listener (Config's TLS and HTTPAddr; TLS nil: plain HTTP). dbPath is
// --db, shared says it is a database several nodes share (PostgreSQL): an
// ACME certificate is kept beside a SQLite database unless --cert-dir
// says where, and a shared one needs --cert-dir. --tls-cert and --tls-key
// are loaded at once, so that an unreadable file stops the start.
func (f Flags) Resolve(dbPath string, shared bool) (Config, error) {
	var c Config
	var err error
	switch {
	case (f.certFile == "") != (f.keyFile == ""):
		return c, errors.New("--tls-cert and --tls-key go together: the certificate and its private key")
	case f.domain != "" && f.certFile != "":
		return c, errors.New("--domain and --tls-cert exclude each other: the certificate is obtained by ACME or read from files, not both")
	case f.domain == "" && (f.certDir != "" || f.acmeEmail != "" || f.acmeDirectory != ""):
		return c, errors.New("--cert-dir, --acme-email and --acme-directory need --domain")
	case f.domain != "":
		dir := f.certDir
		if dir == "" {
			if shared {
				// Several nodes may share the database, but not a folder.
				return c, errors.New("--domain with a PostgreSQL --db needs --cert-dir: the folder for the ACME account key and certificates")
			}
			dir = filepath.Join(filepath.Dir(dbPath), "certs")
		}
		c.TLS, err = ACME(ACMEConfig{Domain: f.domain, CertDir: dir, Email: f.acmeEmail, DirectoryURL: f.acmeDirectory})
		if err != nil {
			return c, fmt.Errorf("--domain, --acme-directory: %w", err)
		}
	case f.certFile != "":
		if c.TLS, err = Files(f.certFile, f.keyFile); err != nil {
			return c, fmt.Errorf("--tls-cert, --tls-key: %w", err)
		}
	}
	switch {
	case c.TLS == nil && f.httpAddr != "":
		return c, errors.New("--http-addr needs --domain or --tls-cert: it redirects to HTTPS")
	case c.TLS == nil || f.httpAddr == httpAddrOff:
	case f.httpAddr == "":
		c.HTTPAddr = ":80"
	default:
		c.HTTPAddr = f.httpAddr
	}
	return c, nil
}

// envOr returns the environment variable key, or def when it is unset or
// empty (as package main's flags do).
func envOr(key, def string) string {
	if v := os.Getenv(key); v != "" {
		return v
	}
	return def
}
