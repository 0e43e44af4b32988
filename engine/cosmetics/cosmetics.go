package cosmetics

import (
	"errors"
	"fmt"
	"slices"
)

// Errors of choosing and granting items.
var (
	// ErrUnknownItem is an item ID the catalogue lacks, or one of another
	// kind than the place it was given for.
	ErrUnknownItem = errors.New("cosmetics: unknown item")
	// ErrNotOwned is a choice of an item the account does not own.
	ErrNotOwned = errors.New("cosmetics: item not owned")
)

// Kind is what an item changes.
type Kind int

// The kinds of items.
const (
	BoardTheme Kind = iota // colours of the squares and highlights
	PieceSet               // the pieces' images
	Frame                  // the decoration around a member's name
)

// String returns the kind's name as IDs and forms use it: "board",
// "pieces" or "frame".
func (k Kind) String() string {
	switch k {
	case BoardTheme:
		return "board"
	case PieceSet:
		return "pieces"
	case Frame:
		return "frame"
	}
	return fmt.Sprintf("Kind(%d)", int(k))
}

// Kinds lists every kind in the order pages show them.
var Kinds = []Kind{BoardTheme, PieceSet, Frame}

// Item is one cosmetic item. Its ID ("board_walnut") is what the store and
// the tournaments' prize table keep; it starts with the kind's name and an
// underscore, and holds only lower-case letters, digits and underscores.
type Item struct {
	ID   string
	Kind Kind
	// Standard items are owned by every account; the others must be
	// granted.
	Standard bool
}

// Catalogue lists every item, each kind's default first. IDs are stored in
// the database: an item may be added, but never renamed or removed. The
// frame_cup_* and frame_league_* frames are the default prizes of the Daily
// Chess Cup and the Weekly Chess League (engine/tourney.DefaultPrizes);
// board_iznik is given by administrators.
//
// pieces_sultan, the set of the world's source guides (the King as the
// palace Sultan, the Rook as an Ottoman fortress, the Pawn as a
// janissary), took the default's place from pieces_standard. The store
// keeps an empty piece_set for a member who never chose a set, so those
// members wear the new default with no migration; a member who saved
// pieces_standard keeps it.
var Catalogue = []Item{
	{ID: "board_classic", Kind: BoardTheme, Standard: true},
	{ID: "board_walnut", Kind: BoardTheme, Standard: true},
	{ID: "board_sea", Kind: BoardTheme, Standard: true},
	{ID: "board_iznik", Kind: BoardTheme},
	{ID: "pieces_sultan", Kind: PieceSet, Standard: true},
	{ID: "pieces_standard", Kind: PieceSet, Standard: true},
	{ID: "pieces_flat", Kind: PieceSet, Standard: true},
	{ID: "frame_none", Kind: Frame, Standard: true},
	{ID: "frame_cup_bronze", Kind: Frame},
	{ID: "frame_cup_silver", Kind: Frame},
	{ID: "frame_cup_gold", Kind: Frame},
	{ID: "frame_league_bronze", Kind: Frame},
	{ID: "frame_league_silver", Kind: Frame},
	{ID: "frame_league_gold", Kind: Frame},
}

// Lookup returns the item with the given ID; ok is false if there is none.
func Lookup(id string) (it Item, ok bool) {
	i := slices.IndexFunc(Catalogue, func(it Item) bool { return it.ID == id })
	if i < 0 {
		return Item{}, false
	}
	return Catalogue[i], true
}

// ItemsOf returns the catalogue's items of kind k, the default first.
func ItemsOf(k Kind) []Item {
	var out []Item
	for _, it := range Catalogue {
		if it.Kind == k {
			out = append(out, it)
		}
	}
	return out
}

// Givable returns the items that are not standard, which prizes and
// administrators give.
func Givable() []Item {
	var out []Item
	for _, it := range Catalogue {
		if !it.Standard {
			out = append(out, it)
		}
	}
	return out
}

// Default returns the ID of kind k's default item, which every account
// owns and wears until it chooses another: the catalogue's first of kind
// k. It allocates nothing, since every render asks (Look.Normal).
func Default(k Kind) string {
	for _, it := range Catalogue {
		if it.Kind == k {
			return it.ID
		}
	}
	panic(fmt.Sprintf("cosmetics: no item of kind %d", k))
}

// Inventory is what one account owns besides the standard items.
type Inventory struct {
	// Granted are the IDs of the items granted to the account.
	Granted []string
}

// Owns reports whether the account owns the item id: a standard item, or
// one granted to it.
func (inv Inventory) Owns(id string) bool {
	it, ok := Lookup(id)
	if !ok {
		return false
	}
	return it.Standard || slices.Contains(inv.Granted, id)
}

// Look is what a member chose to wear: one item of each kind, by ID.
type Look struct {
	Board  string // a BoardTheme
	Pieces string // a PieceSet
	Frame  string // a Frame
}

// DefaultLook is the look of guests and of members who chose nothing.
func DefaultLook() Look {
	return Look{Board: Default(BoardTheme), Pieces: Default(PieceSet), Frame: Default(Frame)}
}

// Get returns the look's item of kind k.
func (l Look) Get(k Kind) string {
	switch k {
	case PieceSet:
		return l.Pieces
	case Frame:
		return l.Frame
	}
	return l.Board
}

// set returns l with id as its item of kind k.
func (l Look) set(k Kind, id string) Look {
	switch k {
	case PieceSet:
		l.Pieces = id
	case Frame:
		l.Frame = id
	default:
		l.Board = id
	}
	return l
}

// Normal returns l with every item that is missing, unknown or of the
// wrong kind replaced by its kind's default, so that a stored look always
// renders.
func (l Look) Normal() Look {
	for _, k := range Kinds {
		if it, ok := Lookup(l.Get(k)); !ok || it.Kind != k {
			l = l.set(k, Default(k))
		}
	}
	return l
}

// Check reports whether an account with inventory inv may wear l: every
// item must exist, be of its place's kind (ErrUnknownItem) and be owned
// (ErrNotOwned).
func (l Look) Check(inv Inventory) error {
	for _, k := range Kinds {
		id := l.Get(k)
		it, ok := Lookup(id)
		if !ok || it.Kind != k {
			return fmt.Errorf("%w: %s %q", ErrUnknownItem, k, id)
		}
		if !inv.Owns(id) {
			return fmt.Errorf("%w: %q", ErrNotOwned, id)
		}
	}
	return nil
}
