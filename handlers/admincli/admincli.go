// Package admincli is `satranc admin`: the administration commands (vip,
// restrict, admin, grant, item, chat, void, reports) run on the database,
// also while the server runs. The rules of each action are
// fairplay.Service's, the same the /admin pages call; this package reads
// the arguments and writes what happened, with the exit status. Package main
// parses the flags and opens the store.
package admincli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"time"

	"satranc/engine/account"
	"satranc/engine/chat"
	"satranc/engine/chips"
	"satranc/engine/cosmetics"
	"satranc/engine/fairplay"
	"satranc/engine/invisible"
)

// Usage is the help text of `satranc admin`, before its flags.
const Usage = `Usage: satranc admin [--db satranc.db] COMMAND

Commands:
  vip NAME on|off          set or clear a member's VIP status
  restrict NAME on|off     keep a member away from public tables, or let them back
  admin NAME on|off        make a member an administrator (the /admin pages), or
                           no longer one
  grant NAME CHIPS REASON  give a member 1 to 10000000 chips (recorded in the
                           ledger as an administrator's grant, with the reason)
  item NAME ITEM REASON    give a member a cosmetic item (a board theme or frame of
                           the catalogue, such as board_iznik), with the reason;
                           giving one they own changes nothing
  chat GAME                print a table's chat, for moderation
  void GAME                void a finished game's result: its chips, ratings,
                           experience and tournament points are taken back, once
  reports                  list the players' reports, newest first

Flags:
`

// Store is what the commands need of the database (store.Store): the
// administration service's writes, and the reads they print.
type Store interface {
	fairplay.Store
	SetAdmin(ctx context.Context, name string, on bool) error
	Reports(ctx context.Context, limit int) ([]fairplay.Report, error)
	ChatMessages(ctx context.Context, gameID int64) ([]chat.Message, error)
	UserByID(ctx context.Context, id int64) (account.User, error)
	UserByName(ctx context.Context, name string) (account.User, error)
}

// Run runs the command cmd (its name and arguments, which ArgsOK
// accepted) on st and returns the exit status: 0 on success, 1 on failure,
// 2 on a usage error. usage prints the command's help, for a command Run
// does not know.
func Run(ctx context.Context, st Store, cmd []string, usage func(), stdout, stderr io.Writer) int {
	if cmd[0] == "reports" {
		return printReports(ctx, st, stdout, stderr)
	}
	// The same service as the /admin pages. This process serves no pages,
	// so it announces nothing itself: a running server finds the void in
	// the database within seconds and tells its open pages (handlers/app watchVoids).
	svc := fairplay.NewService(st, nil)
	name := cmd[1]
	switch cmd[0] {
	case "vip", "restrict", "admin":
		on, ok := map[string]bool{"on": true, "off": false}[cmd[2]]
		if !ok {
			fmt.Fprintf(stderr, "satranc admin %s: want on or off, not %q\n", cmd[0], cmd[2])
			return 2
		}
		set := map[string]func(context.Context, string, bool) error{
			"vip": svc.SetVIP, "restrict": svc.SetRestricted, "admin": st.SetAdmin,
		}[cmd[0]]
		if err := set(ctx, name, on); err != nil {
			fmt.Fprintf(stderr, "satranc admin %s: %v\n", cmd[0], err)
			return 1
		}
		fmt.Fprintf(stdout, "%s %s: %s\n", cmd[0], name, cmd[2])
	case "grant":
		return grantChips(ctx, svc, name, cmd[2], strings.Join(cmd[3:], " "), stdout, stderr)
	case "item":
		return grantItemCmd(ctx, st, svc, cmd[1:], stdout, stderr)
	case "chat":
		return printChat(ctx, st, cmd[1], stdout, stderr)
	case "void":
		return voidGame(ctx, svc, cmd[1], stdout, stderr)
	default:
		fmt.Fprintf(stderr, "satranc admin: unknown command %q\n", cmd[0])
		usage()
		return 2
	}
	return 0
}

// ArgsOK reports whether cmd has the arguments its command needs:
// GAME for chat and void, NAME CHIPS and a reason of one or more words for
// grant, NAME on|off for the others.
func ArgsOK(cmd []string) bool {
	if len(cmd) == 0 {
		return false
	}
	switch cmd[0] {
	case "reports":
		return len(cmd) == 1
	case "chat", "void":
		return len(cmd) == 2
	case "grant", "item":
		return len(cmd) >= 4
	}
	return len(cmd) == 3
}

// gameArg reads a game number argument.
func gameArg(cmd, arg string, stderr io.Writer) (int64, bool) {
	id, err := strconv.ParseInt(arg, 10, 64)
	if err != nil || id <= 0 {
		fmt.Fprintf(stderr, "satranc admin %s: want a game number, not %q\n", cmd, arg)
		return 0, false
	}
	return id, true
}

// grantChips grants name the chips amount says, for reason, and prints the
// new balance. An amount that is not a whole number from 1 to
// fairplay.MaxGrant, or a reason that is not one line, is a usage error
// (2); a grant the ledger cannot hold (the balance would pass the int64
// range) is refused with a message of its own (1). Nothing is written in
// either case.
func grantChips(ctx context.Context, svc *fairplay.Service, name, amount, reason string, stdout, stderr io.Writer) int {
	n, err := fairplay.ParseGrant(amount)
	if err == nil {
		var bal int64
		if bal, err = svc.Grant(ctx, name, n, reason); err == nil {
			fmt.Fprintf(stdout, "granted %d chips to %s; balance %d\n", n, name, bal)
			return 0
		}
	}
	switch {
	case errors.Is(err, fairplay.ErrInvalidGrant):
		fmt.Fprintf(stderr, "satranc admin grant: want a whole number of chips from 1 to %d, not %q\n", fairplay.MaxGrant, amount)
		return 2
	case errors.Is(err, fairplay.ErrInvalidReason):
		fmt.Fprintf(stderr, "satranc admin grant: give a reason of 1 to %d characters on one line\n", fairplay.MaxReason)
		return 2
	case errors.Is(err, chips.ErrOverflow):
		fmt.Fprintf(stderr, "satranc admin grant: %d chips would take a balance past the largest the ledger holds (%d); nothing was granted\n", n, int64(math.MaxInt64))
		return 1
	}
	fmt.Fprintf(stderr, "satranc admin grant: %v\n", err)
	return 1
}

// voidGame voids game's result (fairplay.Service.Void, at the current
// time) and says so.
func voidGame(ctx context.Context, svc *fairplay.Service, game string, stdout, stderr io.Writer) int {
	id, ok := gameArg("void", game, stderr)
	if !ok {
		return 2
	}
	if err := svc.Void(ctx, id, time.Now()); err != nil {
		fmt.Fprintf(stderr, "satranc admin void: %v\n", err)
		return 1
	}
	fmt.Fprintf(stdout, "voided game %d: its chips, ratings, experience and tournament points are taken back\n", id)
	return 0
}

// printReports writes the players' reports, newest first, one a line:
// time, game, reporter, reported player ("computer" for a bot), reason.
// Invisible characters stored before reasons were stripped of them are
// printed escaped (\u202e), as in printChat.
func printReports(ctx context.Context, st Store, stdout, stderr io.Writer) int {
	reports, err := st.Reports(ctx, 1000)
	if err != nil {
		fmt.Fprintf(stderr, "satranc admin reports: %v\n", err)
		return 1
	}
	for _, r := range reports {
		reported := r.ReportedName
		if reported == "" {
			reported = "computer"
		}
		fmt.Fprintf(stdout, "%s game %d: %s reports %s: %s\n",
			r.At.UTC().Format("2006-01-02 15:04:05"), r.GameID, invisible.Escape(r.ReporterName), invisible.Escape(reported), invisible.Escape(r.Reason))
	}
	return 0
}

// printChat writes a game's chat, one message a line: time, sender, text.
// Zero-width and text-direction characters, which CleanChat strips today
// but older messages may hold, are printed escaped (\u202e) so that a
// line never shows reversed or hides text in the terminal.
func printChat(ctx context.Context, st Store, game string, stdout, stderr io.Writer) int {
	id, ok := gameArg("chat", game, stderr)
	if !ok {
		return 2
	}
	msgs, err := st.ChatMessages(ctx, id)
	if err != nil {
		fmt.Fprintf(stderr, "satranc admin chat: %v\n", err)
		return 1
	}
	names := map[int64]string{}
	for _, m := range msgs {
		if _, ok := names[m.User]; !ok {
			u, err := st.UserByID(ctx, m.User)
			if err != nil {
				fmt.Fprintf(stderr, "satranc admin chat: %v\n", err)
				return 1
			}
			names[m.User] = u.Name
		}
		fmt.Fprintf(stdout, "%s %s: %s\n", m.At.UTC().Format("2006-01-02 15:04:05"), invisible.Escape(names[m.User]), invisible.Escape(m.Body))
	}
	return 0
}

// grantItemCmd implements `satranc admin item NAME ITEM REASON...`: an
// administrator's gift of a cosmetic item, kept with its reason.
func grantItemCmd(ctx context.Context, st Store, svc *fairplay.Service, args []string, stdout, stderr io.Writer) int {
	if len(args) < 3 {
		fmt.Fprint(stderr, "satranc admin item: want NAME ITEM REASON\n")
		return 2
	}
	name, item, reason := args[0], args[1], strings.Join(args[2:], " ")
	if _, err := fairplay.ParseReason(reason); err != nil {
		fmt.Fprintf(stderr, "satranc admin item: give a reason of 1 to %d characters on one line\n", fairplay.MaxReason)
		return 2
	}
	u, err := st.UserByName(ctx, name)
	if err != nil {
		fmt.Fprintf(stderr, "satranc admin item: %v\n", err)
		return 1
	}
	granted, err := svc.GiveItem(ctx, u.ID, item, reason)
	switch {
	case errors.Is(err, cosmetics.ErrUnknownItem):
		var ids []string
		for _, it := range cosmetics.Givable() {
			ids = append(ids, it.ID)
		}
		fmt.Fprintf(stderr, "satranc admin item: no item %q; items to give: %s\n", item, strings.Join(ids, " "))
		return 2
	case err != nil:
		fmt.Fprintf(stderr, "satranc admin item: %v\n", err)
		return 1
	case !granted:
		fmt.Fprintf(stdout, "%s already owns %s\n", u.Name, item)
	default:
		fmt.Fprintf(stdout, "gave %s to %s\n", item, u.Name)
	}
	return 0
}
