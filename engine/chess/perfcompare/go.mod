module satranc/engine/chess/perfcompare

go 1.26.0

require (
	github.com/corentings/chess/v2 v2.3.2
	satranc v0.0.0
)

require golang.org/x/exp v0.0.0-20250128182459-e0ece0dbea4c // indirect

replace satranc => ../../..
