-- Version 4: what running a tournament needs beyond version 2: a double round robin, and each
-- entrant's rating when the tournament started, which fixes their starting rank (and so the
-- Berger table) however ratings move during the event.

ALTER TABLE tournaments ADD COLUMN double_round_robin INTEGER NOT NULL DEFAULT 0
    CHECK (double_round_robin IN (0, 1));
ALTER TABLE entrants ADD COLUMN start_rating INTEGER;
