-- Version 3: the host's own small facts (its heartbeat), one integer per key.

CREATE TABLE meta (
    key   TEXT    PRIMARY KEY,
    value INTEGER NOT NULL
) STRICT, WITHOUT ROWID;
