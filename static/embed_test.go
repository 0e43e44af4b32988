package static

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"strings"
	"testing"
)

// TestPiecesPresent checks that every piece set (the standard one in
// img/pieces, the others in folders below it) has its twelve pieces and
// its licence next to them.
func TestPiecesPresent(t *testing.T) {
	for _, dir := range []string{"img/pieces/", "img/pieces/flat/", "img/pieces/sultan/"} {
		if b, err := FS.ReadFile(dir + "LICENSE.txt"); err != nil || !strings.Contains(string(b), "CC0") {
			t.Errorf("%sLICENSE.txt: %v, or no licence named", dir, err)
		}
		checkPieces(t, dir)
	}
}

func checkPieces(t *testing.T, dir string) {
	t.Helper()
	for _, c := range "wb" {
		for _, p := range "KQRBNP" {
			name := dir + string(c) + string(p) + ".svg"
			b, err := FS.ReadFile(name)
			if err != nil {
				t.Errorf("%s: %v", name, err)
				continue
			}
			if !strings.HasPrefix(string(b), "<svg ") || !strings.Contains(string(b), `viewBox="0 0 45 45"`) {
				t.Errorf("%s does not look like a 45x45 SVG", name)
			}
		}
	}
}

// TestVendoredChecksums checks the vendored scripts against SHA256SUMS, so
// an accidental edit or a partial update is caught.
func TestVendoredChecksums(t *testing.T) {
	f, err := os.Open("js/SHA256SUMS")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	n := 0
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		sum, name, ok := strings.Cut(sc.Text(), "  ")
		if !ok {
			t.Fatalf("bad SHA256SUMS line %q", sc.Text())
		}
		b, err := FS.ReadFile("js/" + name)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		got := sha256.Sum256(b)
		if hex.EncodeToString(got[:]) != sum {
			t.Errorf("sha256(%s) = %x, SHA256SUMS says %s", name, got, sum)
		}
		n++
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if n != 2 {
		t.Errorf("SHA256SUMS lists %d files, want 2 (htmx and its SSE extension)", n)
	}
}

func TestURL(t *testing.T) {
	u := URL("css/app.css")
	v := Version("css/app.css")
	if len(v) != 12 || u != "/static/css/app.css?v="+v {
		t.Errorf("URL(css/app.css) = %q, Version = %q", u, v)
	}
	if got := URL("nope.css"); got != "/static/nope.css" {
		t.Errorf("URL(nope.css) = %q, want /static/nope.css", got)
	}
	if Version("nope.css") != "" {
		t.Errorf("Version(nope.css) is not empty")
	}
}
