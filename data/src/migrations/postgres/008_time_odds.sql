-- Version 8: time odds. A game may give its two sides different base times (the Armageddon
-- decider of a knockout: White more time, Black draw odds). Both columns are set, or neither;
-- neither, as in every row written before, means each side has the time control's `base_ms`.
-- Set only on a game with a clock.

ALTER TABLE games
    ADD COLUMN white_base_ms BIGINT CHECK (white_base_ms >= 0),
    ADD COLUMN black_base_ms BIGINT CHECK (black_base_ms >= 0),
    ADD CHECK ((black_base_ms IS NULL) = (white_base_ms IS NULL)),
    ADD CHECK (black_base_ms IS NULL OR base_ms IS NOT NULL);
