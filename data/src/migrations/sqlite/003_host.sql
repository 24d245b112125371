-- Version 3: the host's own small facts (its heartbeat), and challenge numbers that are never
-- reused.

CREATE TABLE meta (
    key   TEXT    PRIMARY KEY,
    value INTEGER NOT NULL
) STRICT, WITHOUT ROWID;

-- A challenge's number is on its Accept and Decline buttons. Without AUTOINCREMENT, SQLite hands
-- the number of a challenge just answered to the next one, and an old button would answer it.
CREATE TABLE challenges_numbered (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    platform      TEXT    NOT NULL,
    server        TEXT,
    channel       TEXT    NOT NULL,
    challenger_id INTEGER NOT NULL REFERENCES players (id),
    challenged_id INTEGER          REFERENCES players (id),  -- NULL: open to anyone
    variant       TEXT    NOT NULL,
    color         TEXT    NOT NULL CHECK (color IN ('white', 'black', 'random')),
    base_ms       INTEGER          CHECK (base_ms >= 0),
    increment_ms  INTEGER          CHECK (increment_ms >= 0),
    rated         INTEGER NOT NULL CHECK (rated IN (0, 1)),
    created_at    INTEGER NOT NULL,
    expires_at    INTEGER NOT NULL,
    CHECK ((base_ms IS NULL) = (increment_ms IS NULL))
) STRICT;

INSERT INTO challenges_numbered SELECT * FROM challenges;
DROP TABLE challenges;
ALTER TABLE challenges_numbered RENAME TO challenges;

CREATE INDEX challenges_channel ON challenges (platform, channel);
CREATE INDEX challenges_challenger ON challenges (challenger_id);
CREATE INDEX challenges_challenged ON challenges (challenged_id) WHERE challenged_id IS NOT NULL;
CREATE INDEX challenges_expiry ON challenges (expires_at);
