package account

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"fmt"
	"runtime"
	"strings"

	"golang.org/x/crypto/argon2"
)

// Params are argon2id's cost parameters.
type Params struct {
	Time    uint32 // passes over the memory
	Memory  uint32 // KiB
	Threads uint8
	SaltLen uint32 // bytes
	KeyLen  uint32 // bytes
}

// DefaultParams are the production parameters: the first argon2id
// configuration of the OWASP Password Storage Cheat Sheet (46 MiB, one pass,
// one lane), which costs tens of milliseconds per hash.
var DefaultParams = Params{Time: 1, Memory: 46 * 1024, Threads: 1, SaltLen: 16, KeyLen: 32}

// TestParams are cheap parameters for tests only: they keep hashing fast
// under the race detector and must never protect a real password.
var TestParams = Params{Time: 1, Memory: 64, Threads: 1, SaltLen: 16, KeyLen: 32}

// errBadHash reports a stored hash that is not in the format Hash writes.
var errBadHash = errors.New("account: malformed password hash")

// Hasher hashes and verifies passwords with argon2id. At most a fixed number
// of hashes run at once (one per CPU), so a burst of log-ins cannot exhaust
// memory; the others wait, or give up when their context ends.
type Hasher struct {
	params Params
	sem    chan struct{}
}

// NewHasher returns a Hasher that hashes new passwords with p and allows
// runtime.NumCPU() hashes at once.
func NewHasher(p Params) *Hasher {
	return &Hasher{params: p, sem: make(chan struct{}, runtime.NumCPU())}
}

// Hash returns password's hash in the PHC string format, which records the
// parameters and the salt, so that Verify works after the parameters change:
//
//	$argon2id$v=19$m=47104,t=1,p=1$<salt, base64>$<key, base64>
func (h *Hasher) Hash(ctx context.Context, password string) (string, error) {
	salt := make([]byte, h.params.SaltLen)
	if _, err := rand.Read(salt); err != nil {
		return "", fmt.Errorf("account: salt: %w", err)
	}
	key, err := h.key(ctx, password, salt, h.params)
	if err != nil {
		return "", err
	}
	b64 := base64.RawStdEncoding
	return fmt.Sprintf("$argon2id$v=%d$m=%d,t=%d,p=%d$%s$%s", argon2.Version,
		h.params.Memory, h.params.Time, h.params.Threads,
		b64.EncodeToString(salt), b64.EncodeToString(key)), nil
}

// Verify reports whether password matches encoded, a hash written by Hash.
// The keys are compared in constant time.
func (h *Hasher) Verify(ctx context.Context, encoded, password string) (bool, error) {
	p, salt, want, err := decodeHash(encoded)
	if err != nil {
		return false, err
	}
	got, err := h.key(ctx, password, salt, p)
	if err != nil {
		return false, err
	}
	return subtle.ConstantTimeCompare(got, want) == 1, nil
}

// key derives the argon2id key once a hashing slot is free.
func (h *Hasher) key(ctx context.Context, password string, salt []byte, p Params) ([]byte, error) {
	select {
	case h.sem <- struct{}{}:
	case <-ctx.Done():
		return nil, fmt.Errorf("account: waiting to hash: %w", ctx.Err())
	}
	defer func() { <-h.sem }()
	return argon2.IDKey([]byte(password), salt, p.Time, p.Memory, p.Threads, p.KeyLen), nil
}

// decodeHash parses a hash written by Hash.
func decodeHash(encoded string) (p Params, salt, key []byte, err error) {
	parts := strings.Split(encoded, "$")
	if len(parts) != 6 || parts[0] != "" || parts[1] != "argon2id" {
		return p, nil, nil, errBadHash
	}
	var version int
	if _, err := fmt.Sscanf(parts[2], "v=%d", &version); err != nil || version != argon2.Version {
		return p, nil, nil, fmt.Errorf("%w: version %q", errBadHash, parts[2])
	}
	if _, err := fmt.Sscanf(parts[3], "m=%d,t=%d,p=%d", &p.Memory, &p.Time, &p.Threads); err != nil {
		return p, nil, nil, fmt.Errorf("%w: parameters %q", errBadHash, parts[3])
	}
	if p.Time == 0 || p.Threads == 0 || p.Memory < 8*uint32(p.Threads) {
		return p, nil, nil, fmt.Errorf("%w: parameters %q", errBadHash, parts[3])
	}
	b64 := base64.RawStdEncoding
	if salt, err = b64.DecodeString(parts[4]); err != nil {
		return p, nil, nil, fmt.Errorf("%w: salt: %w", errBadHash, err)
	}
	if key, err = b64.DecodeString(parts[5]); err != nil || len(key) == 0 {
		return p, nil, nil, fmt.Errorf("%w: key", errBadHash)
	}
	p.SaltLen, p.KeyLen = uint32(len(salt)), uint32(len(key))
	return p, salt, key, nil
}
