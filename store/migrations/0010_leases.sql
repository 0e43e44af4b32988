-- 0010_leases: which node owns each live game, when several nodes share
-- one database (docs/scaling.md). A single server never writes here.
--
-- A lease names the owning node (its id, unique per process start) and
-- the address other nodes forward the game's requests to; expires_ms is
-- the database's clock, in Unix milliseconds, past which another node may
-- take the game over; epoch counts the changes of owner.
CREATE TABLE game_leases (
    game_id    INTEGER PRIMARY KEY REFERENCES games (id),
    node       TEXT    NOT NULL CHECK (node <> ''),
    addr       TEXT    NOT NULL,
    epoch      INTEGER NOT NULL CHECK (epoch >= 1),
    expires_ms INTEGER NOT NULL
) STRICT;

CREATE INDEX game_leases_node ON game_leases (node);
