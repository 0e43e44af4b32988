package account

import (
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"
)

// Errors the account rules and use cases return, wrapped with detail.
var (
	ErrUsernameInvalid    = errors.New("account: invalid username")
	ErrUsernameTaken      = errors.New("account: username taken")
	ErrPasswordTooShort   = errors.New("account: password too short")
	ErrPasswordTooLong    = errors.New("account: password too long")
	ErrPasswordIsUsername = errors.New("account: password equals username")
	ErrBadCredentials     = errors.New("account: wrong username or password")
	ErrInvalidProfile     = errors.New("account: invalid profile")
	// ErrNotFound is what a Store lookup matches when nothing is there.
	ErrNotFound = errors.New("account: not found")
	// ErrNoSession means a session token is unknown, malformed or expired.
	ErrNoSession = errors.New("account: no session")
)

// Limits of usernames and passwords.
const (
	MinUsernameLen = 3
	MaxUsernameLen = 20
	MinPasswordLen = 8 // characters
	// MaxPasswordLen is in bytes; it bounds the hashing work one request
	// can cause.
	MaxPasswordLen = 256
)

// ValidateUsername checks a username: 3 to 20 characters, each an ASCII
// letter, digit or underscore. Non-ASCII letters are refused on purpose:
// names are unique regardless of case, and only ASCII has one case mapping
// for everyone (Turkish maps i to İ, other languages to I), and no look-alike
// letters from other scripts.
func ValidateUsername(name string) error {
	if n := len(name); n < MinUsernameLen || n > MaxUsernameLen {
		return fmt.Errorf("%w: %d characters", ErrUsernameInvalid, utf8.RuneCountInString(name))
	}
	for _, c := range []byte(name) {
		ok := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_'
		if !ok {
			return fmt.Errorf("%w: %q", ErrUsernameInvalid, name)
		}
	}
	return nil
}

// ValidatePassword checks a new password for the account name: at least
// MinPasswordLen characters, at most MaxPasswordLen bytes, and not the
// username itself in any case.
func ValidatePassword(name, password string) error {
	if utf8.RuneCountInString(password) < MinPasswordLen {
		return ErrPasswordTooShort
	}
	if len(password) > MaxPasswordLen {
		return ErrPasswordTooLong
	}
	if strings.EqualFold(password, name) {
		return ErrPasswordIsUsername
	}
	return nil
}
