package store

import (
	"context"
	"strings"
	"testing"
)

// queryPlan returns the details of SQLite's plan for query (EXPLAIN QUERY
// PLAN), one line a step. The parameters need no values for the plan.
func queryPlan(t *testing.T, s *Store, query string) []string {
	t.Helper()
	args := make([]any, strings.Count(query, "?"))
	rows, err := s.rdb.QueryContext(context.Background(), "EXPLAIN QUERY PLAN "+query, args...)
	if err != nil {
		t.Fatalf("EXPLAIN QUERY PLAN: %v", err)
	}
	defer rows.Close()
	var plan []string
	for rows.Next() {
		var id, parent, unused int
		var detail string
		if err := rows.Scan(&id, &parent, &unused, &detail); err != nil {
			t.Fatal(err)
		}
		plan = append(plan, detail)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return plan
}

// TestHotQueryPlans: the queries that run for every game's end, stream or
// page reach each table by the game's (or the row's own) key, and never
// by an index of everything a member ever did, which grows with every
// game the member plays. SQLite plans without statistics here (the store
// runs no ANALYZE), so these plans are what every database gets.
func TestHotQueryPlans(t *testing.T) {
	s, _ := mustOpenSQLite(t)
	tests := []struct {
		name    string
		query   string
		want    []string // a step of the plan must contain each
		refused []string // no step may contain any
	}{
		{"a game's settlement", settlementQuery,
			[]string{"SEARCH l USING INDEX ledger_game_entry (game_id=?)", "SEARCH rc USING INDEX sqlite_autoindex_rating_changes_1 (game_id=? AND user_id=?)"},
			[]string{"ledger_credit", "ledger_debit", "SCAN"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			plan := queryPlan(t, s, tc.query)
			text := strings.Join(plan, "\n")
			for _, w := range tc.want {
				if !strings.Contains(text, w) {
					t.Errorf("plan lacks %q:\n%s", w, text)
				}
			}
			for _, r := range tc.refused {
				if strings.Contains(text, r) {
					t.Errorf("plan has %q:\n%s", r, text)
				}
			}
		})
	}
}
