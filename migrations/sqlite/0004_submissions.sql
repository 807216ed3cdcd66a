-- Paper submissions (spec section 3, Paper submission; DESIGN.md section 5,
-- POST /api/paper-submission). A row is written only once its file is in place under
-- DATA_DIR, in the same transaction as the author's acknowledgement and the organisers'
-- notice (outbox, migrations/0002_outbox.sql).
-- Columns are the spec's field names in snake case. Portable between SQLite and PostgreSQL:
-- no AUTOINCREMENT, RFC 3339 UTC text times.

CREATE TABLE submissions (
    id INTEGER PRIMARY KEY,
    -- What the author and organisers quote, e.g. 'P-2025-7KQ4M9'.
    reference TEXT NOT NULL UNIQUE,
    name TEXT NOT NULL DEFAULT '',           -- spec: in the form's state, no visible input
    number TEXT NOT NULL,                    -- phone as entered (E.164 from the island)
    email TEXT NOT NULL,
    country TEXT NOT NULL,
    author_name TEXT NOT NULL,
    co_author_name TEXT NOT NULL,
    paper_title TEXT NOT NULL,
    department TEXT NOT NULL,
    university_organization TEXT NOT NULL,
    paper_type TEXT NOT NULL CHECK (paper_type IN ('Abstract', 'Full Paper')),
    presentation_type TEXT NOT NULL CHECK (presentation_type IN ('Poster', 'Oral')),
    message TEXT NOT NULL,
    conference_source TEXT NOT NULL,         -- one of the form's options, checked by the server
    -- The spec's pdfUrl: the stored paper, relative to DATA_DIR (e.g. 'papers/P-2025-7KQ4M9.pdf').
    -- Never served publicly; organisers get it as a mail attachment and through the export.
    file_path TEXT NOT NULL UNIQUE,
    file_name TEXT NOT NULL,                 -- the name it was uploaded under
    file_type TEXT NOT NULL,                 -- MIME type found from the content
    file_size INTEGER NOT NULL,              -- bytes
    created TEXT NOT NULL                    -- RFC 3339 UTC
);

CREATE INDEX submissions_created ON submissions (created);
