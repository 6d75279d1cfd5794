-- The game record (docs/server.md section 8). Portable SQL: the same text runs on SQLite and
-- PostgreSQL. Times are milliseconds since the Unix epoch; seeds are the u64 bit pattern.
CREATE TABLE games (
    id TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    config TEXT NOT NULL,
    seed BIGINT NOT NULL,
    rules_version TEXT NOT NULL,
    status TEXT NOT NULL,
    step BIGINT NOT NULL,
    to_act INTEGER,
    result TEXT,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL
);
CREATE INDEX games_status_updated ON games (status, updated_at);

CREATE TABLE seats (
    game_id TEXT NOT NULL REFERENCES games (id),
    seat INTEGER NOT NULL,
    kind TEXT NOT NULL,
    token_hash TEXT,
    PRIMARY KEY (game_id, seat)
);

-- Append-only: one row per entry of the game's history. The key makes a second write of the
-- same step fail, also between processes sharing one PostgreSQL database.
CREATE TABLE moves (
    game_id TEXT NOT NULL REFERENCES games (id),
    step BIGINT NOT NULL,
    seat INTEGER NOT NULL,
    action BIGINT NOT NULL,
    at BIGINT NOT NULL,
    PRIMARY KEY (game_id, step)
);
