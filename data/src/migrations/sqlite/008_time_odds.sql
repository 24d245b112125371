-- Version 8: time odds. A game may give its two sides different base times (the Armageddon
-- decider of a knockout: White more time, Black draw odds). Both columns are set, or neither;
-- neither, as in every row written before, means each side has the time control's `base_ms`.
-- Set only on a game with a clock. SQLite adds a column with its constraints (a column's CHECK
-- may name other columns), so the table is not rebuilt.

ALTER TABLE games ADD COLUMN white_base_ms INTEGER CHECK (white_base_ms >= 0);
ALTER TABLE games ADD COLUMN black_base_ms INTEGER
    CHECK (black_base_ms >= 0)
    CHECK ((black_base_ms IS NULL) = (white_base_ms IS NULL))
    CHECK (black_base_ms IS NULL OR base_ms IS NOT NULL);
