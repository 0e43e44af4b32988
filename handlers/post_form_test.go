package handlers

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"
)

// TestReadPostAsParseForm: whatever a POST carries, readPost leaves the
// request's PostForm and Form as ParseForm would, and fails where it
// fails; a body over the limit fails with the limit's error, and a
// pooled buffer never leaks one form into the next.
func TestReadPostAsParseForm(t *testing.T) {
	long := "msg=" + strings.Repeat("x", 5000)
	cases := []struct{ name, target, contentType, body string }{
		{"move", "/games/1/moves", "application/x-www-form-urlencoded", "uci=e2e4&ply=0"},
		{"escaped and repeated", "/x", "application/x-www-form-urlencoded", "a=1+2%21&a=3&b=%C3%A7"},
		{"empty", "/x", "application/x-www-form-urlencoded", ""},
		{"bad escape", "/x", "application/x-www-form-urlencoded", "a=%zz&b=2"},
		{"semicolon", "/x", "application/x-www-form-urlencoded", "a=1;b=2"},
		{"long line", "/x", "application/x-www-form-urlencoded", long},
		{"with a query", "/x?q=1&a=0", "application/x-www-form-urlencoded", "a=1"},
		{"type with parameters", "/x", "application/x-www-form-urlencoded; charset=UTF-8", "a=1"},
		{"text", "/x", "text/plain", "a=1"},
		{"no type", "/x", "", "a=1"},
		{"move again", "/games/1/moves", "application/x-www-form-urlencoded", "uci=d7d5&ply=1"},
		{"move in the address", "/games/1/moves?uci=e2e4&ply=0&lag=3kq9&held=120", "application/x-www-form-urlencoded", ""},
		{"address without a type", "/x?a=1&a=2", "", ""},
		{"bad escape in the address", "/x?a=%zz&b=2", "application/x-www-form-urlencoded", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			req := func() *http.Request {
				r := httptest.NewRequest(http.MethodPost, tc.target, strings.NewReader(tc.body))
				if tc.contentType != "" {
					r.Header.Set("Content-Type", tc.contentType)
				}
				return r
			}
			got, want := req(), req()
			gotErr, wantErr := readPost(got), want.ParseForm()
			if (gotErr == nil) != (wantErr == nil) {
				t.Fatalf("readPost: %v, ParseForm: %v", gotErr, wantErr)
			}
			if !reflect.DeepEqual(got.PostForm, want.PostForm) {
				t.Errorf("PostForm %v, ParseForm's %v", got.PostForm, want.PostForm)
			}
			if !reflect.DeepEqual(got.Form, want.Form) {
				t.Errorf("Form %v, ParseForm's %v", got.Form, want.Form)
			}
		})
	}

	t.Run("over the limit", func(t *testing.T) {
		w := httptest.NewRecorder()
		r := httptest.NewRequest(http.MethodPost, "/x", strings.NewReader("a="+strings.Repeat("x", maxFormBytes)))
		r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		r.Body = http.MaxBytesReader(w, r.Body, maxFormBytes)
		err := readPost(r)
		if tooLarge := new(http.MaxBytesError); !errors.As(err, &tooLarge) {
			t.Fatalf("readPost = %v, want a MaxBytesError", err)
		}
		if r.PostForm == nil || r.Form == nil || len(r.PostForm) != 0 {
			t.Errorf("after the refusal PostForm %v, Form %v; want both empty", r.PostForm, r.Form)
		}
	})
}
