package account

import (
	"context"
	"runtime"
	"strings"
	"testing"
	"testing/synctest"
)

func TestHashVerify(t *testing.T) {
	ctx := context.Background()
	h := NewHasher(TestParams)
	enc, err := h.Hash(ctx, "correct horse")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(enc, "$argon2id$v=19$m=64,t=1,p=1$") {
		t.Errorf("Hash = %q, want the PHC argon2id format", enc)
	}
	if again, _ := h.Hash(ctx, "correct horse"); again == enc {
		t.Error("two hashes of one password are equal: the salt is not random")
	}
	for _, tc := range []struct {
		password string
		want     bool
	}{
		{"correct horse", true},
		{"Correct horse", false},
		{"", false},
	} {
		if ok, err := h.Verify(ctx, enc, tc.password); err != nil || ok != tc.want {
			t.Errorf("Verify(%q) = %v, %v; want %v", tc.password, ok, err, tc.want)
		}
	}
	// A hash made with other parameters still verifies: they are read from
	// the encoded string.
	other := NewHasher(Params{Time: 2, Memory: 128, Threads: 2, SaltLen: 8, KeyLen: 16})
	if ok, err := other.Verify(ctx, enc, "correct horse"); err != nil || !ok {
		t.Errorf("Verify with other parameters = %v, %v", ok, err)
	}
}

func TestVerifyMalformed(t *testing.T) {
	h := NewHasher(TestParams)
	for _, enc := range []string{
		"",
		"plain",
		"$argon2i$v=19$m=64,t=1,p=1$c2FsdA$a2V5",
		"$argon2id$v=18$m=64,t=1,p=1$c2FsdA$a2V5",
		"$argon2id$v=19$m=64,t=0,p=1$c2FsdA$a2V5",
		"$argon2id$v=19$m=64,t=1,p=1$!!$a2V5",
		"$argon2id$v=19$m=64,t=1,p=1$c2FsdA$",
	} {
		if ok, err := h.Verify(context.Background(), enc, "x"); err == nil || ok {
			t.Errorf("Verify(%q) = %v, %v; want an error", enc, ok, err)
		}
	}
}

func TestHashWaitsForSlot(t *testing.T) {
	h := NewHasher(TestParams)
	for range cap(h.sem) {
		h.sem <- struct{}{} // every slot busy
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := h.Hash(ctx, "correct horse"); err == nil {
		t.Error("Hash with every slot busy and a canceled context = nil error")
	}
}

// TestHashesCapped: with every hashing slot taken, a hash waits (it does
// not run beside them) and runs as soon as a slot is given back.
func TestHashesCapped(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := NewHasher(TestParams)
		if cap(h.sem) < 1 || cap(h.sem) > runtime.NumCPU() {
			t.Fatalf("%d hashes at once, want 1..%d", cap(h.sem), runtime.NumCPU())
		}
		for range cap(h.sem) {
			h.sem <- struct{}{} // every slot busy
		}
		done := make(chan error, 1)
		go func() {
			_, err := h.Hash(context.Background(), "correct horse")
			done <- err
		}()
		synctest.Wait() // the hash is blocked for good
		select {
		case err := <-done:
			t.Fatalf("Hash ran with every slot busy (%v)", err)
		default:
		}
		<-h.sem // one slot free
		synctest.Wait()
		select {
		case err := <-done:
			if err != nil {
				t.Fatal(err)
			}
		default:
			t.Fatal("Hash still waits with a slot free")
		}
	})
}
