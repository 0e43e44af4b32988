package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"

	"satranc/engine/bot"
	"satranc/engine/bot/uci"
)

// runUCI plays as a UCI engine on stdin and stdout:
//
//	satranc uci [--level easy|medium|hard|max] [--seed N]
//
// The protocol itself, as DESIGN.md lists it, is package engine/bot/uci;
// this reads the flags and hands the streams over.
func runUCI(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("uci", flag.ContinueOnError)
	fs.SetOutput(stderr)
	levelName := fs.String("level", "max", "strength: easy, medium, hard or max")
	seed := fs.Uint64("seed", 0, "seed of the random choices (0: a new one each run)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	level, err := bot.ParseLevel(*levelName)
	if err != nil || fs.NArg() > 0 {
		fmt.Fprintln(stderr, "satranc uci: --level must be easy, medium, hard or max")
		return 2
	}
	if *seed == 0 {
		*seed = rand.Uint64()
	}
	s := uci.NewSession(uci.Config{Version: buildVersion(), Level: level, Seed: *seed})
	if err := s.Run(ctx, stdin, stdout); err != nil {
		fmt.Fprintf(stderr, "satranc uci: %v\n", err)
		return 1
	}
	return 0
}
