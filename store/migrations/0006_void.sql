-- 0006_void: an administrator may void a game's result (SPEC section 9).
-- voided_at is when it was voided (NULL: the result stands). Voiding
-- reverses the game's Elo changes and chip settlement once, in the
-- transaction that sets voided_at; tournament standings leave voided games
-- out, so their points go with it.
ALTER TABLE games ADD COLUMN voided_at TEXT;
