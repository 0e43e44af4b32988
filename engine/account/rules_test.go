package account

import (
	"errors"
	"strings"
	"testing"
)

func TestValidateUsername(t *testing.T) {
	tests := []struct {
		name string
		ok   bool
	}{
		{"ali", true},
		{"Ayse_1990", true},
		{"_x_", true},
		{strings.Repeat("a", 20), true},
		{"al", false},
		{strings.Repeat("a", 21), false},
		{"ayşe", false},
		{"a b c", false},
		{"ali-veli", false},
		{"", false},
		{"İrem", false},
		// Text-direction and zero-width characters are not ASCII, so a
		// name can neither show reversed nor hide a look-alike.
		{"ali\u202Eilev", false},
		{"\u202Eali", false},
		{"ali\u200B", false},
		{"a\u200Dli", false},
		{"\u2066ali\u2069", false},
		{"ali\u200E", false},
		{"\u202Aali\u202C", false},
	}
	for _, tc := range tests {
		err := ValidateUsername(tc.name)
		if tc.ok != (err == nil) || (err != nil && !errors.Is(err, ErrUsernameInvalid)) {
			t.Errorf("ValidateUsername(%q) = %v, want ok=%v", tc.name, err, tc.ok)
		}
	}
}

func TestValidatePassword(t *testing.T) {
	tests := []struct {
		user, password string
		want           error
	}{
		{"ali", "correct horse", nil},
		{"ali", "şifreşif", nil}, // 8 characters, 12 bytes
		{"ali", "1234567", ErrPasswordTooShort},
		{"ali", "şifreşi", ErrPasswordTooShort},
		{"ali", strings.Repeat("x", MaxPasswordLen+1), ErrPasswordTooLong},
		{"Mehmet_1", "mehmet_1", ErrPasswordIsUsername},
		{"mehmet_1", "MEHMET_1", ErrPasswordIsUsername},
	}
	for _, tc := range tests {
		if err := ValidatePassword(tc.user, tc.password); !errors.Is(err, tc.want) || (tc.want == nil && err != nil) {
			t.Errorf("ValidatePassword(%q, %q) = %v, want %v", tc.user, tc.password, err, tc.want)
		}
	}
}

func TestProfileValidate(t *testing.T) {
	tests := []struct {
		p  Profile
		ok bool
	}{
		{Profile{Language: "en"}, true},
		{Profile{Language: "tr", Gender: GenderFemale}, true},
		{Profile{Language: "de"}, false},
		{Profile{Language: "en", Gender: "robot"}, false},
	}
	for _, tc := range tests {
		if err := tc.p.Validate(); tc.ok != (err == nil) {
			t.Errorf("%+v.Validate() = %v, want ok=%v", tc.p, err, tc.ok)
		}
	}
	for _, g := range Genders {
		if got, err := ParseGender(g.String()); err != nil || got != g {
			t.Errorf("ParseGender(%q) = %q, %v", g.String(), got, err)
		}
	}
	if _, err := ParseGender("robot"); !errors.Is(err, ErrInvalidProfile) {
		t.Errorf("ParseGender(robot) = %v, want ErrInvalidProfile", err)
	}
}
