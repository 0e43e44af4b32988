package handlers

import (
	"cmp"
	"net/http"
	"slices"
	"strings"

	"github.com/go-chi/chi/v5"
)

// methodNotAllowed answers a request for a route of table (routeTable)
// with a method the route does not take: 405 with the error page, and the
// Allow header that HTTP requires with it. A path that no method reaches
// is not found.
func (h *Handler) methodNotAllowed(table chi.Routes) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		allowed := allowedMethods(table, r)
		if len(allowed) == 0 {
			h.fail(w, r, errNotFound)
			return
		}
		w.Header().Set("Allow", strings.Join(allowed, ", "))
		h.fail(w, r, errMethodNotAllowed)
	}
}

// allowedMethods are the methods that table serves at r's path; HEAD goes
// with GET (middleware.GetHead).
func allowedMethods(table chi.Routes, r *http.Request) []string {
	path := cmp.Or(r.URL.RawPath, r.URL.Path, "/")
	var allowed []string
	for _, m := range []string{http.MethodGet, http.MethodHead, http.MethodPost, http.MethodPut,
		http.MethodPatch, http.MethodDelete, http.MethodOptions} {
		if table.Match(chi.NewRouteContext(), m, path) ||
			(m == http.MethodHead && slices.Contains(allowed, http.MethodGet)) {
			allowed = append(allowed, m)
		}
	}
	return allowed
}

// routeTable copies every route of routes into one router without mounted
// routers, whose Match tells which methods a path takes: the Match of a
// router with mounted ones says yes to any method at a mounted router's
// own path.
func routeTable(routes chi.Routes) chi.Routes {
	table := chi.NewRouter()
	found := http.NotFoundHandler() // never served: only matched
	_ = chi.Walk(routes, func(method, route string, _ http.Handler, _ ...func(http.Handler) http.Handler) error {
		table.Method(method, route, found)
		if base, ok := strings.CutSuffix(route, "/"); ok && base != "" {
			table.Method(method, base, found) // a mounted router's "/" is its path without the slash too
		}
		return nil // so Walk returns none
	})
	return table
}
