//go:build linux

package handlers

import (
	"errors"
	"net"
	"syscall"
)

// peerGone reports whether the client at the other end of conn has closed
// or reset the connection, without reading anything nor waiting: a look
// (MSG_PEEK) at the socket that does not block (MSG_DONTWAIT). A stream
// taken out of net/http has no reader that would notice at once; this
// check costs a system call now and then instead of a goroutine per
// stream.
func peerGone(conn net.Conn) bool {
	sc, ok := conn.(syscall.Conn)
	if !ok {
		return false
	}
	raw, err := sc.SyscallConn()
	if err != nil {
		return true
	}
	gone := false
	err = raw.Read(func(fd uintptr) bool {
		var b [1]byte
		n, _, err := syscall.Recvfrom(int(fd), b[:], syscall.MSG_PEEK|syscall.MSG_DONTWAIT)
		switch {
		case errors.Is(err, syscall.EAGAIN), errors.Is(err, syscall.EINTR):
			// Nothing to read: the client is still there.
		case err != nil:
			gone = true // reset
		default:
			gone = n == 0 // the end of the stream: closed
		}
		return true
	})
	return gone || err != nil
}
