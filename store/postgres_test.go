package store

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path"
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
	"GameLeases":                     TestGameLeases,
	"LeaseFencing":                   TestLeaseFencing,
	"ClusterRoles":                   TestClusterRoles,
	"FirstAccountIsAdmin":            TestFirstAccountIsAdmin,
	"GrantChipsReason":               TestGrantChipsReason,
	"FindMembers":                    TestFindMembers,
	"Reports":                        TestReports,
	"VoidGameRestores":               TestVoidGameRestores,
	"VoidGameLaterGames":             TestVoidGameLaterGames,
	"VoidGameRefused":                TestVoidGameRefused,
}

func TestPostgres(t *testing.T) {
	postgresServer(t) // skips the whole test when PostgreSQL is missing
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

// The package's one PostgreSQL server, started by the first test that
// needs it and stopped by TestMain.
var (
	pgOnce   sync.Once
	pgServer *pgtest.Server
	pgErr    error
)

// postgresServer returns the package's server, starting it on first use;
// it skips tb when PostgreSQL is not installed.
func postgresServer(tb testing.TB) *pgtest.Server {
	tb.Helper()
	pgOnce.Do(func() { pgServer, pgErr = pgtest.Start() })
	if pgErr != nil {
		if errors.Is(pgErr, pgtest.ErrUnavailable) {
			pgtest.Skip(tb, "%v", pgErr)
		}
		tb.Fatal(pgErr)
	}
	return pgServer
}

// postgresDatabase returns the URL of a fresh database for tb.
func postgresDatabase(tb testing.TB) string {
	tb.Helper()
	return postgresServer(tb).NewDatabase(tb)
}

func TestMain(m *testing.M) {
	code := m.Run()
	if pgServer != nil {
		if err := pgServer.Stop(); err != nil {
			os.Stderr.WriteString(err.Error() + "\n")
			code = 1
		}
	}
	os.Exit(code)
}

// TestPostgresMigrationsMatch checks that each SQLite migration has its
// PostgreSQL counterpart of the same name in migrations_postgres/, and no
// PostgreSQL migration lacks a SQLite one.
func TestPostgresMigrationsMatch(t *testing.T) {
	names := func(dir string) []string {
		files, err := fs.Glob(migrationFiles, dir+"/*.sql")
		if err != nil {
			t.Fatal(err)
		}
		for i, f := range files {
			files[i] = path.Base(f)
		}
		return files
	}
	lite, pg := names(sqlite.migrationDir()), names(postgres.migrationDir())
	for _, n := range lite {
		if !slices.Contains(pg, n) {
			t.Errorf("store/migrations/%s has no PostgreSQL counterpart: add store/migrations_postgres/%s, "+
				"the same change in PostgreSQL's SQL (see the conventions in migrations_postgres/0001_init.sql), "+
				"and check it with go test -run TestPostgres ./store", n, n)
		}
	}
	for _, n := range pg {
		if !slices.Contains(lite, n) {
			t.Errorf("store/migrations_postgres/%s has no SQLite migration of the same name", n)
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
		wg.Go(func() { stores[i], errs[i] = Open(ctx, url) })
	}
	wg.Wait()
	for i, s := range stores {
		if errs[i] != nil {
			t.Fatalf("Open #%d = %v", i, errs[i])
		}
		defer s.Close()
	}
	ms, err := postgres.migrations()
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
