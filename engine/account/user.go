package account

import (
	"fmt"
	"slices"
	"time"

	"satranc/engine/cosmetics"
)

// Languages are the codes of the interface languages a profile may choose,
// the default first.
var Languages = []string{"en", "tr"}

// DefaultLanguage is the language of a profile that has not chosen one.
const DefaultLanguage = "en"

// Gender is the optional gender in a profile. It is used only to open the
// lounge reserved for women (SPEC section 5); GenderUnspecified is the
// default.
type Gender string

// The genders a profile may hold.
const (
	GenderUnspecified Gender = ""
	GenderFemale      Gender = "female"
	GenderMale        Gender = "male"
	GenderOther       Gender = "other"
)

// Genders lists every Gender in the order a form offers them.
var Genders = []Gender{GenderUnspecified, GenderFemale, GenderMale, GenderOther}

// String returns the gender's code; GenderUnspecified is "unspecified".
func (g Gender) String() string {
	if g == GenderUnspecified {
		return "unspecified"
	}
	return string(g)
}

// ParseGender parses a code as String writes it ("" also means
// unspecified). An unknown code is an ErrInvalidProfile.
func ParseGender(s string) (Gender, error) {
	if s == "" || s == "unspecified" {
		return GenderUnspecified, nil
	}
	g := Gender(s)
	if !slices.Contains(Genders, g) {
		return GenderUnspecified, fmt.Errorf("%w: gender %q", ErrInvalidProfile, s)
	}
	return g, nil
}

// User is an account as the rest of the program sees it. It never holds
// the password hash (see Credentials).
type User struct {
	ID       int64
	Name     string // as typed at sign-up; unique regardless of case
	Language string // one of Languages
	Gender   Gender
	// Admin: an administrator, who may use the /admin pages (SPEC
	// section 10). The first account created is one.
	Admin     bool
	CreatedAt time.Time
	// Look is the board theme, piece set and frame the member wears
	// (always a known item of each kind; see cosmetics.Look.Normal).
	Look cosmetics.Look
	// SoundOff: the member turned the game page's sounds off (the zero
	// value plays them, as for a guest).
	SoundOff bool
}

// Profile is the part of a User its owner may edit.
type Profile struct {
	Language string
	Gender   Gender
}

// Validate checks that p holds a known language and gender.
func (p Profile) Validate() error {
	if !slices.Contains(Languages, p.Language) {
		return fmt.Errorf("%w: language %q", ErrInvalidProfile, p.Language)
	}
	if !slices.Contains(Genders, p.Gender) {
		return fmt.Errorf("%w: gender %q", ErrInvalidProfile, p.Gender)
	}
	return nil
}

// NewUser is what the Store needs to create an account.
type NewUser struct {
	Name         string
	PasswordHash string // as Hasher.Hash encodes it
	Language     string
}

// Credentials is a user together with the stored password hash, as the Store
// returns it for a log-in.
type Credentials struct {
	User         User
	PasswordHash string
}
