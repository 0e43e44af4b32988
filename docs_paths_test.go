package main

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// docFiles are the documents whose paths TestDocumentedPathsExist checks.
func docFiles(t *testing.T) []string {
	t.Helper()
	docs, err := filepath.Glob("docs/*.md")
	if err != nil {
		t.Fatal(err)
	}
	return append([]string{"README.md"}, docs...)
}

// codePath matches a path in backquotes that names the project's own
// files: one of the top-level folders, or a Go file at the top level.
var codePath = regexp.MustCompile("`((?:engine|store|handlers|views|static|locales|docs|\\.ci)/[^` ]*|[a-z_*]+\\.go)`")

// layoutEntry matches a line of the README's Layout tree: its name (with
// the indentation that places it), before the description.
var layoutEntry = regexp.MustCompile(`^( *)([a-z_.*,/ ()-]+?)(?:\s{2,}|$)`)

// TestDocumentedPathsExist: every file or folder the README and docs/
// name in backquotes, and every entry of the README's Layout tree, exists,
// so that the docs cannot go on describing code that moved or went away.
func TestDocumentedPathsExist(t *testing.T) {
	for _, doc := range docFiles(t) {
		text, err := os.ReadFile(doc)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range codePath.FindAllStringSubmatch(string(text), -1) {
			if !pathExists(m[1]) {
				t.Errorf("%s names %s, which does not exist", doc, m[1])
			}
		}
	}
	paths := layoutPaths(t)
	for _, p := range paths {
		if !pathExists(p) {
			t.Errorf("README.md's Layout lists %s, which does not exist", p)
		}
	}
	// And the other way round: every package of engine/ is in the tree.
	engine, err := filepath.Glob("engine/*")
	if err != nil {
		t.Fatal(err)
	}
	for _, dir := range engine {
		if info, err := os.Stat(dir); err != nil || !info.IsDir() {
			continue
		}
		if !slices.Contains(paths, dir+"/") {
			t.Errorf("README.md's Layout leaves out %s/", dir)
		}
	}
}

// layoutPaths returns the paths of the README's Layout tree: top-level
// entries at the start of a line, their folders indented by two spaces,
// and a parenthesised list of further folders.
func layoutPaths(t *testing.T) []string {
	t.Helper()
	text, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, after, ok := strings.Cut(string(text), "\n## Layout\n")
	if !ok {
		t.Fatal("README.md has no Layout section")
	}
	_, block, _ := strings.Cut(after, "```\n")
	block, _, _ = strings.Cut(block, "```")
	var paths []string
	top := ""
	for _, line := range strings.Split(block, "\n") {
		m := layoutEntry.FindStringSubmatch(line)
		if m == nil || strings.TrimSpace(m[2]) == "" {
			continue
		}
		indent, names := len(m[1]), strings.TrimSpace(m[2])
		switch {
		case indent == 0:
			top = ""
			for _, name := range strings.Split(names, ",") {
				name = strings.TrimSpace(name)
				paths = append(paths, name)
				if strings.HasSuffix(name, "/") {
					top = name
				}
			}
		case indent == 2 && top != "":
			for _, name := range strings.Fields(strings.Trim(names, "()")) {
				paths = append(paths, top+name)
			}
		}
	}
	if len(paths) < 8 {
		t.Fatalf("read only %d entries from README.md's Layout: %q", len(paths), paths)
	}
	return paths
}

// pathExists reports whether p names something in the project: a file or
// folder (a bare file name anywhere in the tree, as docs name a package's
// files once they have said which package), a glob pattern that matches one, a pattern with a placeholder
// such as NNNN, a choice such as active.{en,tr}.toml, or a Go name inside
// a package (engine/tourney.DefaultPrizes).
func pathExists(p string) bool {
	p = strings.ReplaceAll(p, "NNNN_name", "*")
	if !strings.Contains(p, "/") {
		return fileNamed(p)
	}
	if i, j := strings.Index(p, "{"), strings.Index(p, "}"); i >= 0 && j > i {
		for _, alt := range strings.Split(p[i+1:j], ",") {
			if !pathExists(p[:i] + alt + p[j+1:]) {
				return false
			}
		}
		return true
	}
	if matches, _ := filepath.Glob(strings.TrimSuffix(p, "/")); len(matches) > 0 {
		return true
	}
	if i := strings.LastIndex(p, "."); i > 0 && i+1 < len(p) && p[i+1] >= 'A' && p[i+1] <= 'Z' {
		return pathExists(p[:i])
	}
	return false
}

// fileNamed reports whether a file called name (or matching the pattern)
// is somewhere in the project.
func fileNamed(name string) bool {
	found := false
	_ = filepath.WalkDir(".", func(path string, d os.DirEntry, err error) error {
		if err != nil || found {
			return filepath.SkipDir
		}
		if ok, _ := filepath.Match(name, d.Name()); ok && !d.IsDir() {
			found = true
		}
		return nil
	})
	return found
}
