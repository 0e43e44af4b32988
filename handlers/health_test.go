package handlers

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
)

// fakeSchemaDB is a database whose schema check fails with err.
type fakeSchemaDB struct {
	fakeDB
	err error
}

func (f fakeSchemaDB) CheckSchema(context.Context) error { return f.err }

func TestHealthSchema(t *testing.T) {
	tests := []struct {
		name     string
		err      error
		status   int
		wantBody string
	}{
		{"current", nil, http.StatusOK, "ok\n"},
		{"behind", errors.New("store: migrations not current: database at version 3"), http.StatusServiceUnavailable, "migrations not current\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h, logs := newTestHandler(t, fakeSchemaDB{err: tc.err})
			resp := get(t, h, "/healthz")
			body, _ := io.ReadAll(resp.Body)
			if resp.StatusCode != tc.status || string(body) != tc.wantBody {
				t.Errorf("GET /healthz = %d %q, want %d %q", resp.StatusCode, body, tc.status, tc.wantBody)
			}
			if tc.err != nil && !strings.Contains(logs.String(), "version 3") {
				t.Errorf("log lacks the reason:\n%s", logs)
			}
		})
	}
}
