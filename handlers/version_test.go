package handlers

import (
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"
)

func TestFooterVersion(t *testing.T) {
	tests := []struct {
		name, version, target, want string
	}{
		{"none", "", "/", ""},
		{"english", "v1.2.0", "/", "Satranç version v1.2.0"},
		{"turkish", "devel+0123456789ab", "/rules?lang=tr", "Satranç sürümü devel+0123456789ab"},
		{"not found", "v1.2.0", "/no/such/page", "v1.2.0"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h := New(Config{Logger: slog.New(slog.DiscardHandler), Version: tc.version})
			rec := httptest.NewRecorder()
			h.Routes().ServeHTTP(rec, httptest.NewRequest(http.MethodGet, tc.target, nil))
			doc, err := goquery.NewDocumentFromReader(rec.Body)
			if err != nil {
				t.Fatal(err)
			}
			v := doc.Find(`[data-testid="footer"] [data-testid="footer-version"]`)
			if tc.want == "" {
				if v.Length() != 0 {
					t.Errorf("GET %s: footer shows a version without one configured: %q", tc.target, v.Text())
				}
				return
			}
			if got := strings.TrimSpace(v.Text()); !strings.Contains(got, tc.want) {
				t.Errorf("GET %s: footer version = %q, want %q in it", tc.target, got, tc.want)
			}
		})
	}
}
