package handlers

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
)

// TrustedProxies are the addresses of the reverse proxies in front of the
// server (such as Caddy or nginx terminating TLS). Only a request whose
// peer is one of them has its X-Forwarded-For and X-Forwarded-Proto headers
// believed; anyone else could forge them.
type TrustedProxies []netip.Prefix

// ParseTrustedProxies reads a comma-separated list of addresses and
// networks ("127.0.0.1", "10.0.0.0/8", "::1"). The empty string is no
// proxy.
func ParseTrustedProxies(s string) (TrustedProxies, error) {
	var out TrustedProxies
	for _, part := range strings.Split(s, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		if strings.Contains(part, "/") {
			p, err := netip.ParsePrefix(part)
			if err != nil {
				return nil, fmt.Errorf("trusted proxy %q: not an address or network: %w", part, err)
			}
			out = append(out, p.Masked())
			continue
		}
		a, err := netip.ParseAddr(part)
		if err != nil {
			return nil, fmt.Errorf("trusted proxy %q: not an address or network: %w", part, err)
		}
		a = a.Unmap()
		out = append(out, netip.PrefixFrom(a, a.BitLen()))
	}
	return out, nil
}

// contains reports whether addr is a trusted proxy.
func (t TrustedProxies) contains(addr netip.Addr) bool {
	addr = addr.Unmap()
	for _, p := range t {
		if p.Contains(addr) {
			return true
		}
	}
	return false
}

// peerAddr is the address of the connection's other end.
func peerAddr(remoteAddr string) (netip.Addr, bool) {
	host, _, err := net.SplitHostPort(remoteAddr)
	if err != nil {
		host = remoteAddr
	}
	a, err := netip.ParseAddr(host)
	return a.Unmap(), err == nil
}

// clientAddr walks X-Forwarded-For from the right, past the trusted
// proxies, to the first address a trusted proxy saw: the client. Entries
// further left were written by the client itself and prove nothing.
func (t TrustedProxies) clientAddr(forwardedFor []string) (netip.Addr, bool) {
	var hops []string
	for _, h := range forwardedFor {
		hops = append(hops, strings.Split(h, ",")...)
	}
	for i := len(hops) - 1; i >= 0; i-- {
		a, ok := peerAddr(strings.TrimSpace(hops[i]))
		if !ok {
			return netip.Addr{}, false // a garbled hop: believe nothing beyond it
		}
		if !t.contains(a) {
			return a, true
		}
	}
	return netip.Addr{}, false
}

// secureKey marks, in a request's context, that the browser reached us
// over TLS at a trusted proxy.
type secureKey struct{}

// fromProxy rewrites a request that came through a trusted proxy as the
// browser made it: RemoteAddr becomes the client's address (so logs and
// the per-address limits see the player, not the proxy) and an https
// X-Forwarded-Proto makes the request count as secure (so cookies are
// marked Secure). Without trusted proxies it changes nothing.
func (h *Handler) fromProxy(next http.Handler) http.Handler {
	if len(h.proxies) == 0 {
		return next
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		peer, ok := peerAddr(r.RemoteAddr)
		if !ok || !h.proxies.contains(peer) {
			next.ServeHTTP(w, r)
			return
		}
		if client, ok := h.proxies.clientAddr(r.Header.Values("X-Forwarded-For")); ok {
			r.RemoteAddr = netip.AddrPortFrom(client, 0).String()
		}
		if strings.EqualFold(strings.TrimSpace(r.Header.Get("X-Forwarded-Proto")), "https") {
			r = r.WithContext(context.WithValue(r.Context(), secureKey{}, true))
		}
		next.ServeHTTP(w, r)
	})
}

// isSecure reports whether the browser reached the site over TLS: directly,
// or at a trusted proxy.
func isSecure(r *http.Request) bool {
	if r.TLS != nil {
		return true
	}
	secure, _ := r.Context().Value(secureKey{}).(bool)
	return secure
}

// ParseBaseURL checks the site's public address, such as
// "https://chess.example.org": a scheme and a host, no path (the site is
// served at the root). The empty string means "as the browser reached us".
func ParseBaseURL(s string) (*url.URL, error) {
	if s == "" {
		return nil, nil
	}
	u, err := url.Parse(s)
	if err != nil {
		return nil, fmt.Errorf("base URL %q: %w", s, err)
	}
	if (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("base URL %q: want http:// or https:// and a host name", s)
	}
	if (u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.Fragment != "" || u.User != nil {
		return nil, fmt.Errorf("base URL %q: only a scheme and a host (with an optional port); the site is served at the root", s)
	}
	u.Path = ""
	return u, nil
}
