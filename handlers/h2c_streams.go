//go:build !go1.27

package handlers

// H2CStreams is how many requests, event streams included, one HTTP/2
// connection may carry at once when the server speaks HTTP/2 without TLS
// (ServeH2C); a reverse proxy opens another connection past it.
//
// Many, since the write scheduler skips idle streams (ServeH2C): in
// five-minute runs at 10,000 games, some 80 connections at 256 a
// connection, the moves' p99 was 0.46 to 0.80 s against 0.89 to 1.68 s
// with net/http's scheduler at 32 a connection (625 connections), and the
// p95 169 to 203 ms against 259 to 588, for as much of the server's CPU
// (docs/performance.md, "HTTP/2 behind the proxy"). x/net's scheduler at
// 32 a connection did no better than net/http's: the gain is in the
// connections shared.
const H2CStreams = 256
