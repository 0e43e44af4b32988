package store

import (
	"context"
	"errors"
	"testing"
)

func TestVIP(t *testing.T) {
	ctx := context.Background()
	s, _ := mustOpen(t)
	u := mustCreateUser(t, s, "Zeynep")
	if vip, err := s.VIP(ctx, u.ID); err != nil || vip {
		t.Fatalf("VIP of a new member = %v, %v; want false", vip, err)
	}
	for _, on := range []bool{true, false} {
		if err := s.SetVIP(ctx, "Zeynep", on); err != nil {
			t.Fatal(err)
		}
		if vip, err := s.VIP(ctx, u.ID); err != nil || vip != on {
			t.Errorf("VIP after SetVIP(%v) = %v, %v", on, vip, err)
		}
	}
	if _, err := s.VIP(ctx, u.ID+1); !errors.Is(err, ErrNotFound) {
		t.Errorf("VIP of nobody = %v, want ErrNotFound", err)
	}
}
