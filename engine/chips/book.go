package chips

import "fmt"

// Book is an in-memory ledger: balances per account, changed only by
// applying entries, all or nothing. The store keeps the same rule in
// SQLite; Book is the model the property test checks it against.
type Book struct {
	bal map[Account]int64
}

// NewBook returns an empty book.
func NewBook() *Book { return &Book{bal: make(map[Account]int64)} }

// Balance returns a's balance.
func (b *Book) Balance(a Account) int64 { return b.bal[a] }

// Apply applies es in order, or none of them: an entry with a non-positive
// amount or from a user or escrow account without the chips is an error
// wrapping ErrInvalid or ErrInsufficientBalance, and the book is unchanged.
func (b *Book) Apply(es []Entry) error {
	next := make(map[Account]int64, 2*len(es))
	get := func(a Account) int64 {
		if v, ok := next[a]; ok {
			return v
		}
		return b.bal[a]
	}
	for _, e := range es {
		if err := e.Check(); err != nil {
			return err
		}
		from := get(e.From) - e.Amount
		if from < 0 && !e.From.Kind.MayGoNegative() {
			return fmt.Errorf("%w: %s has %d, %s needs %d", ErrInsufficientBalance, e.From, get(e.From), e.Reason, e.Amount)
		}
		next[e.From] = from
		next[e.To] = get(e.To) + e.Amount
	}
	for a, v := range next {
		if v == 0 {
			delete(b.bal, a) // a settled game's escrow leaves no trace
			continue
		}
		b.bal[a] = v
	}
	return nil
}

// Check reports a malformed entry: a non-positive amount, an unknown
// account kind or an entry from an account to itself.
func (e Entry) Check() error {
	switch {
	case e.Amount <= 0:
		return fmt.Errorf("%w: entry of %d chips", ErrInvalid, e.Amount)
	case e.From == e.To:
		return fmt.Errorf("%w: entry from %s to itself", ErrInvalid, e.From)
	case e.From.Kind < User || e.From.Kind > Issued || e.To.Kind < User || e.To.Kind > Issued:
		return fmt.Errorf("%w: entry between %s and %s", ErrInvalid, e.From, e.To)
	case e.Reason == "":
		return fmt.Errorf("%w: entry without a reason", ErrInvalid)
	}
	return nil
}

// Totals sums the book by kind: Users, Escrow, House, Sink, and Issued (the
// total ever issued, a positive number). Conservation means
// Users + Escrow + House + Sink == Issued.
func (b *Book) Totals() (t Totals) {
	for a, v := range b.bal {
		switch a.Kind {
		case User:
			t.Users += v
		case Escrow:
			t.Escrow += v
		case House:
			t.House += v
		case Sink:
			t.Sink += v
		case Issued:
			t.Issued -= v
		}
	}
	return t
}

// Totals are a book's balances summed by kind; see Book.Totals.
type Totals struct {
	Users, Escrow, House, Sink, Issued int64
}

// Conserved reports whether no chip was created or lost.
func (t Totals) Conserved() bool { return t.Users+t.Escrow+t.House+t.Sink == t.Issued }
