-- The programme's organiser data (issue 31 items 2, 3 and 6; DESIGN.md section 14): which
-- accepted paper sits in which session, in what order and for how long; the versions that
-- froze it for visitors; the authors' public abstract and presenter; the lock after which
-- authors no longer change them.

-- Which seed speaker gives a keynote session (a speaker's id; NULL for other sessions). Not a
-- foreign key: the content seed replaces speakers and sessions in one transaction.
ALTER TABLE sessions ADD COLUMN speaker TEXT;

-- What the programme shows of a paper beside its title and authors: at most 300 words
-- (spec, Paper submission guidelines), and the author who presents it (one of its authors'
-- names; empty: the first author).
ALTER TABLE submissions ADD COLUMN public_abstract TEXT NOT NULL DEFAULT '';
ALTER TABLE submissions ADD COLUMN presenter TEXT NOT NULL DEFAULT '';

-- The draft placement organisers edit at /organiser/programme. A paper sits in at most one
-- session; `position` orders the talks of a session (1, 2, ...); `minutes` is the talk's
-- length. `session` is a session's slug, not a foreign key, for the same reason as above:
-- a session the seed dropped shows as a conflict instead of deleting the placement.
CREATE TABLE placements (
    submission_id BIGINT PRIMARY KEY REFERENCES submissions (id) ON DELETE CASCADE,
    session TEXT NOT NULL,
    position BIGINT NOT NULL,
    minutes BIGINT NOT NULL CHECK (minutes BETWEEN 1 AND 600),
    updated TEXT NOT NULL
);
CREATE INDEX placements_session ON placements (session, position);

-- Published versions, 1, 2, ...: the frozen programme visitors see (sessions, rooms,
-- tracks and talks, JSON of `programme::Published`) and what it changed from the version
-- before (JSON of `programme::Change` list). The primary key makes two organisers
-- publishing at once produce one version, not two with the same number.
CREATE TABLE programme_versions (
    number BIGINT PRIMARY KEY,
    name TEXT NOT NULL,
    published_at TEXT NOT NULL,
    published_by TEXT NOT NULL,
    programme TEXT NOT NULL,
    changes TEXT NOT NULL
);

-- One row: once `locked_at` is set, authors can no longer edit their public abstract or
-- presenter (organisers still can).
CREATE TABLE programme_lock (
    id BIGINT PRIMARY KEY CHECK (id = 1),
    locked_at TEXT,
    locked_by TEXT
);
INSERT INTO programme_lock (id) VALUES (1);
