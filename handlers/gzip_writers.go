package handlers

import (
	"io"
	"sync"

	"github.com/klauspost/compress/gzip"
)

// keptGzipWriters is how many compressors gzipWriters keeps for good:
// about as many pages as are compressed at once on a busy server.
const keptGzipWriters = 4

// pageGzipLevel is the level pages are compressed at as they are
// written, by klauspost/compress's gzip rather than the standard
// library's: the same format, made for speed. A player's game page of
// 26.5 KB comes to 5,211 bytes in 105 to 130 µs at its level 6, against
// 5,450 bytes in 242 to 274 µs with the standard library's level 4, which
// the site used before, and 5,157 bytes in 356 to 424 µs at that one's
// level 6 (BenchmarkGamePageGzip; docs/performance.md, "Compression").
// The static files, compressed once, take the standard library's best
// level (static.go).
const pageGzipLevel = 6

// gzipWriters lends the page compressors. A gzip.Writer holds about
// 800 KB of compressor state once it has written, far too much to make
// for each page. A sync.Pool alone drops the writers that sat unused
// through two collections, and at 5,000 games, with a collection every
// four or five seconds, it made one again about every second, some 4% of
// what the server allocated (docs/performance.md, "What the server does
// to get there"). So a few are kept for good, and only a burst beyond them
// borrows from the pool.
var gzipWriters = newGzipFreeList(keptGzipWriters)

type gzipFreeList struct {
	kept  chan *gzip.Writer
	burst sync.Pool
}

func newGzipFreeList(n int) *gzipFreeList {
	return &gzipFreeList{
		kept: make(chan *gzip.Writer, n),
		burst: sync.Pool{New: func() any {
			zw, _ := gzip.NewWriterLevel(io.Discard, pageGzipLevel) // the level is valid
			return zw
		}},
	}
}

// get returns a compressor to Reset onto a response.
func (l *gzipFreeList) get() *gzip.Writer {
	select {
	case zw := <-l.kept:
		return zw
	default:
		return l.burst.Get().(*gzip.Writer)
	}
}

// put takes back a compressor that its response has closed and let go of.
func (l *gzipFreeList) put(zw *gzip.Writer) {
	select {
	case l.kept <- zw:
	default:
		l.burst.Put(zw)
	}
}
