-- Version 12 (step 013): the web. Every game and tournament gets an unguessable key, the only
-- way into its page (sequential ids never appear in a public address); existing rows get one
-- here (24 hex digits of a random UUID: 94 random bits), new rows from the writer. A place (a
-- Discord server, a Matrix room) lists its games, tournaments and players on the web only when
-- its managers turned that on.

ALTER TABLE games ADD COLUMN web_key TEXT;
UPDATE games SET web_key = substr(replace(gen_random_uuid()::text, '-', ''), 1, 24);
CREATE UNIQUE INDEX games_web_key ON games (web_key);

ALTER TABLE tournaments ADD COLUMN web_key TEXT;
UPDATE tournaments SET web_key = substr(replace(gen_random_uuid()::text, '-', ''), 1, 24);
CREATE UNIQUE INDEX tournaments_web_key ON tournaments (web_key);

CREATE TABLE place_settings (
    platform    TEXT    NOT NULL,
    server      TEXT    NOT NULL,
    web_listing BOOLEAN NOT NULL DEFAULT false,
    updated_at  BIGINT  NOT NULL,
    PRIMARY KEY (platform, server)
);
