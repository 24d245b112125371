-- Version 9 (step 011): tournaments the host paused because the chat platform keeps refusing
-- their places (no permission, a channel or server gone) or because Chimera lost their server
-- or room. A paused tournament stays `running`; the row says why and since when, and goes when
-- the organiser resumes it.

CREATE TABLE tournament_pauses (
    tournament_id BIGINT PRIMARY KEY REFERENCES tournaments (id) ON DELETE CASCADE,
    reason        TEXT   NOT NULL CHECK (reason IN ('refused', 'lost')),
    paused_at     BIGINT NOT NULL
);
