-- 0013_sound: the member's choice of sounds on the game page (moves,
-- captures, checks, start and end, the low-time warning; static/js/sounds.js).
-- 1 turns them off; the default plays them.
ALTER TABLE users ADD COLUMN sound_off INTEGER NOT NULL DEFAULT 0 CHECK (sound_off IN (0, 1));
