// Package handlers is Satranç's HTTP layer: the chi router, middleware, and
// the page handlers. A handler parses the request, calls one use case, then
// renders a view or hands the error to fail (errors.go), the only place an
// error becomes a response.
//
//	h := handlers.New(handlers.Config{Logger: logger, DB: st, Accounts: svc, Bundle: bundle})
//	srv := &http.Server{Addr: ":8080", Handler: h.Routes()}
//
// Pages run inside h.page (session.go): the session cookie's user is put
// into the context, then the language is picked (i18n.go: ?lang, the
// profile or the lang cookie, Accept-Language, English). Inside a handler:
//
//	u, ok := userFrom(r.Context())   // the logged-in account.User; ok is false for a guest
//	views.Lang(r.Context())          // "en" or "tr"
//	views.T(r.Context(), "nav.login") // a text in the page's language
//
// Routes for members only go in a group with requireUser, which sends a
// guest to /login?next=… . Every state change is a POST; cross-origin
// POSTs are refused by http.CrossOriginProtection for the whole router.
package handlers
