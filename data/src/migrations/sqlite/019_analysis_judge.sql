-- Version 18 (step 019): which engine judged a kept analysis, so that a later look (the game's
-- page) says it as the `/analyse` answer did. `judge` is 'chimera' (Chimera's own engine, the
-- only one set for the variant), 'outside' (the outside UCI engine set for the variant) or
-- 'chimera-instead' (Chimera's own, because the outside one failed); `judge_engine` is the
-- outside engine's name, as it gave it, for the last two and nothing for the first.
--
-- Analyses kept before this step read as judged by Chimera's engine: it judged every analysis
-- until outside engines could be set (shortly before this step), and judges wherever none is
-- set. An older analysis that an outside engine did judge is named as Chimera's until
-- `/analyse` is asked again, which keeps the judge.
ALTER TABLE analyses ADD COLUMN judge TEXT NOT NULL DEFAULT 'chimera'
    CHECK (judge IN ('chimera', 'outside', 'chimera-instead'));
ALTER TABLE analyses ADD COLUMN judge_engine TEXT
    CHECK ((judge = 'chimera') = (judge_engine IS NULL));
