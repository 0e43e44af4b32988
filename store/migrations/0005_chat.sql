-- 0005_chat: table chat (SPEC section 9), kept with the game for
-- moderation. body is at most 140 characters, checked by engine/play;
-- created_at is in the stored time layout, as elsewhere.
CREATE TABLE chat_messages (
    id         INTEGER PRIMARY KEY,
    game_id    INTEGER NOT NULL REFERENCES games (id),
    user_id    INTEGER NOT NULL REFERENCES users (id),
    body       TEXT NOT NULL CHECK (body <> ''),
    created_at TEXT NOT NULL
);

CREATE INDEX chat_messages_game ON chat_messages (game_id, id);
