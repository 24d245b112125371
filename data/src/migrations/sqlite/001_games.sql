-- Version 1: players, games and their moves and offers, challenges, ratings.
-- Every table is STRICT so a wrong type fails loudly instead of being stored as text.
-- Times are integer milliseconds since the Unix epoch.

CREATE TABLE players (
    id           INTEGER PRIMARY KEY,
    platform     TEXT    NOT NULL,
    user_id      TEXT    NOT NULL,
    display_name TEXT    NOT NULL,
    created_at   INTEGER NOT NULL,
    updated_at   INTEGER NOT NULL,
    UNIQUE (platform, user_id)
) STRICT;

CREATE TABLE games (
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
    base_ms      INTEGER          CHECK (base_ms >= 0),
    increment_ms INTEGER          CHECK (increment_ms >= 0),
    deadline     INTEGER,
    rated        INTEGER NOT NULL CHECK (rated IN (0, 1)),
    created_at   INTEGER NOT NULL,
    updated_at   INTEGER NOT NULL,
    finished_at  INTEGER,
    CHECK ((state = 'finished') = (result IS NOT NULL)),
    CHECK ((state = 'active') = (finished_at IS NULL)),
    CHECK ((base_ms IS NULL) = (increment_ms IS NULL))
) STRICT;

-- The rule the whole host relies on: one active game per channel.
CREATE UNIQUE INDEX games_one_active_per_channel ON games (platform, channel) WHERE state = 'active';
-- The clock scheduler's question: which active games are past their deadline?
CREATE INDEX games_active_deadline ON games (deadline) WHERE state = 'active' AND deadline IS NOT NULL;
CREATE INDEX games_active_white ON games (white_id) WHERE state = 'active';
CREATE INDEX games_active_black ON games (black_id) WHERE state = 'active';
CREATE INDEX games_finished_white ON games (white_id, finished_at) WHERE state = 'finished';
CREATE INDEX games_finished_black ON games (black_id, finished_at) WHERE state = 'finished';

-- Clustered by (game_id, ply): loading a game is one range scan.
CREATE TABLE moves (
    game_id      INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    ply          INTEGER NOT NULL CHECK (ply >= 1),
    coord        TEXT    NOT NULL,
    san          TEXT    NOT NULL,
    fen_after    TEXT    NOT NULL,
    time_used_ms INTEGER NOT NULL CHECK (time_used_ms >= 0),
    request_id   TEXT    NOT NULL,
    played_at    INTEGER NOT NULL,
    PRIMARY KEY (game_id, ply),
    UNIQUE (game_id, request_id)
) STRICT, WITHOUT ROWID;

-- Standing draw and takeback offers; at most one of each kind per side.
CREATE TABLE offers (
    game_id    INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    kind       TEXT    NOT NULL CHECK (kind IN ('draw', 'takeback')),
    by_color   TEXT    NOT NULL CHECK (by_color IN ('white', 'black')),
    plies      INTEGER          CHECK (plies >= 1),
    at_ply     INTEGER NOT NULL CHECK (at_ply >= 0),
    created_at INTEGER NOT NULL,
    PRIMARY KEY (game_id, kind, by_color),
    CHECK ((kind = 'takeback') = (plies IS NOT NULL))
) STRICT, WITHOUT ROWID;

CREATE TABLE challenges (
    id            INTEGER PRIMARY KEY,
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

CREATE INDEX challenges_channel ON challenges (platform, channel);
CREATE INDEX challenges_challenger ON challenges (challenger_id);
CREATE INDEX challenges_challenged ON challenges (challenged_id) WHERE challenged_id IS NOT NULL;
CREATE INDEX challenges_expiry ON challenges (expires_at);

-- Glicko-2 state per player and variant.
CREATE TABLE ratings (
    player_id  INTEGER NOT NULL REFERENCES players (id),
    variant    TEXT    NOT NULL,
    rating     REAL    NOT NULL,
    deviation  REAL    NOT NULL CHECK (deviation >= 0),
    volatility REAL    NOT NULL CHECK (volatility >= 0),
    games      INTEGER NOT NULL CHECK (games >= 0),
    updated_at INTEGER NOT NULL,
    PRIMARY KEY (player_id, variant)
) STRICT, WITHOUT ROWID;

CREATE INDEX ratings_leaderboard ON ratings (variant, rating DESC);
