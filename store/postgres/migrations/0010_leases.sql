-- 0010_leases (PostgreSQL): as migrations/0010_leases.sql.
CREATE TABLE game_leases (
    game_id    BIGINT PRIMARY KEY REFERENCES games (id),
    node       TEXT   NOT NULL CHECK (node <> ''),
    addr       TEXT   NOT NULL,
    epoch      BIGINT NOT NULL CHECK (epoch >= 1),
    expires_ms BIGINT NOT NULL
);

CREATE INDEX game_leases_node ON game_leases (node);
