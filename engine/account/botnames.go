package account

import (
	"strings"

	"satranc/engine/chess"
)

// BotNames are the names the computer players go by at public tables,
// where bots are not labelled (SPEC section 6). Each is a valid user name
// (ValidateUsername), so that it looks like anyone's, and none can be
// signed up with (SignUp says it is taken), so that it is never someone's.
var BotNames = [...]string{
	"deniz_k", "emre1907", "selin_ay", "mert_can", "zeynep_s", "burak34", "elifnur", "kaan_t",
	"ayla_g", "onur_b", "derya_m", "serkan06", "irem_k", "tolga_e", "nazli_a", "cemyilmaz",
	"pelin_o", "baris35", "gizem_t", "ugur_d", "ceren_b", "hakan_s", "melis_y", "volkan_c",
}

// IsBotName reports whether name is one of BotNames, in any case (user
// names are unique regardless of case).
func IsBotName(name string) bool {
	for _, b := range BotNames {
		if strings.EqualFold(b, name) {
			return true
		}
	}
	return false
}

// PublicBotName returns the name of the computer player on side of public
// game id: the same for the whole game and for everyone watching, and
// usually another in the next game. The store keeps it with the game once
// the game is over, so that a name's games are found by the name.
func PublicBotName(id int64, side chess.Color) string {
	h := uint64(id)*0x9e3779b97f4a7c15 + uint64(side)
	h ^= h >> 29
	return BotNames[h%uint64(len(BotNames))]
}
