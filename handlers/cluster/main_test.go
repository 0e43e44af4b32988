package cluster

import (
	"testing"

	"go.uber.org/goleak"
)

// TestMain fails the package's tests if a feed's pump or the presences'
// loop outlives them.
func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }
