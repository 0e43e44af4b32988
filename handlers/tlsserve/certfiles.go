package tlsserve

import (
	"crypto/tls"
	"log/slog"
	"os"
	"sync"
	"time"
)

// certFiles is the certificate of --tls-cert and --tls-key. The files are
// looked at (stat) at each TLS handshake, which costs far less than the
// handshake, and read again when either changed: a certificate renewed by
// certbot or another ACME client is served without a restart. A pair that
// does not load (say the certificate is written and its key not yet)
// leaves the certificate served as it was, and is tried again at the next
// handshake.
type certFiles struct {
	certFile, keyFile string

	mu     sync.Mutex
	cert   *tls.Certificate
	loaded fileStamps // of the files cert was read from
	// failed and failedErr are the last failure, logged once.
	failed    fileStamps
	failedErr string
}

// fileStamps tell whether either file changed.
type fileStamps struct {
	certMod, keyMod   time.Time
	certSize, keySize int64
}

// loadCertFiles reads the certificate and its key.
func loadCertFiles(certFile, keyFile string) (*certFiles, error) {
	c := &certFiles{certFile: certFile, keyFile: keyFile}
	st, err := c.stamps()
	if err != nil {
		return nil, err
	}
	if err := c.load(st); err != nil {
		return nil, err
	}
	return c, nil
}

// tlsConfig returns a TLS configuration serving the certificate as the
// files hold it; logger reports a change that could not be loaded.
func (c *certFiles) tlsConfig(logger *slog.Logger) *tls.Config {
	return &tls.Config{
		GetCertificate: func(*tls.ClientHelloInfo) (*tls.Certificate, error) { return c.current(logger), nil },
		NextProtos:     []string{"h2", "http/1.1"},
	}
}

// current returns the certificate to serve, read again first if the files
// changed.
func (c *certFiles) current(logger *slog.Logger) *tls.Certificate {
	c.mu.Lock()
	defer c.mu.Unlock()
	st, err := c.stamps()
	if err == nil && (st == c.loaded || (st == c.failed && c.failedErr != "")) {
		return c.cert // the same files: loading them again would fail again
	}
	if err == nil {
		err = c.load(st)
	}
	if err != nil {
		if st != c.failed || err.Error() != c.failedErr {
			logger.Warn("tls: keeping the certificate served", "cert", c.certFile, "err", err)
		}
		c.failed, c.failedErr = st, err.Error()
		return c.cert
	}
	logger.Info("tls: certificate reloaded", "cert", c.certFile, "expires", c.cert.Leaf.NotAfter)
	return c.cert
}

// load reads the pair whose files have the stamps st. The caller holds
// c.mu, or is the constructor.
func (c *certFiles) load(st fileStamps) error {
	cert, err := tls.LoadX509KeyPair(c.certFile, c.keyFile)
	if err != nil {
		return err
	}
	c.cert, c.loaded, c.failed, c.failedErr = &cert, st, fileStamps{}, ""
	return nil
}

// stamps looks at both files.
func (c *certFiles) stamps() (fileStamps, error) {
	ci, err := os.Stat(c.certFile)
	if err != nil {
		return fileStamps{}, err
	}
	ki, err := os.Stat(c.keyFile)
	if err != nil {
		return fileStamps{}, err
	}
	return fileStamps{certMod: ci.ModTime(), keyMod: ki.ModTime(), certSize: ci.Size(), keySize: ki.Size()}, nil
}
