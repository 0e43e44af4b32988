package game

import (
	"encoding/json"
	"testing"
	"time"
	"unsafe"

	"satranc/engine/chess"
)

// TestInstant: an Instant keeps a time to the nanosecond, and reads and
// writes JSON as a time.Time does (the cluster's wire carries snapshots).
func TestInstant(t *testing.T) {
	at := time.Date(2026, 12, 3, 8, 30, 15, 123456789, time.FixedZone("TRT", 3*3600))
	i := InstantOf(at)
	if !i.Time().Equal(at) {
		t.Errorf("InstantOf(%v).Time() = %v", at, i.Time())
	}
	b, err := json.Marshal(MoveRecord{Move: chess.NewMove(chess.E2, chess.E4), At: i, Clock: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	var back struct {
		Move  chess.Move
		At    time.Time
		Clock time.Duration
	}
	if err := json.Unmarshal(b, &back); err != nil || !back.At.Equal(at) || back.Clock != time.Minute {
		t.Errorf("MoveRecord as JSON: %s, read as times: %+v, %v", b, back, err)
	}
	var rec MoveRecord
	if err := json.Unmarshal(b, &rec); err != nil || rec.At != i {
		t.Errorf("MoveRecord from JSON: %+v, %v, want At %d", rec, err, i)
	}
	if err := json.Unmarshal([]byte(`{"At":"yesterday"}`), &rec); err == nil {
		t.Error("an At that is not a time was read")
	}
	if size := unsafe.Sizeof(MoveRecord{}); size != 24 {
		t.Errorf("a MoveRecord is %d bytes, want 24", size)
	}
}
