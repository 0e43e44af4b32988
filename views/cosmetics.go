package views

import (
	"context"
	"strings"

	"satranc/engine/account"
	"satranc/engine/cosmetics"
	"satranc/static"
)

// LookOf returns the look of the member in ctx (the board theme, piece set
// and frame they chose), or the default look for a guest. Every board a
// member sees wears their look; it changes how the board is drawn and
// nothing else (SPEC section 9).
func LookOf(ctx context.Context) cosmetics.Look {
	if u, ok := CurrentUser(ctx); ok {
		return u.Look.Normal()
	}
	return cosmetics.DefaultLook()
}

// ThemeClass returns the CSS class of the board theme id ("theme-walnut"),
// which sets the board's colour variables (static/css/app.css).
func ThemeClass(id string) string {
	return "theme-" + strings.TrimPrefix(id, "board_")
}

// pieceDirs maps each piece set to its folder under static/.
var pieceDirs = map[string]string{
	"pieces_sultan":   "img/pieces/sultan/",
	"pieces_standard": "img/pieces/",
	"pieces_flat":     "img/pieces/flat/",
}

// PieceSet returns the piece set of ctx's viewer: their choice, or the
// default when it is unset or unknown.
func PieceSet(ctx context.Context) string {
	set := LookOf(ctx).Pieces
	if _, ok := pieceDirs[set]; !ok {
		set = cosmetics.Default(cosmetics.PieceSet)
	}
	return set
}

// PieceURL returns the URL of the image of piece code ("wK", "bN") in the
// piece set; an unknown set draws the default set's pieces.
func PieceURL(set, code string) string {
	dir, ok := pieceDirs[set]
	if !ok {
		dir = pieceDirs[cosmetics.Default(cosmetics.PieceSet)]
	}
	return static.URL(dir + code + ".svg")
}

// FrameClass returns the CSS classes that draw the frame id around a name
// ("frame frame-cup-gold" for frame_cup_gold), or "" for no frame.
func FrameClass(id string) string {
	if id == "" || id == cosmetics.Default(cosmetics.Frame) {
		return ""
	}
	return "frame " + strings.ReplaceAll(id, "_", "-")
}

// ItemNameID returns the message ID of the name of item id
// ("cosmetics.item.board_walnut").
func ItemNameID(id string) string {
	return "cosmetics.item." + id
}

// SettingsForm is the state of the settings page.
type SettingsForm struct {
	User account.User
	// Look is the look the form shows chosen: the saved one.
	Look      cosmetics.Look
	Inventory cosmetics.Inventory
	// Saved is set after a successful save.
	Saved bool
	// Error is the problem to show, if any.
	Error *Message
}
