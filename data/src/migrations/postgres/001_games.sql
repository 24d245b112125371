-- Version 1: players, games and their moves and offers, challenges, ratings. The same tables,
-- columns and rules as SQLite's version 1, in PostgreSQL's types: ids and times are BIGINT
-- (times are milliseconds since the Unix epoch), flags BOOLEAN.

CREATE TABLE players (
    id           BIGINT  GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    platform     TEXT    NOT NULL,
    user_id      TEXT    NOT NULL,
    display_name TEXT    NOT NULL,
    created_at   BIGINT  NOT NULL,
    updated_at   BIGINT  NOT NULL,
    UNIQUE (platform, user_id)
);

CREATE TABLE games (
    id           BIGINT  GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    platform     TEXT    NOT NULL,
    server       TEXT,
    channel      TEXT    NOT NULL,
    variant      TEXT    NOT NULL,
    white_id     BIGINT  NOT NULL REFERENCES players (id),
    black_id     BIGINT  NOT NULL REFERENCES players (id),
    start_fen    TEXT    NOT NULL,
    state        TEXT    NOT NULL CHECK (state IN ('active', 'finished', 'aborted')),
    result       TEXT             CHECK (result IN ('1-0', '0-1', '1/2-1/2')),
    reason       TEXT,
    base_ms      BIGINT           CHECK (base_ms >= 0),
    increment_ms BIGINT           CHECK (increment_ms >= 0),
    deadline     BIGINT,
    rated        BOOLEAN NOT NULL,
    created_at   BIGINT  NOT NULL,
    updated_at   BIGINT  NOT NULL,
    finished_at  BIGINT,
    CHECK ((state = 'finished') = (result IS NOT NULL)),
    CHECK ((state = 'active') = (finished_at IS NULL)),
    CHECK ((base_ms IS NULL) = (increment_ms IS NULL))
);

-- The rule the whole host relies on: one active game per channel.
CREATE UNIQUE INDEX games_one_active_per_channel ON games (platform, channel) WHERE state = 'active';
-- The clock scheduler's question: which active games are past their deadline?
CREATE INDEX games_active_deadline ON games (deadline) WHERE state = 'active' AND deadline IS NOT NULL;
CREATE INDEX games_active_white ON games (white_id) WHERE state = 'active';
CREATE INDEX games_active_black ON games (black_id) WHERE state = 'active';
CREATE INDEX games_finished_white ON games (white_id, finished_at) WHERE state = 'finished';
CREATE INDEX games_finished_black ON games (black_id, finished_at) WHERE state = 'finished';

-- Loading a game is one range scan of the primary key.
CREATE TABLE moves (
    game_id      BIGINT  NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    ply          INTEGER NOT NULL CHECK (ply >= 1),
    coord        TEXT    NOT NULL,
    san          TEXT    NOT NULL,
    fen_after    TEXT    NOT NULL,
    time_used_ms BIGINT  NOT NULL CHECK (time_used_ms >= 0),
    request_id   TEXT    NOT NULL,
    played_at    BIGINT  NOT NULL,
    PRIMARY KEY (game_id, ply),
    UNIQUE (game_id, request_id)
);

-- Standing draw and takeback offers; at most one of each kind per side.
CREATE TABLE offers (
    game_id    BIGINT  NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    kind       TEXT    NOT NULL CHECK (kind IN ('draw', 'takeback')),
    by_color   TEXT    NOT NULL CHECK (by_color IN ('white', 'black')),
    plies      INTEGER          CHECK (plies >= 1),
    at_ply     INTEGER NOT NULL CHECK (at_ply >= 0),
    created_at BIGINT  NOT NULL,
    PRIMARY KEY (game_id, kind, by_color),
    CHECK ((kind = 'takeback') = (plies IS NOT NULL))
);

-- An identity never hands out a number twice, so an old challenge's buttons never answer a
-- new one (SQLite needed AUTOINCREMENT for that, its version 3).
CREATE TABLE challenges (
    id            BIGINT  GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    platform      TEXT    NOT NULL,
    server        TEXT,
    channel       TEXT    NOT NULL,
    challenger_id BIGINT  NOT NULL REFERENCES players (id),
    challenged_id BIGINT           REFERENCES players (id),  -- NULL: open to anyone
    variant       TEXT    NOT NULL,
    color         TEXT    NOT NULL CHECK (color IN ('white', 'black', 'random')),
    base_ms       BIGINT           CHECK (base_ms >= 0),
    increment_ms  BIGINT           CHECK (increment_ms >= 0),
    rated         BOOLEAN NOT NULL,
    created_at    BIGINT  NOT NULL,
    expires_at    BIGINT  NOT NULL,
    CHECK ((base_ms IS NULL) = (increment_ms IS NULL))
);

CREATE INDEX challenges_channel ON challenges (platform, channel);
CREATE INDEX challenges_challenger ON challenges (challenger_id);
CREATE INDEX challenges_challenged ON challenges (challenged_id) WHERE challenged_id IS NOT NULL;
CREATE INDEX challenges_expiry ON challenges (expires_at);

-- Glicko-2 state per player and variant.
CREATE TABLE ratings (
    player_id  BIGINT           NOT NULL REFERENCES players (id),
    variant    TEXT             NOT NULL,
    rating     DOUBLE PRECISION NOT NULL,
    deviation  DOUBLE PRECISION NOT NULL CHECK (deviation >= 0),
    volatility DOUBLE PRECISION NOT NULL CHECK (volatility >= 0),
    games      BIGINT           NOT NULL CHECK (games >= 0),
    updated_at BIGINT           NOT NULL,
    PRIMARY KEY (player_id, variant)
);

CREATE INDEX ratings_leaderboard ON ratings (variant, rating DESC);
