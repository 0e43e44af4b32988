package handlers

import (
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"testing"
	"time"
)

func TestParseTrustedProxies(t *testing.T) {
	got, err := ParseTrustedProxies(" 127.0.0.1, ::1,10.1.2.3/8 ,")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"127.0.0.1/32", "::1/128", "10.0.0.0/8"}
	if len(got) != len(want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	for i := range want {
		if got[i].String() != want[i] {
			t.Errorf("proxy %d = %s, want %s", i, got[i], want[i])
		}
	}
	if none, err := ParseTrustedProxies(""); err != nil || len(none) != 0 {
		t.Errorf(`"" = %v, %v; want no proxy`, none, err)
	}
	for _, bad := range []string{"localhost", "10.0.0.0/33", "1.2.3"} {
		if _, err := ParseTrustedProxies(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

func TestClientAddrSkipsTrustedHopsOnly(t *testing.T) {
	proxies, err := ParseTrustedProxies("10.0.0.0/8")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		xff  []string
		want string // "" for no client address
	}{
		{"one proxy", []string{"203.0.113.7"}, "203.0.113.7"},
		{"two proxies", []string{"203.0.113.7, 10.0.0.2"}, "203.0.113.7"},
		{"header repeated", []string{"203.0.113.7", "10.0.0.2"}, "203.0.113.7"},
		// The client wrote the left entry itself: it proves nothing.
		{"forged entry", []string{"192.0.2.99, 203.0.113.7"}, "203.0.113.7"},
		{"only proxies", []string{"10.0.0.3, 10.0.0.2"}, ""},
		{"garbled hop", []string{"203.0.113.7, not-an-ip"}, ""},
		{"IPv6", []string{"2001:db8::5"}, "2001:db8::5"},
		{"none", nil, ""},
	}
	for _, tt := range tests {
		got, ok := proxies.clientAddr(tt.xff)
		if tt.want == "" {
			if ok {
				t.Errorf("%s: client %s, want none", tt.name, got)
			}
			continue
		}
		if !ok || got != netip.MustParseAddr(tt.want) {
			t.Errorf("%s: client %v (%v), want %s", tt.name, got, ok, tt.want)
		}
	}
}

// proxied is a request as a TLS-terminating proxy at 10.0.0.1 passes it on.
func proxied(rq request, client string) request {
	rq.remote = "10.0.0.1:40000"
	if rq.header == nil {
		rq.header = map[string]string{}
	}
	rq.header["X-Forwarded-For"] = client
	rq.header["X-Forwarded-Proto"] = "https"
	return rq
}

func TestTrustedProxyMakesCookiesSecure(t *testing.T) {
	proxies, err := ParseTrustedProxies("10.0.0.1")
	if err != nil {
		t.Fatal(err)
	}
	e := newAccountEnvWith(t, RateLimit{}, func(c *Config) { c.TrustedProxies = proxies })
	signup := func(name string) request {
		return request{method: http.MethodPost, target: "/signup", form: url.Values{"username": {name}, "password": {"correct horse"}}}
	}
	resp := e.do(t, proxied(signup("behind"), "203.0.113.7"))
	if c := cookie(resp, sessionCookie); c == nil || !c.Secure {
		t.Errorf("cookie through the trusted proxy = %+v, want Secure", c)
	}
	// The same headers from anyone else are not believed.
	rq := proxied(signup("forger"), "203.0.113.7")
	rq.remote = "198.51.100.9:5000"
	resp = e.do(t, rq)
	if c := cookie(resp, sessionCookie); c == nil || c.Secure {
		t.Errorf("cookie with forged headers = %+v, want a cookie not marked Secure", c)
	}
}

func TestTrustedProxyLimitsEachClient(t *testing.T) {
	proxies, err := ParseTrustedProxies("10.0.0.1")
	if err != nil {
		t.Fatal(err)
	}
	e := newAccountEnvWith(t, RateLimit{Every: time.Minute, Burst: 1}, func(c *Config) { c.TrustedProxies = proxies })
	login := request{method: http.MethodPost, target: "/login", form: url.Values{"username": {"nobody"}, "password": {"wrong horse"}}}
	for _, client := range []string{"203.0.113.7", "203.0.113.8"} {
		if resp := e.do(t, proxied(login, client)); resp.StatusCode != http.StatusUnprocessableEntity {
			t.Errorf("first attempt of %s = %d, want 422 (each client has its own limit)", client, resp.StatusCode)
		}
	}
	if resp := e.do(t, proxied(login, "203.0.113.7")); resp.StatusCode != http.StatusTooManyRequests {
		t.Errorf("second attempt of 203.0.113.7 = %d, want 429", resp.StatusCode)
	}
	// Without trust, X-Forwarded-For does not buy a fresh limit.
	direct := login
	direct.remote = "198.51.100.9:5000"
	direct.header = map[string]string{"X-Forwarded-For": "192.0.2.1"}
	e.do(t, direct)
	direct.header = map[string]string{"X-Forwarded-For": "192.0.2.2"}
	if resp := e.do(t, direct); resp.StatusCode != http.StatusTooManyRequests {
		t.Errorf("untrusted client changing X-Forwarded-For = %d, want 429", resp.StatusCode)
	}
}

func TestParseBaseURL(t *testing.T) {
	for in, want := range map[string]string{
		"https://chess.example.org":      "https://chess.example.org",
		"https://chess.example.org/":     "https://chess.example.org",
		"http://192.0.2.1:8080":          "http://192.0.2.1:8080",
		"https://Chess.Example.org:8443": "https://Chess.Example.org:8443",
	} {
		u, err := ParseBaseURL(in)
		if err != nil || u.String() != want {
			t.Errorf("%q = %v, %v; want %s", in, u, err, want)
		}
	}
	if u, err := ParseBaseURL(""); u != nil || err != nil {
		t.Errorf(`"" = %v, %v; want nil, nil`, u, err)
	}
	for _, bad := range []string{"chess.example.org", "ftp://chess.example.org", "https://", "https://x.org/satranc", "https://x.org/?a=1", "https://u:p@x.org"} {
		if _, err := ParseBaseURL(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

func TestBaseURLForLinks(t *testing.T) {
	req := httptest.NewRequest(http.MethodGet, "http://127.0.0.1:8080/games/1", nil)
	if got := New(Config{}).baseURL(req); got != "http://127.0.0.1:8080" {
		t.Errorf("without --base-url: %q, want the address reached", got)
	}
	base, err := ParseBaseURL("https://chess.example.org")
	if err != nil {
		t.Fatal(err)
	}
	if got := New(Config{BaseURL: base}).baseURL(req); got != "https://chess.example.org" {
		t.Errorf("with --base-url: %q", got)
	}
}
