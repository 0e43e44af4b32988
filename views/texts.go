package views

import (
	"bytes"
	"context"
	"io"
	"sync"

	"github.com/a-h/templ"
	"github.com/nicksnyder/go-i18n/v2/i18n"

	"satranc/engine/chess"
)

// Texts keeps, for one Localizer, what renders the same every time: the
// plain messages and the board's squares. A game's event streams render
// the panel after every move, hundreds of times a second under load, and
// translating a message (go-i18n matches the language on every call) and
// drawing 64 squares were most of that work. The handlers make one Texts
// per language for the life of the server; a Locale without one (a test,
// a component rendered outside a request) translates and draws afresh.
//
// Both memos are bounded: the messages by the locale files (a missing
// message is not kept), the squares by what a square can show (its piece,
// the last move's and the check's marks, its coordinates, the piece set),
// a few thousand entries of a few hundred bytes at most.
type Texts struct {
	loc *i18n.Localizer

	mu      sync.RWMutex
	msgs    map[string]string
	squares map[squareKey][]byte
	pickers map[pickerKey][]byte
}

// squareKey is what boardSquare's markup depends on besides the language.
type squareKey struct {
	sq     SquareView
	pieces string
}

// pickerKey is what promotionPicker's markup depends on besides the
// language.
type pickerKey struct {
	side   chess.Color
	pieces string
}

// NewTexts returns an empty memo of loc's messages and squares.
func NewTexts(loc *i18n.Localizer) *Texts {
	return &Texts{loc: loc, msgs: make(map[string]string), squares: make(map[squareKey][]byte), pickers: make(map[pickerKey][]byte)}
}

// text returns the plain message id, translating it the first time.
func (t *Texts) text(id string) (string, bool) {
	t.mu.RLock()
	s, ok := t.msgs[id]
	t.mu.RUnlock()
	if ok {
		return s, true
	}
	s, err := t.loc.Localize(&i18n.LocalizeConfig{MessageID: id})
	if err != nil {
		return "", false
	}
	t.mu.Lock()
	t.msgs[id] = s
	t.mu.Unlock()
	return s, true
}

// boardSquares draws the rows of a BoardView in screen order, each copied from
// the Locale's Texts once it has been drawn there.
func boardSquares(rows *[8][8]SquareView, pieces string) templ.Component {
	return templ.ComponentFunc(func(ctx context.Context, w io.Writer) error {
		t := LocaleFrom(ctx).Texts
		for _, row := range rows {
			for _, sq := range row {
				if t == nil {
					if err := boardSquare(sq, pieces).Render(ctx, w); err != nil {
						return err
					}
					continue
				}
				key := squareKey{sq: sq, pieces: pieces}
				if err := copyDrawn(ctx, w, &t.mu, t.squares, key, func() templ.Component { return boardSquare(sq, pieces) }); err != nil {
					return err
				}
			}
		}
		return nil
	})
}

// promotionPickerOnce is promotionPicker, drawn once per Texts.
func promotionPickerOnce(side chess.Color, pieces string) templ.Component {
	return templ.ComponentFunc(func(ctx context.Context, w io.Writer) error {
		t := LocaleFrom(ctx).Texts
		if t == nil {
			return promotionPicker(side, pieces).Render(ctx, w)
		}
		key := pickerKey{side: side, pieces: pieces}
		return copyDrawn(ctx, w, &t.mu, t.pickers, key, func() templ.Component { return promotionPicker(side, pieces) })
	})
}

// copyDrawn writes the markup kept in m under key, drawing it with the
// component from draw (called only then) the first time.
func copyDrawn[K comparable](ctx context.Context, w io.Writer, mu *sync.RWMutex, m map[K][]byte, key K, draw func() templ.Component) error {
	mu.RLock()
	html, ok := m[key]
	mu.RUnlock()
	if !ok {
		var buf bytes.Buffer
		if err := draw().Render(ctx, &buf); err != nil {
			return err
		}
		html = buf.Bytes()
		mu.Lock()
		m[key] = html
		mu.Unlock()
	}
	_, err := w.Write(html)
	return err
}
