-- The programme's content (issue 31 item 1, DESIGN.md section 14): rooms, tracks and
-- sessions, edited in the content seed like the rest of the content. Session times are wall
-- clock times in the event's zone (`site.time_zone`, IANA); the server turns them into
-- offsets per date from the zone. `conference seed` refuses an unknown zone, a session that
-- does not end after it starts and a room used by two sessions at once (src/seed/session_rules.rs).
-- The sessions replace the `schedule` rows; `/api/collections/schedule/records` lists them
-- in the schedule collection's shape.

CREATE TABLE rooms (
    slug TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    position BIGINT NOT NULL
);

CREATE TABLE tracks (
    slug TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    position BIGINT NOT NULL
);

CREATE TABLE sessions (
    slug TEXT PRIMARY KEY,
    title TEXT NOT NULL,
    description TEXT NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('keynote', 'technical', 'poster', 'workshop', 'panel', 'ceremony', 'break', 'social')),
    track TEXT REFERENCES tracks (slug),          -- NULL: for everyone (breaks, ceremonies)
    room TEXT NOT NULL REFERENCES rooms (slug),
    starts_at TEXT NOT NULL,                       -- YYYY-MM-DD HH:MM in site.time_zone
    ends_at TEXT NOT NULL,                         -- YYYY-MM-DD HH:MM in site.time_zone
    mode TEXT NOT NULL CHECK (mode IN ('in_person', 'online', 'hybrid')),
    chair TEXT,                                    -- a public name; NULL when none
    created TEXT NOT NULL,
    updated TEXT NOT NULL
);
CREATE INDEX sessions_starts_at ON sessions (starts_at);

DROP TABLE schedule;
