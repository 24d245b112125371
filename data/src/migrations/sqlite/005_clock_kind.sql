-- Version 5: a time control says which kind it is (correspondence: an allowance per move; live:
-- a budget per game plus an increment) instead of the host guessing from its size. Rows written
-- before get today's rule: a base of a day or more is correspondence.
--
-- SQLite cannot add a table constraint to a table, so the three tables that hold a time control
-- are rebuilt (the procedure of SQLite's ALTER TABLE page: the store runs migrations with foreign
-- key enforcement off, and this step ends with a foreign key check).

CREATE TABLE games_v5 (
    id           INTEGER PRIMARY KEY,
    platform     TEXT    NOT NULL,
    server       TEXT,
    channel      TEXT    NOT NULL,
    variant      TEXT    NOT NULL,
    white_id     INTEGER NOT NULL REFERENCES players (id),
    black_id     INTEGER NOT NULL REFERENCES players (id),
    start_fen    TEXT    NOT NULL,
    state        TEXT    NOT NULL CHECK (state IN ('active', 'finished', 'aborted')),
    result       TEXT             CHECK (result IN ('1-0', '0-1', '1/2-1/2')),
    reason       TEXT,
    clock_kind   TEXT             CHECK (clock_kind IN ('correspondence', 'live')),
    base_ms      INTEGER          CHECK (base_ms >= 0),
    increment_ms INTEGER          CHECK (increment_ms >= 0),
    deadline     INTEGER,
    rated        INTEGER NOT NULL CHECK (rated IN (0, 1)),
    pairing_id   INTEGER          REFERENCES pairings (id),
    created_at   INTEGER NOT NULL,
    updated_at   INTEGER NOT NULL,
    finished_at  INTEGER,
    CHECK ((state = 'finished') = (result IS NOT NULL)),
    CHECK ((state = 'active') = (finished_at IS NULL)),
    CHECK ((base_ms IS NULL) = (increment_ms IS NULL)),
    CHECK ((base_ms IS NULL) = (clock_kind IS NULL))
) STRICT;

INSERT INTO games_v5 (id, platform, server, channel, variant, white_id, black_id, start_fen, state,
        result, reason, clock_kind, base_ms, increment_ms, deadline, rated, pairing_id, created_at,
        updated_at, finished_at)
    SELECT id, platform, server, channel, variant, white_id, black_id, start_fen, state, result,
        reason,
        CASE WHEN base_ms IS NULL THEN NULL WHEN base_ms >= 86400000 THEN 'correspondence' ELSE 'live' END,
        base_ms, increment_ms, deadline, rated, pairing_id, created_at, updated_at, finished_at
    FROM games;
DROP TABLE games;
ALTER TABLE games_v5 RENAME TO games;

CREATE UNIQUE INDEX games_one_active_per_channel ON games (platform, channel) WHERE state = 'active';
CREATE INDEX games_active_deadline ON games (deadline) WHERE state = 'active' AND deadline IS NOT NULL;
CREATE INDEX games_active_white ON games (white_id) WHERE state = 'active';
CREATE INDEX games_active_black ON games (black_id) WHERE state = 'active';
CREATE INDEX games_finished_white ON games (white_id, finished_at) WHERE state = 'finished';
CREATE INDEX games_finished_black ON games (black_id, finished_at) WHERE state = 'finished';
CREATE INDEX games_pairing ON games (pairing_id) WHERE pairing_id IS NOT NULL;

CREATE TABLE challenges_v5 (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    platform      TEXT    NOT NULL,
    server        TEXT,
    channel       TEXT    NOT NULL,
    challenger_id INTEGER NOT NULL REFERENCES players (id),
    challenged_id INTEGER          REFERENCES players (id),  -- NULL: open to anyone
    variant       TEXT    NOT NULL,
    color         TEXT    NOT NULL CHECK (color IN ('white', 'black', 'random')),
    clock_kind    TEXT             CHECK (clock_kind IN ('correspondence', 'live')),
    base_ms       INTEGER          CHECK (base_ms >= 0),
    increment_ms  INTEGER          CHECK (increment_ms >= 0),
    rated         INTEGER NOT NULL CHECK (rated IN (0, 1)),
    created_at    INTEGER NOT NULL,
    expires_at    INTEGER NOT NULL,
    CHECK ((base_ms IS NULL) = (increment_ms IS NULL)),
    CHECK ((base_ms IS NULL) = (clock_kind IS NULL))
) STRICT;

INSERT INTO challenges_v5 (id, platform, server, channel, challenger_id, challenged_id, variant,
        color, clock_kind, base_ms, increment_ms, rated, created_at, expires_at)
    SELECT id, platform, server, channel, challenger_id, challenged_id, variant, color,
        CASE WHEN base_ms IS NULL THEN NULL WHEN base_ms >= 86400000 THEN 'correspondence' ELSE 'live' END,
        base_ms, increment_ms, rated, created_at, expires_at
    FROM challenges;
-- Challenge numbers are never reused (version 3): the new table counts on from the old one's
-- last number, not from its highest surviving row.
DELETE FROM sqlite_sequence WHERE name = 'challenges_v5';
INSERT INTO sqlite_sequence (name, seq) SELECT 'challenges_v5', seq FROM sqlite_sequence WHERE name = 'challenges';
DROP TABLE challenges;
ALTER TABLE challenges_v5 RENAME TO challenges;

CREATE INDEX challenges_channel ON challenges (platform, channel);
CREATE INDEX challenges_challenger ON challenges (challenger_id);
CREATE INDEX challenges_challenged ON challenges (challenged_id) WHERE challenged_id IS NOT NULL;
CREATE INDEX challenges_expiry ON challenges (expires_at);

CREATE TABLE tournaments_v5 (
    id                 INTEGER PRIMARY KEY,
    platform           TEXT    NOT NULL,
    server             TEXT    NOT NULL,
    channel            TEXT    NOT NULL,
    organiser_id       INTEGER NOT NULL REFERENCES players (id),
    name               TEXT    NOT NULL,
    variant            TEXT    NOT NULL,
    format             TEXT    NOT NULL CHECK (format IN ('swiss', 'round-robin', 'knockout')),
    rounds             INTEGER          CHECK (rounds >= 1),  -- NULL: set by the format at the start
    double_round_robin INTEGER NOT NULL DEFAULT 0 CHECK (double_round_robin IN (0, 1)),
    clock_kind         TEXT             CHECK (clock_kind IN ('correspondence', 'live')),
    base_ms            INTEGER          CHECK (base_ms >= 0),
    increment_ms       INTEGER          CHECK (increment_ms >= 0),
    rated              INTEGER NOT NULL CHECK (rated IN (0, 1)),
    starts_at          INTEGER NOT NULL,
    state              TEXT    NOT NULL CHECK (state IN ('open', 'running', 'finished', 'cancelled')),
    created_at         INTEGER NOT NULL,
    updated_at         INTEGER NOT NULL,
    CHECK ((base_ms IS NULL) = (increment_ms IS NULL)),
    CHECK ((base_ms IS NULL) = (clock_kind IS NULL))
) STRICT;

INSERT INTO tournaments_v5 (id, platform, server, channel, organiser_id, name, variant, format,
        rounds, double_round_robin, clock_kind, base_ms, increment_ms, rated, starts_at, state,
        created_at, updated_at)
    SELECT id, platform, server, channel, organiser_id, name, variant, format, rounds,
        double_round_robin,
        CASE WHEN base_ms IS NULL THEN NULL WHEN base_ms >= 86400000 THEN 'correspondence' ELSE 'live' END,
        base_ms, increment_ms, rated, starts_at, state, created_at, updated_at
    FROM tournaments;
DROP TABLE tournaments;
ALTER TABLE tournaments_v5 RENAME TO tournaments;

CREATE INDEX tournaments_server ON tournaments (platform, server, starts_at);
CREATE INDEX tournaments_open_start ON tournaments (starts_at) WHERE state = 'open';
