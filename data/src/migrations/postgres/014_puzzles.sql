-- Version 13 (step 014): puzzles from the community's own games. A finished game is scanned
-- once (`puzzle_scans` says so, with what it found and what it cost); each puzzle keeps its
-- source game, so it is seen only where that game may be. Puzzles and players have Glicko-2
-- puzzle ratings, kept apart from game ratings; an attempt is one player's try at one puzzle,
-- at most one open per player and channel.

CREATE TABLE puzzle_scans (
    game_id    BIGINT PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    found      BIGINT NOT NULL CHECK (found >= 0),
    cpu_ms     BIGINT NOT NULL CHECK (cpu_ms >= 0),
    scanned_at BIGINT NOT NULL
);

CREATE TABLE puzzles (
    id         BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    game_id    BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    ply        BIGINT NOT NULL CHECK (ply > 0),
    variant    TEXT    NOT NULL,
    fen        TEXT    NOT NULL,
    solution   TEXT    NOT NULL,
    rating     DOUBLE PRECISION    NOT NULL,
    deviation  DOUBLE PRECISION    NOT NULL CHECK (deviation >= 0),
    volatility DOUBLE PRECISION    NOT NULL CHECK (volatility >= 0),
    attempts   BIGINT NOT NULL DEFAULT 0 CHECK (attempts >= 0),
    created_at BIGINT NOT NULL,
    UNIQUE (game_id, ply)
);

CREATE INDEX puzzles_variant_rating ON puzzles (variant, rating);

CREATE TABLE puzzle_ratings (
    player_id  BIGINT NOT NULL REFERENCES players (id),
    variant    TEXT    NOT NULL,
    rating     DOUBLE PRECISION    NOT NULL,
    deviation  DOUBLE PRECISION    NOT NULL CHECK (deviation >= 0),
    volatility DOUBLE PRECISION    NOT NULL CHECK (volatility >= 0),
    attempts   BIGINT NOT NULL CHECK (attempts >= 0),
    updated_at BIGINT NOT NULL,
    PRIMARY KEY (player_id, variant)
);

CREATE TABLE puzzle_attempts (
    id          BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    puzzle_id   BIGINT NOT NULL REFERENCES puzzles (id) ON DELETE CASCADE,
    player_id   BIGINT NOT NULL REFERENCES players (id),
    platform    TEXT    NOT NULL,
    channel     TEXT    NOT NULL,
    progress    BIGINT NOT NULL DEFAULT 0 CHECK (progress >= 0),
    state       TEXT    NOT NULL DEFAULT 'open' CHECK (state IN ('open', 'solved', 'failed')),
    started_at  BIGINT NOT NULL,
    finished_at BIGINT,
    UNIQUE (puzzle_id, player_id)
);

CREATE UNIQUE INDEX puzzle_attempts_open ON puzzle_attempts (platform, channel, player_id) WHERE state = 'open';
