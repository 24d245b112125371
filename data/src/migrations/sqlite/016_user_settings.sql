-- Version 15 (step 016): each player's own settings, and the direct messages that tell a player
-- it is their turn in a correspondence game.
--
-- A player has a settings row once they change one; without it every setting is its default.
-- `theme` is a board theme's name (NULL: the deployment's theme); `zone` an IANA time zone's
-- name for the quiet hours (NULL: UTC); the quiet hours are minutes after midnight in that zone,
-- from `quiet_from` until `quiet_to` (which may be earlier: the hours pass midnight).
CREATE TABLE user_settings (
    player_id   INTEGER PRIMARY KEY REFERENCES players (id) ON DELETE CASCADE,
    theme       TEXT,
    coordinates INTEGER NOT NULL CHECK (coordinates IN (0, 1)),
    bottom      TEXT    NOT NULL CHECK (bottom IN ('to_move', 'own')),
    described   INTEGER NOT NULL CHECK (described IN (0, 1)),
    turn_dm     INTEGER NOT NULL CHECK (turn_dm IN (0, 1)),
    quiet_from  INTEGER CHECK (quiet_from BETWEEN 0 AND 1439),
    quiet_to    INTEGER CHECK (quiet_to BETWEEN 0 AND 1439),
    zone        TEXT,
    updated_at  INTEGER NOT NULL,
    CHECK ((quiet_from IS NULL) = (quiet_to IS NULL))
) STRICT;

-- A direct message owed to `player_id`: it became their turn in `game_id` at `ply`, and the
-- message is due at `due_at` (at once, or when their quiet hours end). One per game and ply; it
-- is deleted when it is sent, or dropped then if the game has moved on.
CREATE TABLE turn_notices (
    game_id   INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    ply       INTEGER NOT NULL CHECK (ply >= 0),
    player_id INTEGER NOT NULL REFERENCES players (id) ON DELETE CASCADE,
    due_at    INTEGER NOT NULL,
    PRIMARY KEY (game_id, ply)
) STRICT;

CREATE INDEX turn_notices_due ON turn_notices (due_at);
