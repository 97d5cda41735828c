-- Ratings (service/ratings): each player's rating per tenant and kind, the games rated or left
-- out (one row a game: its key makes a rating exactly once), and each tenant's policy.
CREATE TABLE ratings (
    tenant     text NOT NULL,
    kind       text NOT NULL,
    player_id  text COLLATE "C" NOT NULL,
    mu         double precision NOT NULL,  -- the skill's mean (openskill's Plackett-Luce)
    sigma      double precision NOT NULL,  -- its uncertainty
    ordinal    double precision NOT NULL,  -- mu - 3 sigma: the leaderboard's order
    games      integer NOT NULL,           -- games rated
    updated_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (tenant, kind, player_id)
);
CREATE INDEX ratings_leaderboard ON ratings (tenant, kind, ordinal DESC, player_id);

CREATE TABLE rated_games (
    tenant   text NOT NULL,
    game_id  text NOT NULL,
    kind     text NOT NULL,
    outcome  text NOT NULL,   -- RATED, EXCLUDED or SET_ASIDE
    reason   text NOT NULL,   -- EXCLUDED: why (BOT_SEAT, ...); SET_ASIDE: the error; RATED: ''
    rated_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (tenant, game_id)
);

CREATE TABLE rating_policies (
    tenant        text PRIMARY KEY,
    max_takebacks integer NOT NULL CHECK (max_takebacks >= 0),  -- more: the game is not rated
    updated_at    timestamptz NOT NULL DEFAULT now()
);
