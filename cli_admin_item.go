package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"satranc/engine/cosmetics"
	"satranc/engine/fairplay"
	"satranc/store"
)

// grantItemCmd implements `satranc admin item NAME ITEM REASON...`: an
// administrator's gift of a cosmetic item, kept with its reason.
func grantItemCmd(ctx context.Context, st *store.Store, svc *fairplay.Service, args []string, stdout, stderr io.Writer) int {
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
