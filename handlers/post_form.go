package handlers

import (
	"bytes"
	"io"
	"mime"
	"net/http"
	"net/url"
	"sync"
)

// readPost reads r's body: its form, URL-encoded (as every page sends
// it) or multipart, into r.PostForm, and anything else to its end, since
// no route reads another kind of body.
func readPost(r *http.Request) error {
	ct, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	switch {
	case ct == "multipart/form-data":
		return r.ParseMultipartForm(maxFormBytes) // it calls ParseForm
	case r.ContentLength == 0 && r.URL.RawQuery != "":
		return readAddress(r)
	case ct == "application/x-www-form-urlencoded" && r.URL.RawQuery == "":
		return readURLEncoded(r)
	}
	if err := r.ParseForm(); err != nil {
		return err
	}
	_, err := io.Copy(io.Discard, r.Body) // nothing left after a URL-encoded form
	return err
}

// readAddress is ParseForm for a POST without a body and with values in
// its address, as the board posts a move: the same values and error, with
// no body to read (ParseForm would read the empty body into a buffer of
// its own) and one map for r.Form.
func readAddress(r *http.Request) error {
	form, err := url.ParseQuery(r.URL.RawQuery)
	r.Form, r.PostForm = form, url.Values{}
	return err
}

// formBuffers are the buffers forms are read into. A move is a form of a
// few dozen bytes, posted a thousand times a second at 5,000 games:
// ParseForm would read each into a buffer of its own and copy the form
// into a second map for r.Form: garbage that brings the collector's
// next cycle sooner.
var formBuffers = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// maxPooledForm is the largest buffer kept for the next form: a long
// chat line's buffer is let go rather than held by the pool.
const maxPooledForm = 4 << 10

// readURLEncoded is ParseForm for a URL-encoded POST to an address
// without a query: the same values and the same error, with one map for
// r.PostForm and r.Form (they hold the same values when the address has
// none) and the body read into a pooled buffer.
func readURLEncoded(r *http.Request) error {
	buf := formBuffers.Get().(*bytes.Buffer)
	defer func() {
		if buf.Cap() <= maxPooledForm {
			buf.Reset()
			formBuffers.Put(buf)
		}
	}()
	if _, err := buf.ReadFrom(r.Body); err != nil {
		r.PostForm, r.Form = url.Values{}, url.Values{} // as ParseForm leaves them
		return err
	}
	// The values may be slices of the body's string, so it is a copy,
	// never the pooled bytes.
	form, err := url.ParseQuery(buf.String())
	r.PostForm, r.Form = form, form
	return err
}
