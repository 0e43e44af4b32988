package postgres

import (
	"context"
	"testing"
	"time"
)

// TestClusterRoles: a role is held by one node at a time; its holder
// renews it, another node takes it once it is released or lapsed, and the
// epoch counts the changes of holder.
func TestClusterRoles(t *testing.T) {
	s, _ := mustOpen(t)
	ctx := context.Background()
	claim := func(node string, ttl time.Duration, wantNode string, wantEpoch int64) {
		t.Helper()
		l, err := s.ClaimRole(ctx, RoleLobby, node, "http://"+node, ttl)
		if err != nil || l.Node != wantNode || l.Addr != "http://"+wantNode || l.Epoch != wantEpoch {
			t.Fatalf("ClaimRole by %s = %+v, %v; want %s at epoch %d", node, l, err, wantNode, wantEpoch)
		}
	}
	holder := func(want string) {
		t.Helper()
		l, ok, err := s.Role(ctx, RoleLobby)
		if err != nil || ok != (want != "") || l.Node != want {
			t.Fatalf("Role = %+v, %v, %v; want holder %q", l, ok, err, want)
		}
	}
	renew := func(node string, want int64) {
		t.Helper()
		if n, err := s.RenewRoles(ctx, node, time.Minute); err != nil || n != want {
			t.Fatalf("RenewRoles(%s) = %d, %v; want %d", node, n, err, want)
		}
	}

	holder("")
	claim("a", time.Minute, "a", 1)
	claim("b", time.Minute, "a", 1) // a holds it
	claim("a", time.Minute, "a", 1) // the holder renews, same epoch
	holder("a")
	renew("a", 1)
	renew("b", 0)

	if err := s.ReleaseRoles(ctx, "a"); err != nil {
		t.Fatal(err)
	}
	holder("")
	renew("a", 0) // released: not renewed
	claim("b", time.Minute, "b", 2)

	claim("b", -time.Second, "b", 2) // lapses at once
	holder("")
	renew("b", 0)
	claim("a", time.Minute, "a", 3)
}

// TestClusterSecret: the first node to ask makes the cluster's secret and
// every later one, from another connection too, gets the same; it is no
// role that a node holds, renews or releases.
func TestClusterSecret(t *testing.T) {
	s, url := mustOpen(t)
	ctx := context.Background()
	first, err := s.ClusterSecret(ctx)
	if err != nil || len(first) != 64 {
		t.Fatalf("ClusterSecret = %q, %v; want 64 hex digits", first, err)
	}
	other, err := Open(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	if again, err := other.ClusterSecret(ctx); err != nil || again != first {
		t.Fatalf("ClusterSecret from another node = %q, %v; want %q", again, err, first)
	}
	if _, err := s.ClaimRole(ctx, RoleLobby, "a", "http://a", time.Minute); err != nil {
		t.Fatal(err)
	}
	if n, err := s.RenewRoles(ctx, "a", time.Minute); err != nil || n != 1 {
		t.Errorf("RenewRoles = %d, %v; want the lobby alone", n, err)
	}
	if err := s.ReleaseRoles(ctx, "a"); err != nil {
		t.Fatal(err)
	}
	if again, err := s.ClusterSecret(ctx); err != nil || again != first {
		t.Errorf("ClusterSecret after a release = %q, %v; want %q", again, err, first)
	}
}
