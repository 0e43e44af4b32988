package match

import "strings"

// Openings are the start lines of calibration matches, in UCI: common
// openings from the main ECO groups, a few moves deep, so that games start
// from varied, balanced positions. Run plays each twice, colours reversed.
var Openings = lines(`
e2e4 e7e5 g1f3 b8c6 f1b5 a7a6
e2e4 e7e5 g1f3 b8c6 f1c4 f8c5
e2e4 e7e5 g1f3 b8c6 f1c4 g8f6
e2e4 e7e5 g1f3 b8c6 d2d4 e5d4 f3d4
e2e4 e7e5 g1f3 g8f6 f3e5 d7d6
e2e4 e7e5 b1c3 g8f6
e2e4 e7e5 f2f4 e5f4
e2e4 c7c5 g1f3 d7d6 d2d4 c5d4 f3d4 g8f6
e2e4 c7c5 g1f3 b8c6 d2d4 c5d4 f3d4
e2e4 c7c5 g1f3 e7e6 d2d4 c5d4 f3d4
e2e4 c7c5 b1c3 b8c6 g2g3
e2e4 c7c5 c2c3 g8f6 e4e5 f6d5
e2e4 e7e6 d2d4 d7d5 b1c3 g8f6
e2e4 e7e6 d2d4 d7d5 e4e5 c7c5
e2e4 e7e6 d2d4 d7d5 b1d2 c7c5
e2e4 c7c6 d2d4 d7d5 e4e5 c8f5
e2e4 c7c6 d2d4 d7d5 b1c3 d5e4 c3e4
e2e4 d7d5 e4d5 d8d5 b1c3 d5a5
e2e4 d7d6 d2d4 g8f6 b1c3 g7g6
e2e4 g7g6 d2d4 f8g7 b1c3 d7d6
e2e4 g8f6 e4e5 f6d5 d2d4 d7d6
d2d4 d7d5 c2c4 e7e6 b1c3 g8f6
d2d4 d7d5 c2c4 c7c6 g1f3 g8f6
d2d4 d7d5 c2c4 d5c4 g1f3 g8f6
d2d4 d7d5 g1f3 g8f6 c1f4 e7e6
d2d4 d7d5 c1f4 g8f6 e2e3 c7c5
d2d4 g8f6 c2c4 e7e6 b1c3 f8b4
d2d4 g8f6 c2c4 e7e6 g1f3 b7b6
d2d4 g8f6 c2c4 g7g6 b1c3 f8g7 e2e4 d7d6
d2d4 g8f6 c2c4 g7g6 b1c3 d7d5
d2d4 g8f6 c2c4 c7c5 d4d5 e7e6
d2d4 g8f6 c2c4 c7c5 d4d5 b7b5
d2d4 f7f5 g2g3 g8f6 f1g2 g7g6
d2d4 g8f6 g1f3 e7e6 c1g5 h7h6
d2d4 e7e6 c2c4 f8b4 c1d2
c2c4 e7e5 b1c3 g8f6 g1f3 b8c6
c2c4 c7c5 g1f3 g8f6 b1c3 b8c6
c2c4 g8f6 b1c3 e7e6 e2e4 d7d5
c2c4 e7e6 g1f3 d7d5 g2g3 g8f6
g1f3 d7d5 g2g3 g8f6 f1g2 c7c6
g1f3 g8f6 c2c4 g7g6 b2b3 f8g7
g1f3 c7c5 c2c4 b8c6 d2d4 c5d4
b2b3 e7e5 c1b2 b8c6 e2e3 g8f6
f2f4 d7d5 g1f3 g8f6 e2e3 g7g6
g2g3 e7e5 f1g2 d7d5 d2d3 g8f6
e2e4 e7e5 g1f3 d7d6 d2d4 g8f6
e2e4 b7b6 d2d4 c8b7 f1d3 e7e6
d2d4 d7d5 e2e3 g8f6 f1d3 c7c5
e2e4 c7c5 g1f3 g7g6 d2d4 c5d4 f3d4 b8c6
d2d4 c7c5 d4d5 e7e5 e2e4 d7d6
`)

func lines(s string) [][]string {
	var out [][]string
	for _, l := range strings.Split(strings.TrimSpace(s), "\n") {
		out = append(out, strings.Fields(l))
	}
	return out
}
