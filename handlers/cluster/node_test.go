package cluster

import (
	"errors"
	"io"
	"log/slog"
	"net/url"
	"testing"

	"satranc/engine/play"
)

// TestNodeOwners: a node claims a game nobody holds and serves it; a game
// another node holds is refused with play.ErrNotOwner and its requests go
// to the owner's address; a nil node (a single node) has no Owners.
func TestNodeOwners(t *testing.T) {
	ctx := t.Context()
	leases := &fakeLeases{owners: map[int64]string{8: "b"}}
	addr, _ := url.Parse("http://a.test")
	n := &Node{st: leases, id: "a", addr: addr, log: slog.New(slog.NewTextHandler(io.Discard, nil))}

	if err := n.Claim(ctx, 7); err != nil {
		t.Errorf("Claim(7): %v", err)
	}
	if err := n.Claim(ctx, 8); !errors.Is(err, play.ErrNotOwner) {
		t.Errorf("Claim(8): %v, want %v", err, play.ErrNotOwner)
	}
	for _, tc := range []struct {
		id   int64
		want string
	}{{7, ""}, {8, "http://b.test"}, {9, ""}} {
		u, err := n.GameOwner(ctx, tc.id)
		got := ""
		if u != nil {
			got = u.String()
		}
		if err != nil || got != tc.want {
			t.Errorf("GameOwner(%d) = %v, %v; want %q", tc.id, u, err, tc.want)
		}
	}
	if u, err := n.InviteOwner(ctx, "nosuch"); u != nil || err != nil {
		t.Errorf("InviteOwner(unknown) = %v, %v; want nil, nil (served here)", u, err)
	}
	if u, err := n.LobbyOwner(ctx); u != nil || err != nil {
		t.Errorf("LobbyOwner() = %v, %v; want nil, nil (this node takes the role)", u, err)
	}
	var single *Node
	if single.Owners() != nil {
		t.Error("a nil node's Owners is not nil")
	}
	if n.Owners() == nil {
		t.Error("a node's Owners is nil")
	}
}
