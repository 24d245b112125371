-- Version 7: the outbox. What the host announces on its own (a game ended on time, a
-- tournament's round opened) is written here in the transaction that makes it true, held by the
-- process that wrote it while that process posts it, and deleted once posted; a row whose hold
-- has run out (its process died) is posted by whichever process claims it next.

CREATE TABLE outbox (
    -- AUTOINCREMENT: an id is never reused, as it is a post's idempotency key.
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    platform   TEXT    NOT NULL,
    channel    TEXT    NOT NULL,
    body       TEXT    NOT NULL,
    created_at INTEGER NOT NULL,
    holder     TEXT    NOT NULL,
    held_until INTEGER NOT NULL,
    attempts   INTEGER NOT NULL DEFAULT 0 CHECK (attempts >= 0)
) STRICT;

CREATE INDEX outbox_due ON outbox (platform, held_until);
