-- Version 13 (step 014): puzzles from the community's own games. A finished game is scanned
-- once (`puzzle_scans` says so, with what it found and what it cost); each puzzle keeps its
-- source game, so it is seen only where that game may be. Puzzles and players have Glicko-2
-- puzzle ratings, kept apart from game ratings; an attempt is one player's try at one puzzle,
-- at most one open per player and channel.

CREATE TABLE puzzle_scans (
    game_id    INTEGER PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    found      INTEGER NOT NULL CHECK (found >= 0),
    cpu_ms     INTEGER NOT NULL CHECK (cpu_ms >= 0),
    scanned_at INTEGER NOT NULL
) STRICT;

CREATE TABLE puzzles (
    id         INTEGER PRIMARY KEY,
    game_id    INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    ply        INTEGER NOT NULL CHECK (ply > 0),
    variant    TEXT    NOT NULL,
    fen        TEXT    NOT NULL,
    solution   TEXT    NOT NULL,
    rating     REAL    NOT NULL,
    deviation  REAL    NOT NULL CHECK (deviation >= 0),
    volatility REAL    NOT NULL CHECK (volatility >= 0),
    attempts   INTEGER NOT NULL DEFAULT 0 CHECK (attempts >= 0),
    created_at INTEGER NOT NULL,
    UNIQUE (game_id, ply)
) STRICT;

CREATE INDEX puzzles_variant_rating ON puzzles (variant, rating);

CREATE TABLE puzzle_ratings (
    player_id  INTEGER NOT NULL REFERENCES players (id),
    variant    TEXT    NOT NULL,
    rating     REAL    NOT NULL,
    deviation  REAL    NOT NULL CHECK (deviation >= 0),
    volatility REAL    NOT NULL CHECK (volatility >= 0),
    attempts   INTEGER NOT NULL CHECK (attempts >= 0),
    updated_at INTEGER NOT NULL,
    PRIMARY KEY (player_id, variant)
) STRICT, WITHOUT ROWID;

CREATE TABLE puzzle_attempts (
    id          INTEGER PRIMARY KEY,
    puzzle_id   INTEGER NOT NULL REFERENCES puzzles (id) ON DELETE CASCADE,
    player_id   INTEGER NOT NULL REFERENCES players (id),
    platform    TEXT    NOT NULL,
    channel     TEXT    NOT NULL,
    progress    INTEGER NOT NULL DEFAULT 0 CHECK (progress >= 0),
    state       TEXT    NOT NULL DEFAULT 'open' CHECK (state IN ('open', 'solved', 'failed')),
    started_at  INTEGER NOT NULL,
    finished_at INTEGER,
    UNIQUE (puzzle_id, player_id)
) STRICT;

CREATE UNIQUE INDEX puzzle_attempts_open ON puzzle_attempts (platform, channel, player_id) WHERE state = 'open';
