package store_test

import (
	"context"

	"satranc/store"
	"satranc/store/postgres"
)

func init() {
	store.OpenPostgres = func(ctx context.Context, url string) (*store.Store, error) {
		pg, err := postgres.Open(ctx, url)
		if err != nil {
			return nil, err
		}
		return pg.Store, nil
	}
	store.PostgresDialect = postgres.Dialect()
}
