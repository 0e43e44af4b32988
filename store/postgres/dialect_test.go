package postgres

import "testing"

func TestRedacted(t *testing.T) {
	tests := []struct{ db, want string }{
		{"satranc.db", "satranc.db"},
		{"postgres://satranc:secret@db.example:5432/satranc", "postgres://satranc:xxxxx@db.example:5432/satranc"},
		{"postgresql:///satranc?host=/run/pg&password=secret", "postgresql:///satranc?host=%2Frun%2Fpg&password=xxxxx"},
		{"postgres:///satranc?host=/run/pg", "postgres:///satranc?host=/run/pg"},
	}
	for _, tc := range tests {
		if got := Redacted(tc.db); got != tc.want {
			t.Errorf("Redacted(%q) = %q, want %q", tc.db, got, tc.want)
		}
	}
	if IsURL("postgres.db") || !IsURL("postgresql://x/y") {
		t.Error("IsURL: a file named postgres.db is SQLite, postgresql:// is PostgreSQL")
	}
}
