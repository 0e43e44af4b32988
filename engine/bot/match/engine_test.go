package match

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestParseSpinOption(t *testing.T) {
	for _, c := range []struct {
		line string
		name string
		r    spinRange
		ok   bool
	}{
		{"option name UCI_Elo type spin default 1350 min 1350 max 2850", "UCI_Elo", spinRange{1350, 2850}, true},
		{"option name Skill Level type spin default 20 min 0 max 20", "Skill Level", spinRange{0, 20}, true},
		{"option name Ponder type check default false", "", spinRange{}, false},
		{"option name Hash type spin default 16 min 1", "", spinRange{}, false},
		{"id name Stockfish 15.1", "", spinRange{}, false},
	} {
		name, r, ok := parseSpinOption(c.line)
		if ok != c.ok || (ok && (name != c.name || r != c.r)) {
			t.Errorf("parseSpinOption(%q) = %q, %v, %v; want %q, %v, %v", c.line, name, r, ok, c.name, c.r, c.ok)
		}
	}
}

// TestStartUCIRefusesOutOfRange: a value outside the range the engine
// offers for an option is refused, with the range, instead of being sent
// for the engine to ignore; a value inside it is set.
func TestStartUCIRefusesOutOfRange(t *testing.T) {
	engine := filepath.Join(t.TempDir(), "fish")
	const script = `#!/bin/sh
while read -r line; do
  case "$line" in
    uci) echo "id name Fish"
         echo "option name Skill Level type spin default 20 min 0 max 20"
         echo "option name UCI_Elo type spin default 1350 min 1350 max 2850"
         echo "option name UCI_LimitStrength type check default false"
         echo uciok ;;
    isready) echo readyok ;;
    quit) exit 0 ;;
  esac
done
`
	if err := os.WriteFile(engine, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	_, err := StartUCI(ctx, engine, nil, map[string]string{"UCI_LimitStrength": "true", "UCI_Elo": "1320"})
	if !errors.Is(err, ErrEngine) || !strings.Contains(err.Error(), "UCI_Elo from 1350 to 2850, not 1320") {
		t.Errorf("UCI_Elo 1320 on an engine that offers 1350 to 2850: %v", err)
	}
	e, err := StartUCI(ctx, engine, nil, map[string]string{"UCI_LimitStrength": "true", "UCI_Elo": "1350", "Skill Level": "3"})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	if e.Name() != "fish-1350" {
		t.Errorf("name %q, want fish-1350", e.Name())
	}
}
