package store

import (
	"context"
	"fmt"
)

// migrationFills are the parts of migrations that SQL cannot do, by
// version: each runs in its migration's transaction, after its SQL, in
// every dialect.
var migrationFills = map[int]func(ctx context.Context, tx *countedTx) error{
	18: fillPublicBotNames,
}

// fillPublicBotNames writes the names of the computer players of the
// public games over before migration 0018 (which finishGame writes from
// then on).
func fillPublicBotNames(ctx context.Context, tx *countedTx) error {
	var ids []int64
	if err := tx.SelectContext(ctx, &ids, `SELECT id FROM games
		WHERE kind IN ('quick', 'lounge') AND (white_bot <> '' OR black_bot <> '')
			AND status IN ('finished', 'aborted')`); err != nil {
		return fmt.Errorf("public games with a computer player: %w", err)
	}
	update, err := tx.PreparexContext(ctx, `UPDATE games SET `+setPublicBotNames+` WHERE id = ?`)
	if err != nil {
		return err
	}
	defer update.Close()
	for _, id := range ids {
		white, black := publicBotNames(id)
		if _, err := update.ExecContext(ctx, white, black, id); err != nil {
			return fmt.Errorf("names of game %d: %w", id, err)
		}
	}
	return nil
}
