-- Version 5: a time control says which kind it is instead of the host guessing from its size.
-- Rows written before get the old rule: a base of a day or more is correspondence.

ALTER TABLE games ADD COLUMN clock_kind TEXT CHECK (clock_kind IN ('correspondence', 'live'));
ALTER TABLE challenges ADD COLUMN clock_kind TEXT CHECK (clock_kind IN ('correspondence', 'live'));
ALTER TABLE tournaments ADD COLUMN clock_kind TEXT CHECK (clock_kind IN ('correspondence', 'live'));

UPDATE games SET clock_kind = CASE WHEN base_ms >= 86400000 THEN 'correspondence' ELSE 'live' END
    WHERE base_ms IS NOT NULL;
UPDATE challenges SET clock_kind = CASE WHEN base_ms >= 86400000 THEN 'correspondence' ELSE 'live' END
    WHERE base_ms IS NOT NULL;
UPDATE tournaments SET clock_kind = CASE WHEN base_ms >= 86400000 THEN 'correspondence' ELSE 'live' END
    WHERE base_ms IS NOT NULL;

ALTER TABLE games ADD CHECK ((base_ms IS NULL) = (clock_kind IS NULL));
ALTER TABLE challenges ADD CHECK ((base_ms IS NULL) = (clock_kind IS NULL));
ALTER TABLE tournaments ADD CHECK ((base_ms IS NULL) = (clock_kind IS NULL));
