-- Version 2: tournaments, their entrants, rounds and pairings; games learn their pairing.

CREATE TABLE tournaments (
    id           INTEGER PRIMARY KEY,
    platform     TEXT    NOT NULL,
    server       TEXT    NOT NULL,
    channel      TEXT    NOT NULL,
    organiser_id INTEGER NOT NULL REFERENCES players (id),
    name         TEXT    NOT NULL,
    variant      TEXT    NOT NULL,
    format       TEXT    NOT NULL CHECK (format IN ('swiss', 'round-robin', 'knockout')),
    rounds       INTEGER          CHECK (rounds >= 1),  -- NULL: set by the format at the start
    base_ms      INTEGER          CHECK (base_ms >= 0),
    increment_ms INTEGER          CHECK (increment_ms >= 0),
    rated        INTEGER NOT NULL CHECK (rated IN (0, 1)),
    starts_at    INTEGER NOT NULL,
    state        TEXT    NOT NULL CHECK (state IN ('open', 'running', 'finished', 'cancelled')),
    created_at   INTEGER NOT NULL,
    updated_at   INTEGER NOT NULL,
    CHECK ((base_ms IS NULL) = (increment_ms IS NULL))
) STRICT;

CREATE INDEX tournaments_server ON tournaments (platform, server, starts_at);
CREATE INDEX tournaments_open_start ON tournaments (starts_at) WHERE state = 'open';

CREATE TABLE entrants (
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    player_id     INTEGER NOT NULL REFERENCES players (id),
    joined_at     INTEGER NOT NULL,
    withdrawn_at  INTEGER,
    PRIMARY KEY (tournament_id, player_id)
) STRICT, WITHOUT ROWID;

CREATE TABLE rounds (
    id            INTEGER PRIMARY KEY,
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    number        INTEGER NOT NULL CHECK (number >= 1),
    started_at    INTEGER NOT NULL,
    finished_at   INTEGER,
    UNIQUE (tournament_id, number)
) STRICT;

-- A pairing without black is a bye; its result is the points the bye scores.
CREATE TABLE pairings (
    id       INTEGER PRIMARY KEY,
    round_id INTEGER NOT NULL REFERENCES rounds (id) ON DELETE CASCADE,
    board    INTEGER NOT NULL CHECK (board >= 1),
    white_id INTEGER NOT NULL REFERENCES players (id),
    black_id INTEGER          REFERENCES players (id),
    result   TEXT             CHECK (result IN ('1-0', '0-1', '1/2-1/2', '+/-', '-/+', '-/-')),
    UNIQUE (round_id, board)
) STRICT;

-- A pairing may need more than one game (an aborted game replayed); each points at it.
ALTER TABLE games ADD COLUMN pairing_id INTEGER REFERENCES pairings (id);
CREATE INDEX games_pairing ON games (pairing_id) WHERE pairing_id IS NOT NULL;
