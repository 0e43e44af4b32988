-- 0014_chat_strict (PostgreSQL): nothing to do. migrations/0014_chat_strict.sql
-- makes SQLite's chat_messages STRICT, which PostgreSQL's tables always
-- are; this file keeps the two migration histories one to one.
SELECT 1;
