package invisible

import "testing"

func TestIs(t *testing.T) {
	in := []rune{0x200B, 0x200C, 0x200D, 0x200E, 0x200F, 0x202A, 0x202B, 0x202C, 0x202D, 0x202E, 0x2066, 0x2067, 0x2068, 0x2069}
	for _, r := range in {
		if !Is(r) {
			t.Errorf("Is(%U) = false, want true", r)
		}
	}
	out := []rune{'a', 'ş', 'İ', ' ', 0x200A, 0x2010, 0x2029, 0x202F, 0x2065, 0x206A, 0xFEFF, 0x0627}
	for _, r := range out {
		if Is(r) {
			t.Errorf("Is(%U) = true, want false", r)
		}
	}
}

func TestStripAndEscape(t *testing.T) {
	tests := []struct {
		name, in, strip, escape string
	}{
		{"plain", "iyi oyunlar", "iyi oyunlar", "iyi oyunlar"},
		{"turkish", "Şah çekildi, ığüşöç", "Şah çekildi, ığüşöç", "Şah çekildi, ığüşöç"},
		{"arabic stays", "مرحبا", "مرحبا", "مرحبا"},
		{"override", "abc\u202Edef", "abcdef", `abc\u202edef`},
		{"zero width", "a\u200Bb\u200Cc\u200Dd", "abcd", `a\u200bb\u200cc\u200dd`},
		{"marks", "\u200Ex\u200F", "x", `\u200ex\u200f`},
		{"embeddings", "\u202Aa\u202Bb\u202Cc\u202Dd", "abcd", `\u202aa\u202bb\u202cc\u202dd`},
		{"isolates", "\u2066a\u2067b\u2068c\u2069", "abc", `\u2066a\u2067b\u2068c\u2069`},
		{"only invisible", "\u202E\u200B", "", `\u202e\u200b`},
		{"empty", "", "", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := Strip(tc.in); got != tc.strip {
				t.Errorf("Strip(%q) = %q, want %q", tc.in, got, tc.strip)
			}
			if got := Escape(tc.in); got != tc.escape {
				t.Errorf("Escape(%q) = %q, want %q", tc.in, got, tc.escape)
			}
		})
	}
}
