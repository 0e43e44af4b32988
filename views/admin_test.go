package views

import (
	"strings"
	"testing"
	"time"

	"satranc/engine/fairplay"
)

// TestAdminReportsEscapeInvisible: a reason stored before reasons were
// stripped of text-direction characters is shown with them escaped, so
// that it does not show reversed.
func TestAdminReportsEscapeInvisible(t *testing.T) {
	var b strings.Builder
	reports := []fairplay.Report{{GameID: 7, At: time.Now(), ReporterName: "ayse", ReportedName: "bora", Reason: "abc\u202Edef"}}
	if err := AdminReportsPage(reports).Render(ctxIn("en"), &b); err != nil {
		t.Fatal(err)
	}
	if page := b.String(); strings.ContainsRune(page, '\u202E') || !strings.Contains(page, `abc\u202edef`) {
		t.Errorf("reason not escaped: %s", page)
	}
}
