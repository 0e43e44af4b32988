-- 0012_cluster_roles (PostgreSQL): as migrations/0012_cluster_roles.sql.
CREATE TABLE cluster_roles (
    name       TEXT   PRIMARY KEY CHECK (name <> ''),
    node       TEXT   NOT NULL CHECK (node <> ''),
    addr       TEXT   NOT NULL,
    epoch      BIGINT NOT NULL CHECK (epoch >= 1),
    expires_ms BIGINT NOT NULL
);
