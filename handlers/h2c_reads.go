package handlers

import (
	"bufio"
	"crypto/tls"
	"net"
	"net/http"
)

// nextProtoUnencryptedHTTP2 is the key under which net/http hands an h2c
// connection, its preface read, to the HTTP/2 server (http.Server's
// TLSNextProto; the *tls.Conn it passes only wraps the plain connection).
const nextProtoUnencryptedHTTP2 = "unencrypted_http2"

// h2cReadBuffer is the read buffer of an h2c connection: a few frames of
// the sizes a proxy sends (headers, small bodies, window updates).
const h2cReadBuffer = 4 << 10

// bufferH2CReads has srv's HTTP/2 server read each h2c connection through
// a buffer. Its frame reader asks the connection for a frame's 9-byte
// header and then for its payload, two reads and so two system calls a
// frame, where a connection from the proxy delivers many frames at once:
// a move's request is two frames, and a connection carries the requests
// and window updates of hundreds of viewers. With the buffer one system
// call takes in whatever has arrived.
//
// It must be called after the HTTP/2 server is configured on srv.
func bufferH2CReads(srv *http.Server) {
	serve, ok := srv.TLSNextProto[nextProtoUnencryptedHTTP2]
	if !ok {
		return
	}
	srv.TLSNextProto[nextProtoUnencryptedHTTP2] = func(hs *http.Server, c *tls.Conn, h http.Handler) {
		plain, ok := c.NetConn().(unencryptedConn)
		if !ok { // not the wrapper net/http makes: leave it to the server
			serve(hs, c, h)
			return
		}
		conn := plain.UnencryptedNetConn()
		buffered := &bufferedReadConn{Conn: conn, r: bufio.NewReaderSize(conn, h2cReadBuffer)}
		serve(hs, tls.Client(unencryptedWrapper{buffered}, nil), h)
	}
}

// unencryptedConn is how the HTTP/2 server finds the plain connection
// inside the *tls.Conn of an h2c handoff.
type unencryptedConn interface {
	UnencryptedNetConn() net.Conn
}

// unencryptedWrapper carries a plain connection through the *tls.Conn of
// the handoff, as net/http's own wrapper does.
type unencryptedWrapper struct{ net.Conn }

func (w unencryptedWrapper) UnencryptedNetConn() net.Conn { return w.Conn }

// bufferedReadConn is a connection read through a buffer; everything else
// goes to the connection itself.
type bufferedReadConn struct {
	net.Conn
	r *bufio.Reader
}

func (c *bufferedReadConn) Read(p []byte) (int, error) { return c.r.Read(p) }
