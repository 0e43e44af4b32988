-- 0012_cluster_roles: which node holds each cluster-wide role, when several
-- nodes share one database (docs/scaling.md); 'lobby' is the node that
-- runs the lobby's queues, to which the other nodes forward them. A single
-- server never writes here.
--
-- As game_leases (0010): the holder's node id and the address other nodes
-- forward to; expires_ms is the database's clock, in Unix milliseconds,
-- past which another node may take the role; epoch counts the changes of
-- holder.
CREATE TABLE cluster_roles (
    name       TEXT    PRIMARY KEY CHECK (name <> ''),
    node       TEXT    NOT NULL CHECK (node <> ''),
    addr       TEXT    NOT NULL,
    epoch      INTEGER NOT NULL CHECK (epoch >= 1),
    expires_ms INTEGER NOT NULL
) STRICT;
