-- 0006_void (PostgreSQL): as migrations/0006_void.sql.
ALTER TABLE games ADD COLUMN voided_at TEXT;
