-- Version 6: what several processes sharing one database need. A lease gives a named piece of
-- work (a tournament's step, a scheduler) to one holder until it expires; a reminder row says
-- which deadline of a game its player was last reminded of, so one process reminds once.

CREATE TABLE leases (
    name       TEXT   PRIMARY KEY,
    holder     TEXT   NOT NULL,
    expires_at BIGINT NOT NULL
);

CREATE TABLE reminders (
    game_id  BIGINT PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    deadline BIGINT NOT NULL
);

INSERT INTO reminders (game_id, deadline)
    SELECT g.id, m.value FROM meta m JOIN games g ON m.key = 'reminded:' || g.id;
