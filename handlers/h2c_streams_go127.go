//go:build go1.27

package handlers

// H2CStreams is how many requests, event streams included, one HTTP/2
// connection may carry at once when the server speaks HTTP/2 without TLS
// (ServeH2C); a reverse proxy opens another connection past it.
//
// Few from Go 1.27, where x/net's HTTP/2 server wraps net/http's and the
// write scheduler ServeH2C asks for is no longer used: net/http's looks
// through a connection's open streams for every frame it sends, which took
// a fifth of the server's CPU at 1,000 streams a connection, a tenth at
// 100 and 3.7 to 4.7% at 32 (docs/performance.md, "HTTP/2 behind the
// proxy").
const H2CStreams = 32
