package account

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"time"
)

// SessionTTL is how long a log-in lasts.
const SessionTTL = 30 * 24 * time.Hour

// tokenBytes is the size of a session token: 256 random bits.
const tokenBytes = 32

// Store is the persistence the account use cases need. Lookups that find
// nothing return an error matching ErrNotFound; CreateUser returns one
// matching ErrUsernameTaken when the name is in use in any case.
type Store interface {
	CreateUser(ctx context.Context, u NewUser) (User, error)
	UserByName(ctx context.Context, name string) (User, error)
	Credentials(ctx context.Context, name string) (Credentials, error)
	UpdateProfile(ctx context.Context, userID int64, p Profile) (User, error)
	SaveSound(ctx context.Context, userID int64, on bool) error
	CreateSession(ctx context.Context, s StoredSession) error
	UserBySession(ctx context.Context, tokenHash []byte) (User, error)
	DeleteSession(ctx context.Context, tokenHash []byte) error
}

// StoredSession is a session as the Store keeps it: only the SHA-256 of the
// token, so a copy of the database cannot be used to log in.
type StoredSession struct {
	TokenHash []byte
	UserID    int64
	Created   time.Time
	Expires   time.Time
}

// Session is a new log-in as the browser gets it: the token for its cookie
// and when it expires.
type Session struct {
	Token   string
	Expires time.Time
}

// Service runs the account use cases.
type Service struct {
	store  Store
	hasher *Hasher
	ttl    time.Duration
	// dummyHash is verified when a log-in names an unknown user, so that
	// the answer takes as long as for a known one.
	dummyHash string

	// Now returns the current time; tests may replace it.
	Now func() time.Time
}

// NewService returns a Service on st that hashes with h and keeps sessions
// for ttl.
func NewService(st Store, h *Hasher, ttl time.Duration) (*Service, error) {
	dummy, err := h.Hash(context.Background(), "dummy password for unknown users")
	if err != nil {
		return nil, err
	}
	return &Service{store: st, hasher: h, ttl: ttl, dummyHash: dummy, Now: time.Now}, nil
}

// SignUp creates an account with the language lang (DefaultLanguage if it
// is not one of Languages) and logs it in. Nothing is written unless the
// name and password follow the rules.
func (s *Service) SignUp(ctx context.Context, name, password, lang string) (User, Session, error) {
	if err := ValidateUsername(name); err != nil {
		return User{}, Session{}, err
	}
	if err := ValidatePassword(name, password); err != nil {
		return User{}, Session{}, err
	}
	if (Profile{Language: lang}).Validate() != nil {
		lang = DefaultLanguage
	}
	// A cheap check first, so that a taken name costs no hashing; the
	// UNIQUE constraint still decides a race. The bots' names are taken.
	if IsBotName(name) {
		return User{}, Session{}, fmt.Errorf("%w: %q", ErrUsernameTaken, name)
	}
	if _, err := s.store.UserByName(ctx, name); err == nil {
		return User{}, Session{}, fmt.Errorf("%w: %q", ErrUsernameTaken, name)
	} else if !errors.Is(err, ErrNotFound) {
		return User{}, Session{}, err
	}
	hash, err := s.hasher.Hash(ctx, password)
	if err != nil {
		return User{}, Session{}, err
	}
	u, err := s.store.CreateUser(ctx, NewUser{Name: name, PasswordHash: hash, Language: lang})
	if err != nil {
		return User{}, Session{}, err
	}
	sess, err := s.startSession(ctx, u.ID)
	return u, sess, err
}

// LogIn checks name and password and starts a new session. The session of
// oldToken, if any, ends: a log-in always gets a fresh token. Every failure
// to match is ErrBadCredentials, whether the name or the password was wrong.
func (s *Service) LogIn(ctx context.Context, name, password, oldToken string) (User, Session, error) {
	if len(password) > MaxPasswordLen {
		return User{}, Session{}, ErrBadCredentials
	}
	cred, err := s.store.Credentials(ctx, name)
	hash := cred.PasswordHash
	switch {
	case errors.Is(err, ErrNotFound):
		hash = s.dummyHash
	case err != nil:
		return User{}, Session{}, err
	}
	ok, verr := s.hasher.Verify(ctx, hash, password)
	if verr != nil {
		return User{}, Session{}, verr
	}
	if err != nil || !ok {
		return User{}, Session{}, fmt.Errorf("%w: %q", ErrBadCredentials, name)
	}
	if err := s.LogOut(ctx, oldToken); err != nil {
		return User{}, Session{}, err
	}
	sess, err := s.startSession(ctx, cred.User.ID)
	return cred.User, sess, err
}

// LogOut ends the session of token. An empty or unknown token is no error.
func (s *Service) LogOut(ctx context.Context, token string) error {
	h, ok := tokenHash(token)
	if !ok {
		return nil
	}
	return s.store.DeleteSession(ctx, h)
}

// UserBySession returns the user logged in with token, or ErrNoSession.
func (s *Service) UserBySession(ctx context.Context, token string) (User, error) {
	h, ok := tokenHash(token)
	if !ok {
		return User{}, ErrNoSession
	}
	u, err := s.store.UserBySession(ctx, h)
	if errors.Is(err, ErrNotFound) {
		return User{}, fmt.Errorf("%w: %w", ErrNoSession, err)
	}
	return u, err
}

// UpdateProfile validates p and saves it as the profile of userID.
func (s *Service) UpdateProfile(ctx context.Context, userID int64, p Profile) (User, error) {
	if err := p.Validate(); err != nil {
		return User{}, err
	}
	return s.store.UpdateProfile(ctx, userID, p)
}

// SaveSound saves whether the game page plays sounds for userID (see
// User.SoundOff). It is a preference of the member's, kept with the
// account: no rule depends on it.
func (s *Service) SaveSound(ctx context.Context, userID int64, on bool) error {
	return s.store.SaveSound(ctx, userID, on)
}

// startSession stores a new random session for userID.
func (s *Service) startSession(ctx context.Context, userID int64) (Session, error) {
	raw := make([]byte, tokenBytes)
	if _, err := rand.Read(raw); err != nil {
		return Session{}, fmt.Errorf("account: session token: %w", err)
	}
	token := base64.RawURLEncoding.EncodeToString(raw)
	sum := sha256.Sum256(raw)
	now := s.Now()
	st := StoredSession{TokenHash: sum[:], UserID: userID, Created: now, Expires: now.Add(s.ttl)}
	if err := s.store.CreateSession(ctx, st); err != nil {
		return Session{}, err
	}
	return Session{Token: token, Expires: st.Expires}, nil
}

// tokenHash decodes a token as startSession writes it and returns its
// SHA-256; ok is false for anything else.
func tokenHash(token string) (hash []byte, ok bool) {
	if base64.RawURLEncoding.EncodedLen(tokenBytes) != len(token) {
		return nil, false
	}
	raw, err := base64.RawURLEncoding.DecodeString(token)
	if err != nil {
		return nil, false
	}
	sum := sha256.Sum256(raw)
	return sum[:], true
}
