-- Version 4: a double round robin, and each entrant's rating when the tournament started, which
-- fixes their starting rank however ratings move during the event.

ALTER TABLE tournaments ADD COLUMN double_round_robin BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE entrants ADD COLUMN start_rating BIGINT;
