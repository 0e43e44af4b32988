package handlers

import (
	"database/sql"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
)

// TestGetChangesNothing: every GET route, asked by the administrator, a
// member and a guest (HEAD too, which the GET handler answers), leaves
// every row of every table of the database as it was, and the game in
// progress where it was. State changes only on POST.
func TestGetChangesNothing(t *testing.T) {
	s := newRouteSite(t)
	before, game := dumpDatabase(t, s.dbPath), s.state(t, s.game)
	asked := 0
	for _, path := range siteRoutes(t, s.h, s.values)[http.MethodGet] {
		if strings.HasSuffix(path, "/events") || path == "/metrics" {
			continue // event streams last (a player's stream is their presence at the table); the metrics are not a page
		}
		for _, who := range s.visitors() {
			for _, method := range []string{http.MethodGet, http.MethodHead} {
				resp := s.do(t, request{method: method, target: path, cookies: who.cookies})
				if resp.StatusCode >= 500 {
					t.Errorf("%s %s as %s: %d", method, path, who.name, resp.StatusCode)
				}
				asked++
			}
		}
	}
	t.Logf("%d GET and HEAD requests", asked)
	if asked < 60 {
		t.Errorf("only %d requests: the walk missed the routes", asked)
	}
	after := dumpDatabase(t, s.dbPath)
	for table, rows := range before {
		if !slices.Equal(rows, after[table]) {
			t.Errorf("table %s changed:\nbefore %q\nafter  %q", table, rows, after[table])
		}
	}
	for table := range after {
		if _, ok := before[table]; !ok {
			t.Errorf("table %s appeared", table)
		}
	}
	if got := s.state(t, s.game); got != game {
		t.Errorf("the game changed: %+v, was %+v", got, game)
	}
}

// dumpDatabase reads every row of every table of the SQLite file at path,
// each row as text, sorted, by table.
func dumpDatabase(t *testing.T, path string) map[string][]string {
	t.Helper()
	db, err := sql.Open("sqlite3", "file:"+path+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var tables []string
	rows, err := db.Query(`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			t.Fatal(err)
		}
		tables = append(tables, name)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	rows.Close()
	if len(tables) < 10 {
		t.Fatalf("only %d tables: %q", len(tables), tables)
	}
	out := make(map[string][]string, len(tables))
	for _, table := range tables {
		out[table] = dumpTable(t, db, table)
	}
	return out
}

func dumpTable(t *testing.T, db *sql.DB, table string) []string {
	t.Helper()
	rows, err := db.Query(`SELECT * FROM "` + table + `"`)
	if err != nil {
		t.Fatalf("table %s: %v", table, err)
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for rows.Next() {
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			t.Fatal(err)
		}
		out = append(out, fmt.Sprintf("%v", vals))
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	slices.Sort(out)
	return out
}
