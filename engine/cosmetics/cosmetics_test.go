package cosmetics

import (
	"context"
	"errors"
	"regexp"
	"strings"
	"testing"
)

// idForm is the form of an item's ID, which the tournaments' prize table
// also checks (engine/tourney).
var idForm = regexp.MustCompile(`^[a-z0-9_]{1,40}$`)

func TestCatalogue(t *testing.T) {
	seen := map[string]bool{}
	for _, it := range Catalogue {
		if seen[it.ID] {
			t.Errorf("item %q listed twice", it.ID)
		}
		seen[it.ID] = true
		if !strings.HasPrefix(it.ID, it.Kind.String()+"_") || !idForm.MatchString(it.ID) {
			t.Errorf("item %q does not start with its kind %q", it.ID, it.Kind)
		}
	}
	// SPEC section 9 and issue 7: at least three board themes, two piece
	// sets and a few frames; each kind's default is standard.
	for _, tc := range []struct {
		kind Kind
		min  int
	}{{BoardTheme, 3}, {PieceSet, 2}, {Frame, 3}} {
		items := ItemsOf(tc.kind)
		if len(items) < tc.min {
			t.Errorf("%s: %d items, want at least %d", tc.kind, len(items), tc.min)
		}
		if !items[0].Standard || Default(tc.kind) != items[0].ID {
			t.Errorf("%s: default %q is not the first, standard item", tc.kind, Default(tc.kind))
		}
	}
}

func TestOwns(t *testing.T) {
	inv := Inventory{Granted: []string{"frame_cup_gold", "no-such-item"}}
	for _, tc := range []struct {
		id   string
		want bool
	}{
		{"board_classic", true},     // standard
		{"pieces_flat", true},       // standard
		{"pieces_standard", true},   // the default before pieces_sultan
		{"frame_cup_gold", true},    // granted
		{"frame_cup_silver", false}, // not granted
		{"board_iznik", false},
		{"no-such-item", false}, // granted once, but not in the catalogue
		{"", false},
	} {
		if got := inv.Owns(tc.id); got != tc.want {
			t.Errorf("Owns(%q) = %v, want %v", tc.id, got, tc.want)
		}
	}
}

func TestCheck(t *testing.T) {
	inv := Inventory{Granted: []string{"board_iznik"}}
	for _, tc := range []struct {
		name string
		look Look
		want error
	}{
		{"default", DefaultLook(), nil},
		{"granted theme", Look{Board: "board_iznik", Pieces: "pieces_flat", Frame: "frame_none"}, nil},
		{"frame not owned", Look{Board: "board_sea", Pieces: "pieces_flat", Frame: "frame_cup_gold"}, ErrNotOwned},
		{"unknown theme", Look{Board: "board_pink", Pieces: "pieces_flat", Frame: "frame_none"}, ErrUnknownItem},
		{"frame as theme", Look{Board: "frame_none", Pieces: "pieces_flat", Frame: "frame_none"}, ErrUnknownItem},
		{"missing set", Look{Board: "board_sea", Frame: "frame_none"}, ErrUnknownItem},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if err := tc.look.Check(inv); !errors.Is(err, tc.want) || (tc.want == nil) != (err == nil) {
				t.Errorf("Check(%+v) = %v, want %v", tc.look, err, tc.want)
			}
		})
	}
}

func TestNormal(t *testing.T) {
	got := Look{Board: "board_sea", Pieces: "gone", Frame: "board_walnut"}.Normal()
	want := Look{Board: "board_sea", Pieces: "pieces_sultan", Frame: "frame_none"}
	if got != want {
		t.Errorf("Normal() = %+v, want %+v", got, want)
	}
	if got := (Look{}).Normal(); got != DefaultLook() {
		t.Errorf("Look{}.Normal() = %+v, want the default look", got)
	}
}

// fakeStore keeps one inventory and records saved looks.
type fakeStore struct {
	inv   Inventory
	saved []Look
}

func (f *fakeStore) Inventory(context.Context, int64) (Inventory, error) { return f.inv, nil }

func (f *fakeStore) SaveLook(_ context.Context, _ int64, l Look) error {
	f.saved = append(f.saved, l)
	return nil
}

func TestChooseSavesOnlyOwnedLooks(t *testing.T) {
	st := &fakeStore{inv: Inventory{Granted: []string{"frame_league_bronze"}}}
	svc := NewService(st)
	ok := Look{Board: "board_walnut", Pieces: "pieces_flat", Frame: "frame_league_bronze"}
	if err := svc.Choose(context.Background(), 1, ok); err != nil {
		t.Fatalf("Choose(%+v) = %v", ok, err)
	}
	bad := Look{Board: "board_iznik", Pieces: "pieces_flat", Frame: "frame_league_bronze"}
	if err := svc.Choose(context.Background(), 1, bad); !errors.Is(err, ErrNotOwned) {
		t.Fatalf("Choose(%+v) = %v, want ErrNotOwned", bad, err)
	}
	if len(st.saved) != 1 || st.saved[0] != ok {
		t.Errorf("saved %+v, want only %+v", st.saved, ok)
	}
}
