package account

import (
	"strings"
	"testing"

	"satranc/engine/chess"
)

// TestBotNames: the bots' names are valid user names, different from each
// other in any case, so a bot's name looks like a player's.
func TestBotNames(t *testing.T) {
	seen := map[string]bool{}
	for _, n := range BotNames {
		if err := ValidateUsername(n); err != nil {
			t.Errorf("bot name %q: %v", n, err)
		}
		if seen[strings.ToLower(n)] {
			t.Errorf("bot name %q twice", n)
		}
		seen[strings.ToLower(n)] = true
		if !IsBotName(strings.ToUpper(n)) {
			t.Errorf("IsBotName(%q) = false", strings.ToUpper(n))
		}
	}
	if IsBotName("burak3") || IsBotName("ayse") {
		t.Error("IsBotName of a player's name")
	}
}

func TestPublicBotName(t *testing.T) {
	if a, b := PublicBotName(42, chess.White), PublicBotName(42, chess.White); a != b {
		t.Errorf("PublicBotName(42, white) = %q, then %q", a, b)
	}
	seen := map[string]bool{}
	for id := int64(1); id <= 50; id++ {
		seen[PublicBotName(id, chess.Black)] = true
	}
	if len(seen) < 10 {
		t.Errorf("50 games use only %d bot names", len(seen))
	}
}
