-- Version 15 (step 016): each player's own settings, and the direct messages that tell a player
-- it is their turn in a correspondence game (see the SQLite migration of the same step).
CREATE TABLE user_settings (
    player_id   BIGINT PRIMARY KEY REFERENCES players (id) ON DELETE CASCADE,
    theme       TEXT,
    coordinates BOOLEAN NOT NULL,
    bottom      TEXT    NOT NULL CHECK (bottom IN ('to_move', 'own')),
    described   BOOLEAN NOT NULL,
    turn_dm     BOOLEAN NOT NULL,
    quiet_from  BIGINT CHECK (quiet_from BETWEEN 0 AND 1439),
    quiet_to    BIGINT CHECK (quiet_to BETWEEN 0 AND 1439),
    zone        TEXT,
    updated_at  BIGINT  NOT NULL,
    CHECK ((quiet_from IS NULL) = (quiet_to IS NULL))
);

CREATE TABLE turn_notices (
    game_id   BIGINT  NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    ply       BIGINT  NOT NULL CHECK (ply >= 0),
    player_id BIGINT  NOT NULL REFERENCES players (id) ON DELETE CASCADE,
    due_at    BIGINT  NOT NULL,
    PRIMARY KEY (game_id, ply)
);

CREATE INDEX turn_notices_due ON turn_notices (due_at);
