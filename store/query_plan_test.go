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

// TestQueryPlans: the reads of a game's end, a member's page, a computer
// name's page, the leaderboard and the watch for voids search indexes that take them
// straight to the rows they return, and none reads everything a member
// or the site ever did, which grows with every game played
// (docs/performance.md, "Years of play"). SQLite plans without
// statistics here (the store runs no ANALYZE), so these plans are what
// every database gets.
func TestQueryPlans(t *testing.T) {
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
		{"a member's figures", statsQuery,
			[]string{"games_white_result (white_id=? AND result=?)", "games_black_result (black_id=? AND result=?)"},
			[]string{"MULTI-INDEX OR", "SCAN"}},
		{"a member's games over", playerGamesQuery,
			[]string{"games_white_over (white_id=?)", "games_black_over (black_id=?)"},
			[]string{"MULTI-INDEX OR", "SCAN games"}},
		{"the leaderboard", leaderboardQuery,
			[]string{"SCAN u USING INDEX users_rating", "SEARCH h USING COVERING INDEX users_rating (rating>?)"},
			[]string{"TEMP B-TREE", "SCAN h"}},
		{"a member's standing", standingQuery,
			[]string{"SEARCH h USING COVERING INDEX users_rating (rating>?)"},
			[]string{"SCAN"}},
		{"a computer name's games", publicBotGamesQuery,
			[]string{"games_white_bot_name (white_bot_name=?)", "games_black_bot_name (black_bot_name=?)"},
			[]string{"SCAN"}},
		{"a computer name's opponents' ratings", publicBotRatingsQuery,
			[]string{"games_white_bot_name (white_bot_name=?)", "games_black_bot_name (black_bot_name=?)", "rating_changes_1 (game_id=?)"},
			[]string{"SCAN"}},
		{"the computer names' first game", publicBotsSinceQuery,
			[]string{"games_white_bot_name (white_bot_name>?)", "games_black_bot_name (black_bot_name>?)"},
			[]string{"SCAN"}},
		{"the voids since", voidsSinceQuery,
			[]string{"games_voided (voided_at>?)"},
			[]string{"SCAN", "TEMP B-TREE"}},
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
