-- Version 11 (step 012): the ledger of a chat adapter whose network does not keep it (Matrix),
-- beside the games it serves, so that two processes share it and a backup restores it with
-- them. The events already answered (each answered once, whichever process got it), the
-- reactions that stand for buttons (a button works in every process and after a restart), and
-- each account's sync position (what the next start syncs from).

CREATE TABLE handled_events (
    platform   TEXT    NOT NULL,
    event_id   TEXT    NOT NULL,
    handled_at INTEGER NOT NULL,
    PRIMARY KEY (platform, event_id)
) STRICT;

CREATE INDEX handled_events_at ON handled_events (platform, handled_at);

CREATE TABLE reaction_buttons (
    platform   TEXT    NOT NULL,
    message_id TEXT    NOT NULL,
    key        TEXT    NOT NULL,
    command    TEXT    NOT NULL,
    channel    TEXT    NOT NULL,
    -- One user id a line.
    callers    TEXT    NOT NULL,
    private    INTEGER NOT NULL CHECK (private IN (0, 1)),
    used       INTEGER NOT NULL DEFAULT 0 CHECK (used IN (0, 1)),
    PRIMARY KEY (platform, message_id, key)
) STRICT;

CREATE TABLE sync_positions (
    platform TEXT NOT NULL,
    account  TEXT NOT NULL,
    token    TEXT NOT NULL,
    PRIMARY KEY (platform, account)
) STRICT;
