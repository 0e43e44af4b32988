-- 0014_chat_strict: chat_messages (0005) was made without STRICT, the
-- convention of every other table (0001_init.sql), so SQLite took a value
-- of any type in its columns where PostgreSQL refuses one
-- (TestSchemaParity). SQLite cannot make a table STRICT in place: the
-- table is made again and its rows copied, ids included. No table refers
-- to chat_messages, so dropping the old one breaks no foreign key.
CREATE TABLE chat_messages_strict (
    id         INTEGER PRIMARY KEY,
    game_id    INTEGER NOT NULL REFERENCES games (id),
    user_id    INTEGER NOT NULL REFERENCES users (id),
    body       TEXT    NOT NULL CHECK (body <> ''),
    created_at TEXT    NOT NULL
) STRICT;

INSERT INTO chat_messages_strict (id, game_id, user_id, body, created_at)
    SELECT id, game_id, user_id, body, created_at FROM chat_messages;
DROP TABLE chat_messages;
ALTER TABLE chat_messages_strict RENAME TO chat_messages;

CREATE INDEX chat_messages_game ON chat_messages (game_id, id);
