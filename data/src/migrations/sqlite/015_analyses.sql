-- Version 14 (step 015): a game's analysis, kept once `/analyse` has run, so that its page can
-- show the evaluation graph and the marked moves without searching again. One row per game
-- (asking again replaces it), and one per position: the evaluation after `ply` plies from
-- White's side (centipawns, or a mate with its winner), and for the move that led there
-- (`ply` > 0) its judgement and the engine's better move, where it had one.

CREATE TABLE analyses (
    game_id        INTEGER PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    white_accuracy REAL,
    black_accuracy REAL,
    analysed_at    INTEGER NOT NULL
) STRICT;

CREATE TABLE analysis_plies (
    game_id     INTEGER NOT NULL REFERENCES analyses (game_id) ON DELETE CASCADE,
    ply         INTEGER NOT NULL CHECK (ply >= 0),
    centipawns  INTEGER,
    mate_winner TEXT CHECK (mate_winner IN ('white', 'black')),
    mate_moves  INTEGER CHECK (mate_moves >= 0),
    judgement   TEXT CHECK (judgement IN ('inaccuracy', 'mistake', 'blunder')),
    better      TEXT,
    CHECK ((centipawns IS NULL) = (mate_winner IS NOT NULL)),
    CHECK ((mate_winner IS NULL) = (mate_moves IS NULL)),
    PRIMARY KEY (game_id, ply)
) STRICT;
