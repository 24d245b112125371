-- Version 17 (step 018): team games decided by vote. A team game is an ordinary game whose
-- sides are teams (a player row per channel, see the host's `team`), with a vote window: each
-- move of a team is the most-voted of the votes its members cast while the window was open,
-- `window_ms` from the move before. One row per team game.
CREATE TABLE team_games (
    game_id   INTEGER PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    window_ms INTEGER NOT NULL CHECK (window_ms > 0)
) STRICT;

-- The standing vote of `voter_id` for the move after `ply` plies of `game_id`: one per voter
-- and window (voting again replaces it). `seq` counts the votes of the window in the order they
-- were cast (a changed vote is cast anew), so that a tie goes to the move whose earliest
-- standing vote came first, however close the votes' times.
CREATE TABLE votes (
    game_id   INTEGER NOT NULL REFERENCES team_games (game_id) ON DELETE CASCADE,
    ply       INTEGER NOT NULL CHECK (ply >= 0),
    voter_id  INTEGER NOT NULL REFERENCES players (id) ON DELETE CASCADE,
    coord     TEXT    NOT NULL,
    san       TEXT    NOT NULL,
    seq       INTEGER NOT NULL CHECK (seq > 0),
    voted_at  INTEGER NOT NULL,
    PRIMARY KEY (game_id, ply, voter_id),
    UNIQUE (game_id, ply, seq)
) STRICT;

-- A challenge from one team to another: the vote window of the game it offers. The challenge is
-- an ordinary row of `challenges` between the two teams' players, posted in the challenged
-- team's channel, where any member may accept it; it goes with its challenge.
CREATE TABLE team_challenges (
    challenge_id INTEGER PRIMARY KEY REFERENCES challenges (id) ON DELETE CASCADE,
    window_ms    INTEGER NOT NULL CHECK (window_ms > 0)
) STRICT;
