-- The archive of finished games: one row a game, written once it has finished (and upserted
-- again if the game is archived twice), read back when the game is no longer in Redis.
CREATE TABLE archived_games (
    game_id     text PRIMARY KEY,
    tenant      text NOT NULL,               -- the tenant that created it (listings per tenant)
    kind        text NOT NULL,               -- the game's kind (TREELINE, ...)
    status      text NOT NULL,               -- FINISHED or ABANDONED
    version     integer NOT NULL,            -- the game's last version: an upsert never goes back
    created     double precision NOT NULL,   -- when it was created (Unix seconds)
    ended       double precision NOT NULL,   -- when it ended (Unix seconds)
    player_ids  text[] NOT NULL DEFAULT '{}', -- its seats' player ids (listings per player)
    -- its index member (service/store/indexes.py: created in ms, 15 digits, ':', the game id):
    -- listings read the archive in the Redis indexes' order, compared byte by byte as there
    member      text COLLATE "C" NOT NULL,
    record      bytea NOT NULL,              -- the game's Redis hash: a msgpack map of its fields
    compact     bytea NOT NULL,              -- service/core/records/compact.py's pack of the exported record
    archived_at timestamptz NOT NULL DEFAULT now()  -- when this row was last written
);
CREATE INDEX archived_games_by_tenant ON archived_games (tenant, member DESC);
CREATE INDEX archived_games_by_kind ON archived_games (tenant, kind, member DESC);
CREATE INDEX archived_games_by_status ON archived_games (tenant, status, member DESC);
CREATE INDEX archived_games_by_player ON archived_games USING gin (player_ids);
