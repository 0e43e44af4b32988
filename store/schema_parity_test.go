package store

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// The two dialects keep one schema in two migration histories
// (store/migrations/ and store/postgres/migrations/). TestSchemaParity applies both,
// each on its own database, reads back what each database's catalogue
// says, and compares the two descriptions fact by fact. A fact is one line
// such as "users.username: text nocase not null" or "games: foreign key
// (white_id) references users (id) on delete NO ACTION on update NO
// ACTION", written the same way from either catalogue, so that a
// difference shows as a line only one side has.

// pgTypes is the type equivalence: the description, in SQLite's terms, of
// each PostgreSQL column type the migrations may use. SQLite's INTEGER is
// 64 bits; PostgreSQL's integer (32 bits) stands for it where values stay
// small (ratings, counts of games), bigint elsewhere. A flag is SQLite's
// INTEGER with CHECK (column IN (0, 1)) and PostgreSQL's boolean; citext
// is SQLite's TEXT COLLATE NOCASE. A type missing here is reported as a
// difference, so adding one is a decision made in this table.
var pgTypes = map[string]string{
	"smallint":         "integer",
	"integer":          "integer",
	"bigint":           "integer",
	"boolean":          "flag",
	"text":             "text",
	"citext":           "text nocase",
	"real":             "real",
	"double precision": "real",
	"bytea":            "blob",
}

// sqliteTypes is the same description for SQLite's declared types (STRICT
// tables allow only these, and ANY).
var sqliteTypes = map[string]string{
	"INTEGER": "integer",
	"INT":     "integer",
	"TEXT":    "text",
	"REAL":    "real",
	"BLOB":    "blob",
}

// intendedDifferences are the facts that only one dialect has, on
// purpose, each with the reason. The test fails on any other difference,
// and on an entry here that no longer differs (so the list stays true).
var intendedDifferences = map[string]string{
	// SQLite numbers every INTEGER PRIMARY KEY of a rowid table itself (it
	// is the rowid), and there is no way to say otherwise; these two keys
	// are always written by the store (a game's id, a migration's number),
	// so PostgreSQL rightly declares no identity for them.
	"sqlite only: game_leases.game_id: integer not null generated":       "INTEGER PRIMARY KEY is always the rowid in SQLite",
	"postgres only: game_leases.game_id: integer not null":               "INTEGER PRIMARY KEY is always the rowid in SQLite",
	"sqlite only: schema_migrations.version: integer not null generated": "INTEGER PRIMARY KEY is always the rowid in SQLite",
	"postgres only: schema_migrations.version: integer not null":         "INTEGER PRIMARY KEY is always the rowid in SQLite",
}

func TestSchemaParity(t *testing.T) {
	ctx := context.Background()
	pgURL := postgresDatabase(t) // skips where the other PostgreSQL tests skip

	liteMs, err := sqliteDialect.migrations()
	if err != nil {
		t.Fatal(err)
	}
	pgMs, err := PostgresDialect.migrations()
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(liteMs, pgMs) {
		t.Errorf("migration lists differ:\nsqlite:   %v\npostgres: %v", liteMs, pgMs)
	}

	// Open migrates, through the same runner the server uses, so a pair
	// the runner does not pick up in one dialect shows here too.
	lite, err := Open(ctx, filepath.Join(t.TempDir(), "parity.db"))
	if err != nil {
		t.Fatalf("Open(sqlite) = %v", err)
	}
	defer lite.Close()
	pg, err := OpenPostgres(ctx, pgURL)
	if err != nil {
		t.Fatalf("Open(postgres) = %v", err)
	}
	defer pg.Close()
	for _, s := range []*Store{lite, pg} {
		if err := s.CheckSchema(ctx); err != nil {
			t.Errorf("%s: CheckSchema() = %v", s.dialect.Name, err)
		}
		want, _ := s.dialect.migrations()
		if got := appliedMigrations(t, s); len(got) != len(want) {
			t.Errorf("%s: schema_migrations has %v, want %d rows", s.dialect.Name, got, len(want))
		}
	}

	liteFacts := sqliteSchema(t, lite)
	pgFacts := postgresSchema(t, pg)
	if len(liteFacts) == 0 || len(pgFacts) == 0 {
		t.Fatalf("read %d SQLite and %d PostgreSQL facts, want both non-empty", len(liteFacts), len(pgFacts))
	}
	seen := map[string]bool{}
	for _, d := range factDiff(liteFacts, pgFacts) {
		if _, ok := intendedDifferences[d]; ok {
			seen[d] = true
			continue
		}
		t.Errorf("schemas differ: %s", d)
	}
	for d := range intendedDifferences {
		if !seen[d] {
			t.Errorf("intendedDifferences lists %q, which the schemas no longer show: remove it", d)
		}
	}
}

// factDiff returns, sorted, the facts only one side has, as "sqlite only:
// ..." and "postgres only: ..." lines. The sides are multisets (a table
// may have two CHECKs on one column).
func factDiff(lite, pg []string) []string {
	count := map[string]int{}
	for _, f := range lite {
		count[f]++
	}
	for _, f := range pg {
		count[f]--
	}
	var out []string
	for f, n := range count {
		for ; n > 0; n-- {
			out = append(out, "sqlite only: "+f)
		}
		for ; n < 0; n++ {
			out = append(out, "postgres only: "+f)
		}
	}
	slices.Sort(out)
	return out
}

// columnFact describes one column: its type in SQLite's terms (see
// pgTypes), NOT NULL, a default, and "generated" for a key the database
// numbers itself.
func columnFact(table, col, typ string, notNull bool, dflt string, generated bool) string {
	f := table + "." + col + ": " + typ
	if notNull {
		f += " not null"
	}
	if dflt != "" {
		f += " default " + dflt
	}
	if generated {
		f += " generated"
	}
	return f
}

// indexFact describes an index that is not the primary key's. A UNIQUE
// constraint's index is named by each database its own way, so it is
// described by its columns only; indexes the migrations create are
// described by name too. A partial index's condition where (SQL) is
// described as a CHECK is (see exprSummary).
func indexFact(table, name string, unique, fromConstraint bool, where string, names, cols []string) string {
	if fromConstraint {
		return fmt.Sprintf("%s: unique (%s)", table, strings.Join(cols, ", "))
	}
	f := table + ": index " + name
	if unique {
		f = table + ": unique index " + name
	}
	f += " (" + strings.Join(cols, ", ") + ")"
	if where != "" {
		f += " where " + exprSummary(where, names)
	}
	return f
}

// exprColumn stands for an index key that is an expression, not a column.
const exprColumn = "(expression)"

// checkFact describes a CHECK constraint by what its expression e
// mentions (see exprSummary): each database keeps the expression in its
// own form, PostgreSQL's rewritten ("language = ANY (ARRAY['en'::text,
// 'tr'::text])" for "language IN ('en', 'tr')").
func checkFact(table, e string, names []string) string {
	return table + ": check " + exprSummary(e, names)
}

var (
	sqlString  = regexp.MustCompile(`'(?:[^']|'')*'`)
	identifier = regexp.MustCompile(`[A-Za-z_][A-Za-z0-9_]*`)
	number     = regexp.MustCompile(`\b[0-9]+\b`)
)

// exprSummary describes the SQL expression e by the columns of its table
// (names) that it mentions and the literals it compares them with, each
// sorted and once: "on (gender) with ”, 'female', 'male', 'other'".
// That tells apart any two CHECKs or index conditions the migrations have
// written so far, whichever dialect wrote them.
func exprSummary(e string, names []string) string {
	lits := sqlString.FindAllString(e, -1)
	rest := sqlString.ReplaceAllString(e, " ")
	lits = append(lits, number.FindAllString(rest, -1)...)
	var cols []string
	for _, w := range identifier.FindAllString(rest, -1) {
		if slices.Contains(names, w) {
			cols = append(cols, w)
		}
	}
	slices.Sort(cols)
	slices.Sort(lits)
	f := "on (" + strings.Join(slices.Compact(cols), ", ") + ")"
	if lits = slices.Compact(lits); len(lits) > 0 {
		f += " with " + strings.Join(lits, ", ")
	}
	return f
}

func foreignKeyFact(table string, cols []string, ref string, refCols []string, onDelete, onUpdate string) string {
	return fmt.Sprintf("%s: foreign key (%s) references %s (%s) on delete %s on update %s",
		table, strings.Join(cols, ", "), ref, strings.Join(refCols, ", "), onDelete, onUpdate)
}

// sqliteSchema describes the SQLite database of s.
func sqliteSchema(t *testing.T, s *Store) []string {
	t.Helper()
	var tables []struct {
		Name   string `db:"name"`
		Strict bool   `db:"strict"`
		NoRow  bool   `db:"wr"`
	}
	if err := s.db.Select(&tables, `SELECT name, strict, wr FROM pragma_table_list
		WHERE schema = 'main' AND type = 'table' AND name NOT LIKE 'sqlite\_%' ESCAPE '\'`); err != nil {
		t.Fatal(err)
	}
	var facts []string
	for _, tb := range tables {
		facts = append(facts, "table "+tb.Name)
		if !tb.Strict {
			// PostgreSQL always refuses a value of the wrong type; SQLite
			// does only in STRICT tables (the convention in 0001_init.sql).
			facts = append(facts, tb.Name+": column types not enforced (not STRICT)")
		}
		var createSQL string
		if err := s.db.Get(&createSQL, "SELECT sql FROM sqlite_schema WHERE type = 'table' AND name = ?", tb.Name); err != nil {
			t.Fatal(err)
		}
		defs, err := parseCreateTable(createSQL)
		if err != nil {
			t.Fatalf("table %s: %v", tb.Name, err)
		}

		var cols []struct {
			Name    string         `db:"name"`
			Type    string         `db:"type"`
			NotNull bool           `db:"notnull"`
			Default sql.NullString `db:"dflt_value"`
			PK      int            `db:"pk"`
		}
		if err := s.db.Select(&cols, `SELECT name, type, "notnull", dflt_value, pk FROM pragma_table_info(?) ORDER BY cid`, tb.Name); err != nil {
			t.Fatal(err)
		}
		var names, pk []string
		for _, c := range cols {
			names = append(names, c.Name)
		}
		pkCols := make([]string, len(cols))
		for _, c := range cols {
			if c.PK > 0 {
				pkCols[c.PK-1] = c.Name
			}
		}
		pk = slices.DeleteFunc(pkCols, func(s string) bool { return s == "" })
		facts = append(facts, tb.Name+": columns "+strings.Join(names, ", "))
		if len(pk) > 0 {
			facts = append(facts, tb.Name+": primary key ("+strings.Join(pk, ", ")+")")
		}
		// The rowid alias: a rowid table's one-column INTEGER PRIMARY KEY.
		rowidAlias := !tb.NoRow && len(pk) == 1
		for _, c := range cols {
			def := defs.columns[c.Name]
			typ, ok := sqliteTypes[strings.ToUpper(c.Type)]
			if !ok {
				typ = "sqlite " + c.Type
			}
			if typ == "text" && def.nocase {
				typ = "text nocase"
			}
			checks := def.checks
			if typ == "integer" {
				// A flag: its CHECK (c IN (0, 1)) is PostgreSQL's boolean type.
				if i := slices.IndexFunc(checks, func(e string) bool { return squash(e) == squash(c.Name+" IN (0, 1)") }); i >= 0 {
					typ = "flag"
					checks = slices.Delete(slices.Clone(checks), i, i+1)
				}
			}
			for _, e := range checks {
				facts = append(facts, checkFact(tb.Name, e, names))
			}
			generated := rowidAlias && c.PK == 1 && strings.EqualFold(c.Type, "INTEGER")
			// SQLite lets NULL into a PRIMARY KEY column of a rowid table
			// that is not STRICT (an old bug kept for compatibility).
			notNull := c.NotNull || c.PK > 0 && (generated || tb.NoRow || tb.Strict)
			facts = append(facts, columnFact(tb.Name, c.Name, typ, notNull, c.Default.String, generated))
		}
		for _, e := range defs.tableChecks {
			facts = append(facts, checkFact(tb.Name, e, names))
		}

		var indexes []struct {
			Name   string         `db:"name"`
			Unique bool           `db:"unique"`
			Origin string         `db:"origin"`
			SQL    sql.NullString `db:"sql"` // NULL for the indexes of constraints
		}
		if err := s.db.Select(&indexes, `SELECT l.name, l."unique", l.origin, x.sql
			FROM pragma_index_list(?) AS l LEFT JOIN sqlite_schema AS x ON x.type = 'index' AND x.name = l.name`, tb.Name); err != nil {
			t.Fatal(err)
		}
		for _, ix := range indexes {
			if ix.Origin == "pk" {
				continue // the primary key, above
			}
			var keys []sql.NullString
			if err := s.db.Select(&keys, "SELECT name FROM pragma_index_info(?) ORDER BY seqno", ix.Name); err != nil {
				t.Fatal(err)
			}
			var kc []string
			for _, k := range keys {
				if !k.Valid {
					k.String = exprColumn
				}
				kc = append(kc, k.String)
			}
			var where string
			if m := indexWhere.FindStringSubmatch(stripComments(ix.SQL.String)); m != nil {
				where = m[1]
			}
			facts = append(facts, indexFact(tb.Name, ix.Name, ix.Unique, ix.Origin == "u", where, names, kc))
		}

		var fks []struct {
			ID       int            `db:"id"`
			Table    string         `db:"table"`
			From     string         `db:"from"`
			To       sql.NullString `db:"to"`
			OnUpdate string         `db:"on_update"`
			OnDelete string         `db:"on_delete"`
		}
		if err := s.db.Select(&fks, `SELECT id, "table", "from", "to", on_update, on_delete
			FROM pragma_foreign_key_list(?) ORDER BY id, seq`, tb.Name); err != nil {
			t.Fatal(err)
		}
		for i := 0; i < len(fks); {
			j := i
			var from, to []string
			for ; j < len(fks) && fks[j].ID == fks[i].ID; j++ {
				from = append(from, fks[j].From)
				to = append(to, fks[j].To.String)
			}
			facts = append(facts, foreignKeyFact(tb.Name, from, fks[i].Table, to, fks[i].OnDelete, fks[i].OnUpdate))
			i = j
		}
	}

	var triggers []struct {
		Name  string `db:"name"`
		Table string `db:"tbl_name"`
	}
	if err := s.db.Select(&triggers, "SELECT name, tbl_name FROM sqlite_schema WHERE type = 'trigger'"); err != nil {
		t.Fatal(err)
	}
	for _, tr := range triggers {
		facts = append(facts, tr.Table+": trigger "+tr.Name)
	}
	slices.Sort(facts)
	return facts
}

// postgresSchema describes the PostgreSQL database of s (its current
// schema, where the migrations create everything).
func postgresSchema(t *testing.T, s *Store) []string {
	t.Helper()
	var facts []string

	var cols []struct {
		Table     string `db:"tbl"`
		Name      string `db:"col"`
		Type      string `db:"typ"`
		NotNull   bool   `db:"notnull"`
		Generated bool   `db:"generated"`
		Default   string `db:"dflt"`
	}
	if err := s.db.Select(&cols, `SELECT c.relname AS tbl, a.attname AS col,
			format_type(a.atttypid, a.atttypmod) AS typ, a.attnotnull AS notnull,
			a.attidentity <> '' AS generated, COALESCE(pg_get_expr(d.adbin, d.adrelid), '') AS dflt
		FROM pg_attribute a
		JOIN pg_class c ON c.oid = a.attrelid
		JOIN pg_namespace n ON n.oid = c.relnamespace
		LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
		WHERE n.nspname = current_schema() AND c.relkind = 'r' AND a.attnum > 0 AND NOT a.attisdropped
		ORDER BY c.relname, a.attnum`); err != nil {
		t.Fatal(err)
	}
	names := map[string][]string{}
	var tables []string
	for _, c := range cols {
		if _, ok := names[c.Table]; !ok {
			tables = append(tables, c.Table)
		}
		names[c.Table] = append(names[c.Table], c.Name)
		typ, ok := pgTypes[c.Type]
		if !ok {
			typ = "postgres " + c.Type
		}
		facts = append(facts, columnFact(c.Table, c.Name, typ, c.NotNull, pgDefault(c.Default, typ), c.Generated))
	}
	for _, tb := range tables {
		facts = append(facts, "table "+tb, tb+": columns "+strings.Join(names[tb], ", "))
	}

	var indexes []struct {
		Table          string `db:"tbl"`
		Name           string `db:"name"`
		Unique         bool   `db:"uniq"`
		Primary        bool   `db:"prim"`
		Where          string `db:"pred"`
		FromConstraint bool   `db:"from_constraint"`
		Cols           string `db:"cols"`
	}
	if err := s.db.Select(&indexes, `SELECT t.relname AS tbl, i.relname AS name,
			x.indisunique AS uniq, x.indisprimary AS prim, COALESCE(pg_get_expr(x.indpred, x.indrelid), '') AS pred,
			EXISTS (SELECT 1 FROM pg_constraint k WHERE k.conindid = x.indexrelid AND k.contype = 'u') AS from_constraint,
			(SELECT string_agg(CASE WHEN u.k = 0 THEN '`+exprColumn+`'
					ELSE (SELECT a.attname::text FROM pg_attribute a WHERE a.attrelid = t.oid AND a.attnum = u.k) END,
					', ' ORDER BY u.o)
				FROM unnest(x.indkey::int2[]) WITH ORDINALITY AS u(k, o)) AS cols
		FROM pg_index x
		JOIN pg_class i ON i.oid = x.indexrelid
		JOIN pg_class t ON t.oid = x.indrelid
		JOIN pg_namespace n ON n.oid = t.relnamespace
		WHERE n.nspname = current_schema()`); err != nil {
		t.Fatal(err)
	}
	for _, ix := range indexes {
		cols := strings.Split(ix.Cols, ", ")
		if ix.Primary {
			facts = append(facts, ix.Table+": primary key ("+ix.Cols+")")
			continue
		}
		facts = append(facts, indexFact(ix.Table, ix.Name, ix.Unique, ix.FromConstraint, ix.Where, names[ix.Table], cols))
	}

	var cons []struct {
		Table    string `db:"tbl"`
		Type     string `db:"contype"`
		Def      string `db:"def"`
		Cols     string `db:"cols"`
		Ref      string `db:"ref"`
		RefCols  string `db:"refcols"`
		OnDelete string `db:"del"`
		OnUpdate string `db:"upd"`
	}
	if err := s.db.Select(&cons, `SELECT c.conrelid::regclass::text AS tbl, c.contype::text AS contype, pg_get_constraintdef(c.oid) AS def,
			COALESCE((SELECT string_agg(a.attname::text, ', ' ORDER BY u.o)
				FROM unnest(c.conkey) WITH ORDINALITY AS u(k, o)
				JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = u.k), '') AS cols,
			COALESCE(NULLIF(c.confrelid, 0)::regclass::text, '') AS ref,
			COALESCE((SELECT string_agg(a.attname::text, ', ' ORDER BY u.o)
				FROM unnest(c.confkey) WITH ORDINALITY AS u(k, o)
				JOIN pg_attribute a ON a.attrelid = c.confrelid AND a.attnum = u.k), '') AS refcols,
			c.confdeltype::text AS del, c.confupdtype::text AS upd
		FROM pg_constraint c
		JOIN pg_namespace n ON n.oid = c.connamespace
		WHERE n.nspname = current_schema() AND c.contype IN ('c', 'f') AND c.conrelid <> 0`); err != nil {
		t.Fatal(err)
	}
	// PostgreSQL's codes for a foreign key's actions, in SQLite's words.
	actions := map[string]string{"a": "NO ACTION", "r": "RESTRICT", "c": "CASCADE", "n": "SET NULL", "d": "SET DEFAULT"}
	for _, c := range cons {
		cols := strings.Split(c.Cols, ", ")
		switch c.Type {
		case "c":
			facts = append(facts, checkFact(c.Table, c.Def, names[c.Table]))
		case "f":
			facts = append(facts, foreignKeyFact(c.Table, cols, c.Ref, strings.Split(c.RefCols, ", "),
				actions[c.OnDelete], actions[c.OnUpdate]))
		}
	}

	var triggers []struct {
		Table string `db:"tbl"`
		Name  string `db:"name"`
	}
	if err := s.db.Select(&triggers, `SELECT c.relname AS tbl, g.tgname AS name
		FROM pg_trigger g
		JOIN pg_class c ON c.oid = g.tgrelid
		JOIN pg_namespace n ON n.oid = c.relnamespace
		WHERE n.nspname = current_schema() AND NOT g.tgisinternal`); err != nil {
		t.Fatal(err)
	}
	for _, tr := range triggers {
		facts = append(facts, tr.Table+": trigger "+tr.Name)
	}
	slices.Sort(facts)
	return facts
}

// pgCast is the cast PostgreSQL adds to a default it shows ("'en'::text").
var pgCast = regexp.MustCompile(`::[a-z ]+$`)

// pgDefault writes a PostgreSQL column default as SQLite shows it.
func pgDefault(d, typ string) string {
	d = pgCast.ReplaceAllString(d, "")
	if typ == "flag" {
		switch d {
		case "false":
			return "0"
		case "true":
			return "1"
		}
	}
	return d
}

// squash lowercases s and drops its spaces, for comparing short
// expressions written with different spacing.
func squash(s string) string {
	return strings.ToLower(strings.Join(strings.Fields(s), ""))
}

// tableDefs is what SQLite's catalogue keeps only in a table's CREATE
// TABLE text: each column's COLLATE NOCASE and CHECKs, and the table's
// own CHECKs.
type tableDefs struct {
	columns     map[string]columnDefs
	tableChecks []string
}

type columnDefs struct {
	nocase bool
	checks []string
}

// parseCreateTable reads the CREATE TABLE statement SQLite keeps in
// sqlite_schema (where ALTER TABLE ADD COLUMN appends each new column's
// definition). It knows just enough SQL for the migrations: comments,
// quoted strings, and parentheses.
func parseCreateTable(stmt string) (tableDefs, error) {
	stmt = stripComments(stmt)
	open := strings.IndexByte(stmt, '(')
	if open < 0 {
		return tableDefs{}, fmt.Errorf("no column list in %q", stmt)
	}
	body, _, ok := balanced(stmt[open:])
	if !ok {
		return tableDefs{}, fmt.Errorf("unbalanced parentheses in %q", stmt)
	}
	defs := tableDefs{columns: map[string]columnDefs{}}
	for _, part := range splitTopLevel(body) {
		words := strings.Fields(part)
		if len(words) == 0 {
			continue
		}
		switch strings.ToUpper(words[0]) {
		case "CONSTRAINT", "PRIMARY", "UNIQUE", "CHECK", "FOREIGN":
			defs.tableChecks = append(defs.tableChecks, checks(part)...)
		default:
			name := strings.Trim(words[0], "\"`[]")
			defs.columns[name] = columnDefs{
				nocase: regexp.MustCompile(`(?i)\bCOLLATE\s+NOCASE\b`).MatchString(sqlString.ReplaceAllString(part, "''")),
				checks: checks(part),
			}
		}
	}
	return defs, nil
}

// stripComments removes -- and /* */ comments outside quoted strings.
func stripComments(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		switch {
		case s[i] == '\'':
			j := i + 1
			for j < len(s) && (s[j] != '\'' || j+1 < len(s) && s[j+1] == '\'') {
				if s[j] == '\'' {
					j++ // a doubled quote
				}
				j++
			}
			b.WriteString(s[i:min(j+1, len(s))])
			i = j
		case strings.HasPrefix(s[i:], "--"):
			for i < len(s) && s[i] != '\n' {
				i++
			}
			b.WriteByte('\n')
		case strings.HasPrefix(s[i:], "/*"):
			end := strings.Index(s[i+2:], "*/")
			if end < 0 {
				return b.String()
			}
			i += 2 + end + 1
			b.WriteByte(' ')
		default:
			b.WriteByte(s[i])
		}
	}
	return b.String()
}

// balanced returns what is inside the parentheses that s starts with, and
// the rest of s after them.
func balanced(s string) (inside, rest string, ok bool) {
	depth, quoted := 0, false
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '\'':
			quoted = !quoted // a doubled quote toggles twice
		case quoted:
		case c == '(':
			depth++
		case c == ')':
			depth--
			if depth == 0 {
				return s[1:i], s[i+1:], true
			}
		}
	}
	return "", "", false
}

// splitTopLevel splits s at the commas outside parentheses and quotes.
func splitTopLevel(s string) []string {
	var parts []string
	depth, quoted, start := 0, false, 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '\'':
			quoted = !quoted
		case quoted:
		case c == '(':
			depth++
		case c == ')':
			depth--
		case c == ',' && depth == 0:
			parts = append(parts, s[start:i])
			start = i + 1
		}
	}
	return append(parts, s[start:])
}

var (
	checkKeyword = regexp.MustCompile(`(?i)\bCHECK\s*\(`)
	// indexWhere finds a partial index's condition in its CREATE INDEX.
	indexWhere = regexp.MustCompile(`(?is)\bWHERE\b(.*)$`)
)

// checks returns the expressions of the CHECK constraints in the column or
// table constraint definition def.
func checks(def string) []string {
	var out []string
	masked := sqlString.ReplaceAllStringFunc(def, func(q string) string { return strings.Repeat("'", len(q)) })
	for _, loc := range checkKeyword.FindAllStringIndex(masked, -1) {
		open := loc[1] - 1
		if inside, _, ok := balanced(def[open:]); ok {
			out = append(out, inside)
		}
	}
	return out
}

// TestMigrateChatStrictKeepsRows upgrades a SQLite database whose
// chat_messages is still 0005's table, with messages in it, through
// 0014_chat_strict: the table becomes STRICT and keeps every message and
// its id (later ones continue from them).
func TestMigrateChatStrictKeepsRows(t *testing.T) {
	ctx := context.Background()
	s, _ := mustOpen(t)
	if s.dialect.Name != sqliteDialect.Name {
		t.Skip("0014_chat_strict changes nothing on PostgreSQL")
	}
	old, err := migrationFiles.ReadFile("migrations/0005_chat.sql")
	if err != nil {
		t.Fatal(err)
	}
	// Back to the database as 0013 left it: 0005's chat_messages, and no
	// record of 0014.
	for _, q := range []string{
		"DROP TABLE chat_messages",
		string(old),
		"DELETE FROM schema_migrations WHERE version = 14",
		"INSERT INTO users (id, username, password_hash, created_at) VALUES (1, 'ayse', 'x', '2026-01-01T00:00:00.000Z')",
		"INSERT INTO games (id, kind, white_id, start_fen, created_at) VALUES (1, 'private', 1, 'fen', '2026-01-01T00:00:00.000Z')",
		"INSERT INTO chat_messages (id, game_id, user_id, body, created_at) VALUES (5, 1, 1, 'merhaba', '2026-01-01T00:00:01.000Z')",
		"INSERT INTO chat_messages (id, game_id, user_id, body, created_at) VALUES (9, 1, 1, 42, '2026-01-01T00:00:02.000Z')",
	} {
		if _, err := s.db.ExecContext(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	if err := s.migrate(ctx); err != nil {
		t.Fatalf("migrate() = %v", err)
	}
	if err := s.CheckSchema(ctx); err != nil {
		t.Errorf("CheckSchema() = %v", err)
	}
	var strict bool
	if err := s.db.GetContext(ctx, &strict, "SELECT strict FROM pragma_table_list WHERE name = 'chat_messages'"); err != nil || !strict {
		t.Errorf("chat_messages strict = %v, %v; want true", strict, err)
	}
	var rows []string
	if err := s.db.SelectContext(ctx, &rows, "SELECT id || ' ' || body || ' ' || typeof(body) FROM chat_messages ORDER BY id"); err != nil {
		t.Fatal(err)
	}
	if want := []string{"5 merhaba text", "9 42 text"}; !slices.Equal(rows, want) {
		t.Errorf("chat_messages = %q, want %q", rows, want)
	}
	if _, err := s.db.ExecContext(ctx, "INSERT INTO chat_messages (game_id, user_id, body, created_at) VALUES (1, 1, 'x', 'y')"); err != nil {
		t.Fatal(err)
	}
	var last int
	if err := s.db.GetContext(ctx, &last, "SELECT MAX(id) FROM chat_messages"); err != nil || last != 10 {
		t.Errorf("next id = %d, %v; want 10", last, err)
	}
	if _, err := s.db.ExecContext(ctx, "INSERT INTO chat_messages (game_id, user_id, body, created_at) VALUES ('one', 1, 'x', 'y')"); err == nil {
		t.Error("a text game_id was accepted, want the STRICT table to refuse it")
	}
}
