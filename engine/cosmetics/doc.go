// Package cosmetics holds Satranç's cosmetic items (SPEC section 9): board
// themes, piece sets and profile frames. They change how things look and
// nothing else: no package that decides a move, a clock, a result, a
// rating or a chip imports this one.
//
// Every account owns the standard items (Item.Standard); the others are
// granted, as tournament prizes or by an administrator, and recorded in the
// account's inventory. A member's Look is the theme, set and frame they
// chose among the items they own.
//
//	inv := cosmetics.Inventory{Granted: []string{"frame_cup_gold"}}
//	look := cosmetics.Look{Board: "board_walnut", Pieces: "pieces_standard", Frame: "frame_cup_gold"}
//	err := look.Check(inv) // nil: every item is owned and of its kind
//
// The package is pure: the store keeps inventories and looks, views turn
// item IDs into class names and image paths.
package cosmetics
