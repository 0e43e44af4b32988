package pgtest

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// ownerFile names the file, in a server's folder, that holds the process
// ID of the test process that started the server.
const ownerFile = "owner.pid"

// dirPattern is the pattern of the servers' folders, in os.TempDir.
const dirPattern = "satranc-pg-*"

// stopOrphans stops the servers of test processes that are gone, and
// removes their folders. A test binary killed (by a timeout's panic, or a
// signal) runs no cleanup, so its server would run on, holding its memory
// and its folder, until the machine restarts; the next Start finds it.
// A folder without an owner is left alone: its server is starting.
func stopOrphans(bin string, cred *syscall.Credential) {
	dirs, _ := filepath.Glob(filepath.Join(os.TempDir(), dirPattern))
	for _, dir := range dirs {
		owner, err := os.ReadFile(filepath.Join(dir, ownerFile))
		if err != nil {
			continue
		}
		pid, err := strconv.Atoi(strings.TrimSpace(string(owner)))
		if err != nil || processAlive(pid) {
			continue
		}
		// Another test process may be at the same orphan: what one of
		// them fails to do, the other has done.
		_ = (&Server{dir: dir, bin: bin, cred: cred}).Stop()
	}
}

// processAlive reports whether a process pid exists.
func processAlive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
