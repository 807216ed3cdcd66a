-- Camera-ready papers (issue 44 item 1, DESIGN.md section 18): what the author of an accepted
-- PostgreSQL: BIGINT for ids and counts, BYTEA for the file (migrations/README.md).
-- paper hands in through the private status link, one row per paper, each part replaceable
-- until the volume is locked. A part not handed in yet is NULL. Every change is also in the
-- audit log (`camera_ready.*`, actor `author`).
--
-- `keywords` and `authors` are JSON arrays: keywords as strings (3 to 5), authors in the
-- paper's order as objects {name, affiliation, email, orcid (or null), corresponding}.
-- `pdf` is the last file that passed the format check (`crate::proceedings::format_check`),
-- kept in the database so every instance reaches it; a failing upload never replaces it.
-- `licence_version` names the licence text accepted (`crate::proceedings::licence`),
-- `licence_signed` the name the author typed, `licence_at` when (RFC 3339 UTC).
CREATE TABLE camera_ready (
    submission_id BIGINT PRIMARY KEY REFERENCES submissions (id) ON DELETE CASCADE,
    title TEXT,
    abstract TEXT,
    keywords TEXT,
    authors TEXT,
    details_at TEXT,
    pdf BYTEA,
    pdf_name TEXT,
    pdf_bytes BIGINT,
    pdf_pages BIGINT,
    pdf_sha256 TEXT,
    pdf_at TEXT,
    licence_version TEXT,
    licence_signed TEXT,
    licence_at TEXT,
    updated_at TEXT NOT NULL
);

-- The proceedings volume: one row (id 1). `locked` (0 or 1) is set by organisers
-- (issue 44 item 4); while it is 1 no author changes their camera-ready paper.
CREATE TABLE proceedings_volumes (
    id BIGINT PRIMARY KEY CHECK (id = 1),
    locked BIGINT NOT NULL DEFAULT 0 CHECK (locked IN (0, 1))
);
INSERT INTO proceedings_volumes (id, locked) VALUES (1, 0);
