package views

import "testing"

func TestSupportHref(t *testing.T) {
	tests := []struct{ in, want string }{
		{"help@example.org", "mailto:help@example.org"},
		{"https://example.org/help", "https://example.org/help"},
		{"http://example.org", "http://example.org"},
		{"javascript:alert(1)", ""},
		{"Ask Ayşe at the club", ""},
		{"Support <help@example.org>", ""},
	}
	for _, tc := range tests {
		if got := supportHref(tc.in); got != tc.want {
			t.Errorf("supportHref(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
