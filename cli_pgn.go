package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"

	"satranc/engine/chess"
)

const pgnUsage = `Usage: satranc pgn [--lang en|tr] [--format pgn|json] [--from en|tr] < games.pgn

Reads PGN games (or bare movetext) on stdin, replays each by the rules and
writes it back normalised: SAN in the letters of --lang, the Result tag set
by the rules when they ended the game (else kept from the input), and a
Termination tag. With --format json, writes one JSON object a line per game:
{"san":[...],"uci":[...],"fen":"...","end":"...","result":"..."}.

The input is read in the letters of --lang too, unless --from names its
own: K is the king in English and the rook (Kale) in Turkish, so a PGN in
English letters is turned into Turkish with --lang tr --from en. UCI such
as e2e4 is read in both. The first illegal or unreadable move stops the
run: it is reported on stderr with its game and move number, the games
before it are written, and the exit status is 1.

Flags:
`

// runPGN runs the pgn command: see pgnUsage and DESIGN.md ("The CLI
// contract").
func runPGN(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("pgn", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprint(stderr, pgnUsage)
		fs.PrintDefaults()
	}
	lang := fs.String("lang", "en", "piece letters of the SAN read and written: en (K Q R B N) or tr (Ş V K F A)")
	format := fs.String("format", "pgn", "output format: pgn or json")
	from := fs.String("from", "", "piece letters of the input's SAN, en or tr (default: those of --lang)")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "satranc pgn: unexpected argument %q (the games are read from stdin)\n", fs.Arg(0))
		fs.Usage()
		return 2
	}
	letters, err := chess.ParseLetters(*lang)
	if err != nil {
		fmt.Fprintf(stderr, "satranc pgn: --lang %q: want en or tr\n", *lang)
		fs.Usage()
		return 2
	}
	readLetters := letters
	if *from != "" {
		if readLetters, err = chess.ParseLetters(*from); err != nil {
			fmt.Fprintf(stderr, "satranc pgn: --from %q: want en or tr\n", *from)
			fs.Usage()
			return 2
		}
	}
	if *format != "pgn" && *format != "json" {
		fmt.Fprintf(stderr, "satranc pgn: --format %q: want pgn or json\n", *format)
		fs.Usage()
		return 2
	}

	out := bufio.NewWriter(stdout)
	enc := json.NewEncoder(out)
	enc.SetEscapeHTML(false)
	r := chess.NewPGNReader(stdin, readLetters)
	code := 0
	for {
		if err := ctx.Err(); err != nil {
			fmt.Fprintf(stderr, "satranc pgn: %v\n", err)
			code = 1
			break
		}
		g, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			var pe *chess.PGNError
			if errors.As(err, &pe) {
				fmt.Fprintf(stderr, "satranc %v\n", err) // "satranc pgn: game 3, move 12 (black) ..."
				if *from == "" && readLetters == chess.Turkish && errors.Is(err, chess.ErrIllegalMove) {
					fmt.Fprintln(stderr, "satranc pgn: the moves were read in Turkish letters (K is the rook); for a PGN in English letters add --from en")
				}
			} else {
				fmt.Fprintf(stderr, "satranc pgn: %v\n", err)
			}
			code = 1
			break
		}
		if *format == "json" {
			err = enc.Encode(g.Summary(letters))
		} else {
			err = chess.WritePGN(out, g.Normalize(), letters)
		}
		if err != nil {
			fmt.Fprintf(stderr, "satranc pgn: %v\n", err)
			return 1
		}
	}
	if err := out.Flush(); err != nil {
		fmt.Fprintf(stderr, "satranc pgn: %v\n", err)
		return 1
	}
	return code
}
