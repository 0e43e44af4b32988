// Package handlers is Satranç's HTTP layer: the chi router, middleware, and
// the page handlers. A handler parses the request, calls one use case, then
// renders a view or hands the error to fail (errors.go), the only place an
// error becomes a response.
//
//	h := handlers.New(handlers.Config{Logger: logger, DB: st})
//	srv := &http.Server{Addr: ":8080", Handler: h.Routes()}
package handlers
