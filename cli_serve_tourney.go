package main

import (
	"fmt"
	"os"

	"satranc/engine/tourney"
)

// defaultTimeZone is where the tournaments' days begin unless --time-zone
// says otherwise: Satranç's home.
const defaultTimeZone = "Europe/Istanbul"

// loadPrizes reads the prize table from the JSON file at path, or returns
// tourney.DefaultPrizes for an empty path.
func loadPrizes(path string) (tourney.Prizes, error) {
	if path == "" {
		return tourney.DefaultPrizes(), nil
	}
	f, err := os.Open(path)
	if err != nil {
		return tourney.Prizes{}, err
	}
	defer f.Close()
	ps, err := tourney.ParsePrizes(f)
	if err != nil {
		return tourney.Prizes{}, fmt.Errorf("%s: %w", path, err)
	}
	return ps, nil
}
