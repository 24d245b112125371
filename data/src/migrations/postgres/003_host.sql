-- Version 3: the host's own small facts (its heartbeat). (SQLite's version 3 also renumbered
-- challenges so that numbers are never reused; PostgreSQL's identity never reused them.)

CREATE TABLE meta (
    key   TEXT   PRIMARY KEY,
    value BIGINT NOT NULL
);
