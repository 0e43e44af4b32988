package handlers

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"satranc/engine/limit"
)

// Every open event stream holds a socket, and with it one of the
// process's file descriptors, for as long as its page is open. Without a
// cap one member could open streams until the process ran out of
// descriptors (21,000 from one account in issue 18), after which nothing
// was answered, /healthz included. streamLimiter caps the streams open at
// once per member, per client address and in all; the stream past a cap
// is answered 429 at once, before any work, and holds nothing.

// DefaultStreamsPerMember is how many event streams one member may have
// open at once: a player has a game, the lobby or the Watch page open in
// a few tabs, a spectator follows a few games.
const DefaultStreamsPerMember = 16

// DefaultStreamsPerAddress is how many event streams one client address
// may have open at once, guests and members together: a household, an
// office or a carrier's NAT shares one address.
const DefaultStreamsPerAddress = 32

// DefaultStreamTotal caps the event streams of the whole process when the
// wiring names no cap: StreamTotalFor(1024), for the usual soft limit of
// 1024 descriptors. `satranc serve` derives its cap from the process's
// own limit instead.
const DefaultStreamTotal = 768

// streamRetry is the Retry-After of a refused stream: streams last as
// long as their pages, so a slot frees in minutes rather than seconds.
// EventSource ignores it (htmx's SSE extension retries after a backoff
// of up to 64 s); a script should not.
const streamRetry = 30 * time.Second

// streamPathSuffix ends the path of every event stream's route: a game's
// (/games/{id}/events), the lobby's waiting page's, the standings' and
// the Watch list's. stream_limit_test.go checks each of them is capped.
const streamPathSuffix = "/events"

// StreamLimits caps the event streams open at once. For each field, 0
// means its default and a negative value no cap.
type StreamLimits struct {
	// PerMember counts a signed-in member's streams, from any address
	// (DefaultStreamsPerMember).
	PerMember int
	// PerAddress counts the streams of a client address, as the rate
	// limits see it: behind a trusted proxy the forwarded address, and
	// an IPv6 address's /64 (DefaultStreamsPerAddress).
	PerAddress int
	// Total counts every stream of the process (DefaultStreamTotal);
	// keep it below the descriptor limit (StreamTotalFor).
	Total int
}

// Resolved returns l with each 0 replaced by its default.
func (l StreamLimits) Resolved() StreamLimits {
	if l.PerMember == 0 {
		l.PerMember = DefaultStreamsPerMember
	}
	if l.PerAddress == 0 {
		l.PerAddress = DefaultStreamsPerAddress
	}
	if l.Total == 0 {
		l.Total = DefaultStreamTotal
	}
	return l
}

// maxDescriptors bounds the descriptor limit StreamTotalFor reckons with:
// an unlimited one (RLIM_INFINITY) is no figure to subtract from.
const maxDescriptors = 1 << 20

// minDescriptorReserve is the least number of descriptors StreamTotalFor
// leaves to everything but the streams.
const minDescriptorReserve = 256

// StreamTotalFor returns a cap on all the event streams of a process that
// may hold nofile descriptors (its RLIMIT_NOFILE; Go raises the soft limit
// to the hard one at start on Linux). It leaves a quarter of them, and at
// least 256, to everything else: the listeners, the database, page
// requests and moves, the refused streams' connections until they close,
// and the second socket of a stream forwarded to another node. A limit
// too small for that reserve gets half of it.
func StreamTotalFor(nofile uint64) int {
	if nofile == 0 || nofile > maxDescriptors {
		nofile = maxDescriptors
	}
	reserve := max(nofile/4, minDescriptorReserve)
	if nofile < 2*reserve {
		return max(int(nofile/2), 1)
	}
	return int(nofile - reserve)
}

// Why a stream was refused: the cap it met, also the label of
// satranc_sse_streams_refused_total.
const (
	streamCapMember  = "member"
	streamCapAddress = "address"
	streamCapTotal   = "total"
)

// errTooManyStreams is matched by every *streamRefusedError.
var errTooManyStreams = errors.New("handlers: too many event streams")

// streamRefusedError is a stream refused at a cap (streamCap*).
type streamRefusedError struct{ reason string }

func (e *streamRefusedError) Error() string {
	return "handlers: too many event streams per " + e.reason
}

func (e *streamRefusedError) Unwrap() error { return errTooManyStreams }

// streamLimiter counts the event streams open per member, per address
// and in all. It needs no goroutine: a slot is taken when a stream starts
// and given back when it ends.
type streamLimiter struct {
	member limit.Slots[int64]
	addr   limit.Slots[string]
	total  limit.Slots[struct{}]
}

func newStreamLimiter(l StreamLimits) *streamLimiter {
	l = l.Resolved()
	s := &streamLimiter{}
	s.member.Max, s.addr.Max, s.total.Max = l.PerMember, l.PerAddress, l.Total
	return s
}

// take takes a slot for a stream of member (0: a guest, not counted per
// member) from addr ("": not counted per address), or returns a
// *streamRefusedError, taking nothing.
func (s *streamLimiter) take(member int64, addr string) (*streamSlot, error) {
	if member != 0 && !s.member.Take(member) {
		return nil, &streamRefusedError{reason: streamCapMember}
	}
	if addr != "" && !s.addr.Take(addr) {
		if member != 0 {
			s.member.Give(member)
		}
		return nil, &streamRefusedError{reason: streamCapAddress}
	}
	if !s.total.Take(struct{}{}) {
		if member != 0 {
			s.member.Give(member)
		}
		if addr != "" {
			s.addr.Give(addr)
		}
		return nil, &streamRefusedError{reason: streamCapTotal}
	}
	return &streamSlot{limiter: s, member: member, addr: addr}, nil
}

// open returns the number of streams holding a slot.
func (s *streamLimiter) open() int { return s.total.Held(struct{}{}) }

// streamSlot is one stream's place under the caps. The request that
// starts the stream holds it, and gives it back when its handler returns,
// unless the stream was taken out of net/http (detachSSE): then the
// connection holds it, and gives it back when it closes (connSink.Close).
type streamSlot struct {
	limiter  *streamLimiter
	member   int64
	addr     string
	detached atomic.Bool
	once     sync.Once
}

// release gives the slot back, once however often it is called. A nil
// slot (a stream the limits did not see) has nothing to give.
func (s *streamSlot) release() {
	if s == nil {
		return
	}
	s.once.Do(func() {
		l := s.limiter
		l.total.Give(struct{}{})
		if s.addr != "" {
			l.addr.Give(s.addr)
		}
		if s.member != 0 {
			l.member.Give(s.member)
		}
	})
}

// streamSlotKey is the context key of the request's *streamSlot.
type streamSlotKey struct{}

// detachStreamSlot hands the slot of the stream of ctx's request over to
// the connection taken out of net/http for it, which must release it when
// it closes; nil when the request holds none.
func detachStreamSlot(ctx context.Context) *streamSlot {
	s, _ := ctx.Value(streamSlotKey{}).(*streamSlot)
	if s != nil {
		s.detached.Store(true)
	}
	return s
}

// isStreamRequest reports whether r opens an event stream.
func isStreamRequest(r *http.Request) bool {
	return (r.Method == http.MethodGet || r.Method == http.MethodHead) &&
		strings.HasSuffix(r.URL.Path, streamPathSuffix)
}

// limitStreams takes a slot for each event stream before its handler
// runs, and refuses the stream past a cap with 429 (responseFor): an
// HTML page, not an event stream, at which a browser's EventSource stops
// reconnecting by itself. It runs after the session is loaded, to count
// the member.
func (h *Handler) limitStreams(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !isStreamRequest(r) {
			next.ServeHTTP(w, r)
			return
		}
		var member int64
		if u, ok := userFrom(r.Context()); ok {
			member = u.ID
		}
		addr := clientKey(r.RemoteAddr) // fromProxy has set it to the client's
		if f, ok := h.owners.(Forwarder); ok && f.Forwarded(r) {
			// Forwarded by another node of the cluster, which counted the
			// client's address: here the address is that node's.
			addr = ""
		}
		slot, err := h.streams.take(member, addr)
		if err != nil {
			var refused *streamRefusedError
			if errors.As(err, &refused) {
				h.metrics.streamRefused(refused.reason)
			}
			h.log.DebugContext(r.Context(), "event stream refused",
				"path", r.URL.Path, "user", member, "addr", addr, "err", err)
			if r.ProtoMajor == 1 {
				// The connection is not kept for a next request: a flood
				// of refused streams must not hold descriptors.
				w.Header().Set("Connection", "close")
			}
			h.fail(w, r, err)
			return
		}
		defer func() {
			if !slot.detached.Load() {
				slot.release()
			}
		}()
		next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), streamSlotKey{}, slot)))
	})
}
