-- Version 17 (step 018): team games decided by vote (see the SQLite migration of the same step).
CREATE TABLE team_games (
    game_id   BIGINT PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    window_ms BIGINT NOT NULL CHECK (window_ms > 0)
);

CREATE TABLE votes (
    game_id   BIGINT NOT NULL REFERENCES team_games (game_id) ON DELETE CASCADE,
    ply       BIGINT NOT NULL CHECK (ply >= 0),
    voter_id  BIGINT NOT NULL REFERENCES players (id) ON DELETE CASCADE,
    coord     TEXT   NOT NULL,
    san       TEXT   NOT NULL,
    seq       BIGINT NOT NULL CHECK (seq > 0),
    voted_at  BIGINT NOT NULL,
    PRIMARY KEY (game_id, ply, voter_id),
    UNIQUE (game_id, ply, seq)
);

CREATE TABLE team_challenges (
    challenge_id BIGINT PRIMARY KEY REFERENCES challenges (id) ON DELETE CASCADE,
    window_ms    BIGINT NOT NULL CHECK (window_ms > 0)
);
