-- Version 6: what several processes sharing one database need. A lease gives a named piece of
-- work (a tournament's step, a scheduler) to one holder until it expires; a reminder row says
-- which deadline of a game its player was last reminded of, so one process reminds once.

CREATE TABLE leases (
    name       TEXT    PRIMARY KEY,
    holder     TEXT    NOT NULL,
    expires_at INTEGER NOT NULL
) STRICT, WITHOUT ROWID;

CREATE TABLE reminders (
    game_id  INTEGER PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    deadline INTEGER NOT NULL
) STRICT;

-- The host kept these in meta as `reminded:<game>` until now.
INSERT INTO reminders (game_id, deadline)
    SELECT g.id, m.value FROM meta m JOIN games g ON m.key = 'reminded:' || g.id;
