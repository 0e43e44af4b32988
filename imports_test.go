package main

import (
	"os/exec"
	"strings"
	"testing"
)

// TestPackageImports keeps the dependencies pointing inward, as
// docs/architecture.md draws them: the engine reaches none of HTTP, SQL,
// templates, translations or metrics, even indirectly; handlers and views
// use the store only through the interfaces they declare; the store knows
// nothing of pages; PostgreSQL and NATS stay in the cluster's packages.
func TestPackageImports(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list")
	}
	clusterOnly := []string{"github.com/jackc/pgx/v5", "github.com/nats-io/nats.go"}
	engineForbidden := append([]string{"net/http", "database/sql", "github.com/a-h/templ", "github.com/nicksnyder/go-i18n/v2/i18n", "github.com/prometheus/client_golang/prometheus"}, clusterOnly...)
	for _, pkg := range goList(t, "{{.ImportPath}}", "./engine/...") {
		deps := goList(t, "{{.ImportPath}}", "-deps", pkg)
		for _, f := range engineForbidden {
			for _, d := range deps {
				if d == f || strings.HasPrefix(d, f+"/") {
					t.Errorf("%s depends on %s", pkg, d)
				}
			}
		}
	}
	// PostgreSQL and NATS are the cluster's (store/postgres,
	// handlers/cluster): the single-node store and the game's path do not
	// reach them.
	for _, pkg := range []string{"satranc/store", "satranc/engine/play", "satranc/handlers"} {
		for _, d := range goList(t, "{{.ImportPath}}", "-deps", pkg) {
			for _, f := range clusterOnly {
				if d == f || strings.HasPrefix(d, f+"/") {
					t.Errorf("%s depends on %s", pkg, d)
				}
			}
		}
	}
	direct := map[string][]string{
		"satranc/handlers":          {"satranc/store", "satranc/handlers/cluster", "database/sql", "github.com/jmoiron/sqlx"},
		"satranc/views":             {"satranc/store", "database/sql", "github.com/jmoiron/sqlx", "satranc/handlers"},
		"satranc/handlers/tlsserve": {"satranc/store", "satranc/handlers", "satranc/engine/play"},
		"satranc/handlers/admincli": {"satranc/store", "database/sql", "github.com/jmoiron/sqlx"},
		"satranc/store":             {"net/http", "github.com/a-h/templ", "github.com/nicksnyder/go-i18n/v2/i18n", "satranc/handlers", "satranc/views"},
	}
	for pkg, forbidden := range direct {
		imports := goList(t, `{{join .Imports "\n"}}`, pkg)
		for _, f := range forbidden {
			for _, imp := range imports {
				if imp == f {
					t.Errorf("%s imports %s", pkg, imp)
				}
			}
		}
	}
}

// goList runs go list with the format and arguments and returns its lines.
func goList(t *testing.T, format string, args ...string) []string {
	t.Helper()
	out, err := exec.Command("go", append([]string{"list", "-f", format}, args...)...).Output()
	if err != nil {
		t.Fatalf("go list %v: %v", args, err)
	}
	return strings.Fields(strings.TrimSpace(string(out)))
}
