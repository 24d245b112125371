-- Version 15 (step 016): the daily puzzle. A place (a Discord server, a Matrix room) whose
-- managers set it has a puzzle posted every day in a channel of theirs at a time of day (UTC,
-- in minutes after midnight); the row exists while it is on. Each day's post is claimed once per
-- place and day (days since 1970-01-01, UTC), with the channel it went to and the puzzle it
-- showed (none on a day there was none to show), so that no process posts it twice and no
-- puzzle is posted twice in a place.

CREATE TABLE daily_puzzles (
    platform TEXT    NOT NULL,
    server   TEXT    NOT NULL,
    channel  TEXT    NOT NULL,
    minute   INTEGER NOT NULL CHECK (minute >= 0 AND minute < 1440),
    set_at   INTEGER NOT NULL,
    PRIMARY KEY (platform, server)
) STRICT;

CREATE TABLE daily_posts (
    platform  TEXT    NOT NULL,
    server    TEXT    NOT NULL,
    day       INTEGER NOT NULL,
    channel   TEXT    NOT NULL,
    puzzle_id INTEGER REFERENCES puzzles (id) ON DELETE SET NULL,
    posted_at INTEGER NOT NULL,
    PRIMARY KEY (platform, server, day),
    UNIQUE (platform, server, puzzle_id)
) STRICT;

CREATE INDEX daily_posts_channel ON daily_posts (platform, channel, posted_at);
