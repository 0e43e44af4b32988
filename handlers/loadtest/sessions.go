package loadtest

import (
	"bufio"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"os"
	"strings"
)

// A sessions file keeps the driver's users between runs: signing up
// thousands of users takes minutes (each password is hashed with
// argon2id), so a run against the same database may log them in again
// from the cookies a previous run saved. Each line of the file is a user
// name and its cookies ("name=value" separated by spaces).

// readSessions returns the users saved in path for base, or none when the
// file does not exist.
func readSessions(path, base string, t transports) ([]*user, error) {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("sessions: %w", err)
	}
	defer f.Close()
	bu, err := url.Parse(base)
	if err != nil {
		return nil, fmt.Errorf("sessions: %w", err)
	}
	var users []*user
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) < 2 {
			continue
		}
		jar, err := cookiejar.New(nil)
		if err != nil {
			return nil, fmt.Errorf("sessions: cookie jar: %w", err)
		}
		var cookies []*http.Cookie
		for _, kv := range fields[1:] {
			if name, value, ok := strings.Cut(kv, "="); ok {
				cookies = append(cookies, &http.Cookie{Name: name, Value: value})
			}
		}
		jar.SetCookies(bu, cookies)
		users = append(users, newUser(fields[0], base, jar, t))
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("sessions: %w", err)
	}
	return users, nil
}

// writeSessions saves users' cookies for base to path; nil users (whose
// sign-up failed) are left out.
func writeSessions(path, base string, users []*user) error {
	bu, err := url.Parse(base)
	if err != nil {
		return fmt.Errorf("sessions: %w", err)
	}
	var b strings.Builder
	for _, u := range users {
		if u == nil {
			continue
		}
		b.WriteString(u.name)
		for _, c := range u.client.Jar.Cookies(bu) {
			b.WriteString(" " + c.Name + "=" + c.Value)
		}
		b.WriteString("\n")
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o600); err != nil {
		return fmt.Errorf("sessions: %w", err)
	}
	return nil
}
