-- 0013_sound (PostgreSQL): as migrations/0013_sound.sql.
ALTER TABLE users ADD COLUMN sound_off BOOLEAN NOT NULL DEFAULT FALSE;
