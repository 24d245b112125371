-- Version 9: the live (open or running) tournaments of a server and of an organiser are found
-- by index. A tournament command loads only what it needs, and creating one counts the live
-- tournaments of the server and of the organiser against the host's limits.

CREATE INDEX tournaments_server_live ON tournaments (platform, server, id) WHERE state IN ('open', 'running');
CREATE INDEX tournaments_organiser_live ON tournaments (organiser_id) WHERE state IN ('open', 'running');
