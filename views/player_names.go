package views

import (
	"satranc/engine/chess"
	"satranc/engine/play"
)

// botNames are the names a computer player goes by at a public table,
// where bots are not labelled (SPEC section 6). They are user names, not
// texts, and so the same in every language.
var botNames = [...]string{
	"deniz_k", "emre1907", "selin.ay", "mert_can", "zeynep_s", "burak34", "elif.nur", "kaan_t",
	"ayla_g", "onur.b", "derya_m", "serkan06", "irem.k", "tolga_e", "nazli_a", "cem.yilmaz",
	"pelin_o", "baris35", "gizem.t", "ugur_d", "ceren_b", "hakan.s", "melis_y", "volkan_c",
}

// PublicBotName returns the name of the computer player on side of public
// game id: the same for the whole game and for everyone watching, and
// usually another in the next game.
func PublicBotName(id int64, side chess.Color) string {
	h := uint64(id)*0x9e3779b97f4a7c15 + uint64(side)
	h ^= h >> 29
	return botNames[h%uint64(len(botNames))]
}

// isPublic reports whether a game of kind k is played at a public table.
func isPublic(k play.Kind) bool { return k == play.Quick || k == play.Lounge }
