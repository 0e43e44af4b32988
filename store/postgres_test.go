package store

import (
	"context"
	"io/fs"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"

	"satranc/store/pgtest"
)

// The store's tests run on SQLite. Those listed in TestPostgres run again
// on PostgreSQL: mustOpen gives a test under TestPostgres a fresh database
// on one throwaway server (pgtest) per run of the package. With
// SATRANC_TEST_DB=postgres every test that calls mustOpen does, which is
// how to see which others hold on PostgreSQL too.

// postgresTests are the store tests that must pass on PostgreSQL as well:
// users, sessions, games and moves, the ledger and settlement, ratings,
// tournaments, chat, cosmetics and the administration (voids, reports).
var postgresTests = map[string]func(*testing.T){
	"CheckSchema":                    TestCheckSchema,
	"Ping":                           TestPing,
	"CreateUser":                     TestCreateUser,
	"CreateUserConflict":             TestCreateUserConflict,
	"UserLookups":                    TestUserLookups,
	"UpdateProfile":                  TestUpdateProfile,
	"VIP":                            TestVIP,
	"Sessions":                       TestSessions,
	"SessionOfMissingUser":           TestSessionOfMissingUser,
	"GameLifecycle":                  TestGameLifecycle,
	"GameAbortedPracticeUntimed":     TestGameAbortedPracticeUntimed,
	"GameNotFound":                   TestGameNotFound,
	"PublicGameThroughPlay":          TestPublicGameThroughPlay,
	"LoungeSettlement":               TestLoungeSettlement,
	"GameSettlement":                 TestGameSettlement,
	"PlayerGames":                    TestPlayerGames,
	"PublicBotGames":                 TestPublicBotGames,
	"FillPublicBotNames":             TestFillPublicBotNames,
	"BotLounge":                      TestBotLounge,
	"LoungeEligibility":              TestLoungeEligibility,
	"SameOpponent":                   TestSameOpponent,
	"SignupGrantAndDailyBonus":       TestSignupGrantAndDailyBonus,
	"LedgerAppendOnly":               TestLedgerAppendOnly,
	"Ratings":                        TestRatings,
	"Leaderboard":                    TestLeaderboard,
	"Standings":                      TestStandings,
	"ChatMessages":                   TestChatMessages,
	"GrantItemIdempotent":            TestGrantItemIdempotent,
	"GrantItemRefusals":              TestGrantItemRefusals,
	"SaveLookReachesEveryUserLookup": TestSaveLookReachesEveryUserLookup,
	"ChooseThroughStore":             TestChooseThroughStore,
	"PrizePayoutOnceAcrossRestart":   TestPrizePayoutOnceAcrossRestart,
	"ManyWritersNoLockErrors":        TestManyWritersNoLockErrors,
	"FirstAccountIsAdmin":            TestFirstAccountIsAdmin,
	"GrantChipsReason":               TestGrantChipsReason,
	"FindMembers":                    TestFindMembers,
	"Reports":                        TestReports,
	"VoidGameRestores":               TestVoidGameRestores,
	"VoidGameLaterGames":             TestVoidGameLaterGames,
	"VoidGameRefused":                TestVoidGameRefused,
}

func TestPostgres(t *testing.T) {
	postgresDatabase(t) // skips the whole test when PostgreSQL is missing
	names := make([]string, 0, len(postgresTests))
	for name := range postgresTests {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		t.Run(name, postgresTests[name])
	}
}

// onPostgres reports whether mustOpen should give tb a PostgreSQL database.
func onPostgres(tb testing.TB) bool {
	return strings.HasPrefix(tb.Name(), "TestPostgres/") || os.Getenv("SATRANC_TEST_DB") == "postgres"
}

// pg is the package's one PostgreSQL server, started by the first test
// that needs it and stopped by TestMain.
var pg pgtest.Shared

// postgresDatabase returns the URL of a fresh database for tb; it skips tb
// when PostgreSQL is not installed.
func postgresDatabase(tb testing.TB) string {
	tb.Helper()
	return pg.NewDatabase(tb)
}

func TestMain(m *testing.M) { pg.Main(m) }

// TestPostgresMigrationsMatch checks that each SQLite migration has its
// PostgreSQL counterpart of the same name in store/postgres/migrations/,
// and no PostgreSQL migration lacks a SQLite one.
func TestPostgresMigrationsMatch(t *testing.T) {
	names := func(d Dialect) []string {
		files, err := fs.Glob(d.Migrations, "*.sql")
		if err != nil {
			t.Fatal(err)
		}
		return files
	}
	lite, pg := names(sqliteDialect), names(PostgresDialect)
	for _, n := range lite {
		if !slices.Contains(pg, n) {
			t.Errorf("store/migrations/%s has no PostgreSQL counterpart: add store/postgres/migrations/%s, "+
				"the same change in PostgreSQL's SQL (see the conventions in its 0001_init.sql), "+
				"and check it with go test -run TestPostgres ./store", n, n)
		}
	}
	for _, n := range pg {
		if !slices.Contains(lite, n) {
			t.Errorf("store/postgres/migrations/%s has no SQLite migration of the same name", n)
		}
	}
}

// TestPostgresOpenTwice opens one PostgreSQL database twice at once, as two
// nodes starting together do: the migrations are applied once.
func TestPostgresOpenTwice(t *testing.T) {
	url := postgresDatabase(t)
	ctx := context.Background()
	var wg sync.WaitGroup
	stores := make([]*Store, 2)
	errs := make([]error, 2)
	for i := range stores {
		wg.Go(func() { stores[i], errs[i] = OpenPostgres(ctx, url) })
	}
	wg.Wait()
	for i, s := range stores {
		if errs[i] != nil {
			t.Fatalf("Open #%d = %v", i, errs[i])
		}
		defer s.Close()
	}
	ms, err := PostgresDialect.migrations()
	if err != nil {
		t.Fatal(err)
	}
	if got := appliedMigrations(t, stores[0]); len(got) != len(ms) {
		t.Errorf("schema_migrations has %v, want %d rows", got, len(ms))
	}
	if err := stores[1].CheckSchema(ctx); err != nil {
		t.Errorf("CheckSchema() = %v", err)
	}
}
