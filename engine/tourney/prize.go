package tourney

import (
	"encoding/json"
	"fmt"
	"io"

	"satranc/engine/cosmetics"
)

// Prize is what one place wins: virtual chips, a cosmetic item, or both
// (SPEC section 7: prizes are chips and cosmetic items only). Item is the
// ID of an item of cosmetics.Catalogue that must be won (not a standard
// one); "" for none.
type Prize struct {
	Chips int64
	Item  string
}

// IsZero reports whether p gives nothing.
func (p Prize) IsZero() bool { return p.Chips == 0 && p.Item == "" }

// Prizes is the prize table: for each tournament, the prizes of places 1,
// 2, 3 ... in order.
type Prizes struct {
	Daily, Weekly []Prize
}

// For returns the prizes of kind k, first place first.
func (ps Prizes) For(k Kind) []Prize {
	if k == Weekly {
		return ps.Weekly
	}
	return ps.Daily
}

// DefaultPrizes is the prize table unless the operator gives one (SPEC
// section 7 names no amounts). The chips are in proportion to the lounges'
// stakes: a day's winner gets what twenty Kahvehane pots are worth, a
// week's five times that. The items are the tournaments' own profile
// frames.
func DefaultPrizes() Prizes {
	return Prizes{
		Daily: []Prize{
			{Chips: 10_000, Item: "frame_cup_gold"},
			{Chips: 5_000, Item: "frame_cup_silver"},
			{Chips: 2_500, Item: "frame_cup_bronze"},
		},
		Weekly: []Prize{
			{Chips: 50_000, Item: "frame_league_gold"},
			{Chips: 25_000, Item: "frame_league_silver"},
			{Chips: 10_000, Item: "frame_league_bronze"},
			{Chips: 5_000},
			{Chips: 2_500},
		},
	}
}

// maxPlaces and maxChips bound a prize table read from a file, so that a
// typing error cannot issue absurd amounts.
const (
	maxPlaces = 100
	maxChips  = 1_000_000_000
)

// prizeFile is the JSON form of a prize table:
//
//	{"daily":  [{"chips": 10000, "item": "frame_cup_gold"}, {"chips": 5000}],
//	 "weekly": [{"chips": 50000}]}
type prizeFile struct {
	Daily  []prizeEntry `json:"daily"`
	Weekly []prizeEntry `json:"weekly"`
}

type prizeEntry struct {
	Chips int64  `json:"chips"`
	Item  string `json:"item"`
}

// ParsePrizes reads a prize table in JSON (see prizeFile). Unknown fields,
// negative or huge amounts, items that are not in the cosmetics catalogue
// or that everyone owns, and places that give nothing are errors wrapping
// ErrInvalid.
func ParsePrizes(r io.Reader) (Prizes, error) {
	dec := json.NewDecoder(r)
	dec.DisallowUnknownFields()
	var f prizeFile
	if err := dec.Decode(&f); err != nil {
		return Prizes{}, fmt.Errorf("%w: prize table: %w", ErrInvalid, err)
	}
	var ps Prizes
	var err error
	if ps.Daily, err = checkPrizes(Daily, f.Daily); err != nil {
		return Prizes{}, err
	}
	if ps.Weekly, err = checkPrizes(Weekly, f.Weekly); err != nil {
		return Prizes{}, err
	}
	return ps, nil
}

func checkPrizes(k Kind, es []prizeEntry) ([]Prize, error) {
	if len(es) > maxPlaces {
		return nil, fmt.Errorf("%w: prize table: %s has %d places, at most %d", ErrInvalid, k, len(es), maxPlaces)
	}
	out := make([]Prize, len(es))
	for i, e := range es {
		p := Prize(e)
		switch {
		case p.Chips < 0 || p.Chips > maxChips:
			return nil, fmt.Errorf("%w: prize table: %s place %d: %d chips", ErrInvalid, k, i+1, p.Chips)
		case p.Item != "" && !winnable(p.Item):
			return nil, fmt.Errorf("%w: prize table: %s place %d: item %q is no cosmetic item that can be won", ErrInvalid, k, i+1, p.Item)
		case p.IsZero():
			return nil, fmt.Errorf("%w: prize table: %s place %d gives nothing", ErrInvalid, k, i+1)
		}
		out[i] = p
	}
	return out, nil
}

// winnable reports whether item is a catalogue item that is not standard.
func winnable(item string) bool {
	it, ok := cosmetics.Lookup(item)
	return ok && !it.Standard
}

// Award is a prize won: User finished at Place (in Period's standings).
type Award struct {
	Place int
	User  int64
	Prize Prize
}

// Awards returns the prizes won by the players of ranked (as Rank leaves
// them): each player whose place has a prize in table gets it, so players
// who share a place each get that place's prize.
func Awards(ranked []Standing, table []Prize) []Award {
	var out []Award
	for _, s := range ranked {
		if s.Rank < 1 || s.Rank > len(table) {
			continue
		}
		out = append(out, Award{Place: s.Rank, User: s.User, Prize: table[s.Rank-1]})
	}
	return out
}
