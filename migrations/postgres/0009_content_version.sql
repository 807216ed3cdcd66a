-- The content version (DESIGN.md section 10): one row, bumped by `conference seed` in the same
-- transaction as the content it writes. Every server polls it (about once a second) and
-- reloads its in-memory content snapshot when it changes, so a seed run from another process,
-- or against a database several instances share, shows without a restart.
-- Portable between SQLite and PostgreSQL.
CREATE TABLE content_version (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    version BIGINT NOT NULL
);
INSERT INTO content_version (id, version) VALUES (1, 1);
