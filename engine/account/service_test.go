package account

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"
)

// memStore is an in-memory Store.
type memStore struct {
	users    []Credentials
	sessions []StoredSession
	now      time.Time
}

func (m *memStore) CreateUser(_ context.Context, u NewUser) (User, error) {
	if _, err := m.Credentials(context.Background(), u.Name); err == nil {
		return User{}, ErrUsernameTaken
	}
	nu := User{ID: int64(len(m.users) + 1), Name: u.Name, Language: u.Language}
	m.users = append(m.users, Credentials{User: nu, PasswordHash: u.PasswordHash})
	return nu, nil
}

func (m *memStore) UserByName(ctx context.Context, name string) (User, error) {
	c, err := m.Credentials(ctx, name)
	return c.User, err
}

func (m *memStore) Credentials(_ context.Context, name string) (Credentials, error) {
	for _, c := range m.users {
		if strings.EqualFold(c.User.Name, name) {
			return c, nil
		}
	}
	return Credentials{}, fmt.Errorf("user %q: %w", name, ErrNotFound)
}

func (m *memStore) UpdateProfile(_ context.Context, id int64, p Profile) (User, error) {
	for i := range m.users {
		if m.users[i].User.ID == id {
			m.users[i].User.Language, m.users[i].User.Gender = p.Language, p.Gender
			return m.users[i].User, nil
		}
	}
	return User{}, ErrNotFound
}

func (m *memStore) SaveSound(_ context.Context, id int64, on bool) error {
	for i := range m.users {
		if m.users[i].User.ID == id {
			m.users[i].User.SoundOff = !on
			return nil
		}
	}
	return ErrNotFound
}

func (m *memStore) CreateSession(_ context.Context, s StoredSession) error {
	m.sessions = append(m.sessions, s)
	return nil
}

func (m *memStore) UserBySession(_ context.Context, h []byte) (User, error) {
	for _, s := range m.sessions {
		if bytes.Equal(s.TokenHash, h) && m.now.Before(s.Expires) {
			return m.users[s.UserID-1].User, nil
		}
	}
	return User{}, ErrNotFound
}

func (m *memStore) DeleteSession(_ context.Context, h []byte) error {
	for i, s := range m.sessions {
		if bytes.Equal(s.TokenHash, h) {
			m.sessions = append(m.sessions[:i], m.sessions[i+1:]...)
			return nil
		}
	}
	return nil
}

// newTestService returns a Service on an empty memStore.
func newTestService(t *testing.T) (*Service, *memStore) {
	t.Helper()
	m := &memStore{now: time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)}
	s, err := NewService(m, NewHasher(TestParams), time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	s.Now = func() time.Time { return m.now }
	return s, m
}

func TestSignUpAndLogIn(t *testing.T) {
	ctx := context.Background()
	s, m := newTestService(t)
	u, sess, err := s.SignUp(ctx, "Ayse", "correct horse", "tr")
	if err != nil {
		t.Fatal(err)
	}
	if u.Name != "Ayse" || u.Language != "tr" || len(sess.Token) != 43 || !sess.Expires.Equal(m.now.Add(time.Hour)) {
		t.Errorf("SignUp = %+v, %+v", u, sess)
	}
	if strings.Contains(m.users[0].PasswordHash, "correct") {
		t.Error("the password is stored in clear")
	}
	if bytes.Contains(m.sessions[0].TokenHash, []byte(sess.Token)) || len(m.sessions[0].TokenHash) != 32 {
		t.Error("the session token is stored in clear")
	}
	if got, err := s.UserBySession(ctx, sess.Token); err != nil || got.ID != u.ID {
		t.Errorf("UserBySession = %+v, %v", got, err)
	}

	u2, sess2, err := s.LogIn(ctx, "ayse", "correct horse", sess.Token)
	if err != nil || u2.ID != u.ID {
		t.Fatalf("LogIn = %+v, %v", u2, err)
	}
	if sess2.Token == sess.Token {
		t.Error("LogIn kept the old token")
	}
	if _, err := s.UserBySession(ctx, sess.Token); !errors.Is(err, ErrNoSession) {
		t.Errorf("old session after LogIn: %v, want ErrNoSession", err)
	}
	if err := s.LogOut(ctx, sess2.Token); err != nil {
		t.Fatal(err)
	}
	if _, err := s.UserBySession(ctx, sess2.Token); !errors.Is(err, ErrNoSession) {
		t.Errorf("session after LogOut: %v, want ErrNoSession", err)
	}
}

func TestSignUpErrors(t *testing.T) {
	ctx := context.Background()
	s, m := newTestService(t)
	if _, _, err := s.SignUp(ctx, "Ayse", "correct horse", "xx"); err != nil {
		t.Fatal(err)
	}
	if m.users[0].User.Language != DefaultLanguage {
		t.Errorf("unknown language saved as %q", m.users[0].User.Language)
	}
	tests := []struct {
		name, password string
		want           error
	}{
		{"AYSE", "another password", ErrUsernameTaken},
		{"Burak34", "another password", ErrUsernameTaken}, // a bot's name
		{"a!", "another password", ErrUsernameInvalid},
		{"mehmet", "short", ErrPasswordTooShort},
		{"mehmet", "MEHMET", ErrPasswordTooShort},
		{"mehmet12", "MEHMET12", ErrPasswordIsUsername},
	}
	for _, tc := range tests {
		if _, _, err := s.SignUp(ctx, tc.name, tc.password, "en"); !errors.Is(err, tc.want) {
			t.Errorf("SignUp(%q, %q) = %v, want %v", tc.name, tc.password, err, tc.want)
		}
	}
	if len(m.users) != 1 || len(m.sessions) != 1 {
		t.Errorf("after failed sign-ups: %d users, %d sessions; want 1, 1", len(m.users), len(m.sessions))
	}
}

func TestLogInErrors(t *testing.T) {
	ctx := context.Background()
	s, _ := newTestService(t)
	if _, _, err := s.SignUp(ctx, "Ayse", "correct horse", "en"); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ name, password string }{
		{"Ayse", "wrong horse"},
		{"nobody", "correct horse"},
		{"Ayse", strings.Repeat("x", MaxPasswordLen+1)},
	} {
		if _, _, err := s.LogIn(ctx, tc.name, tc.password, ""); !errors.Is(err, ErrBadCredentials) {
			t.Errorf("LogIn(%q, %q) = %v, want ErrBadCredentials", tc.name, tc.password, err)
		}
	}
}

func TestSessionExpiry(t *testing.T) {
	ctx := context.Background()
	s, m := newTestService(t)
	_, sess, err := s.SignUp(ctx, "Ayse", "correct horse", "en")
	if err != nil {
		t.Fatal(err)
	}
	m.now = m.now.Add(time.Hour)
	if _, err := s.UserBySession(ctx, sess.Token); !errors.Is(err, ErrNoSession) {
		t.Errorf("expired session: %v, want ErrNoSession", err)
	}
	for _, tok := range []string{"", "short", strings.Repeat("*", 43)} {
		if _, err := s.UserBySession(ctx, tok); !errors.Is(err, ErrNoSession) {
			t.Errorf("UserBySession(%q) = %v, want ErrNoSession", tok, err)
		}
	}
}

func TestUpdateProfile(t *testing.T) {
	ctx := context.Background()
	s, _ := newTestService(t)
	u, _, err := s.SignUp(ctx, "Ayse", "correct horse", "en")
	if err != nil {
		t.Fatal(err)
	}
	got, err := s.UpdateProfile(ctx, u.ID, Profile{Language: "tr", Gender: GenderFemale})
	if err != nil || got.Language != "tr" || got.Gender != GenderFemale {
		t.Errorf("UpdateProfile = %+v, %v", got, err)
	}
	if _, err := s.UpdateProfile(ctx, u.ID, Profile{Language: "fr"}); !errors.Is(err, ErrInvalidProfile) {
		t.Errorf("UpdateProfile(fr) = %v, want ErrInvalidProfile", err)
	}
}
