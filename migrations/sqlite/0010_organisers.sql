-- The organiser area's sign-in (DESIGN.md section 12, issue 20). Times are RFC 3339 UTC with
-- microseconds, fixed width, so they compare as text on both engines.

-- One-time sign-in links: only the SHA-256 of the token (hex) is kept. A row is written for
-- every request, an organiser's or not (a stranger's token is never mailed and cannot be
-- used), so the per-address limit counts both and the work does not depend on the address.
CREATE TABLE organiser_links (
    id INTEGER PRIMARY KEY,
    email TEXT NOT NULL,              -- trimmed, lower-cased
    token_hash TEXT NOT NULL UNIQUE,
    created TEXT NOT NULL,
    expires TEXT NOT NULL,
    used TEXT                         -- NULL until the confirmation POST uses it up
);
CREATE INDEX organiser_links_email ON organiser_links (email, created);

-- Server-side sessions: the cookie carries the id, the table its SHA-256 (hex).
CREATE TABLE organiser_sessions (
    id INTEGER PRIMARY KEY,
    id_hash TEXT NOT NULL UNIQUE,
    email TEXT NOT NULL,
    created TEXT NOT NULL,
    last_seen TEXT NOT NULL,
    expires TEXT NOT NULL,            -- the absolute end (ORGANISER_SESSION_HOURS after created)
    client TEXT                       -- the client address at sign-in
);
CREATE INDEX organiser_sessions_email ON organiser_sessions (email);

-- Append-only: written in the transaction of what it records, never updated or deleted.
CREATE TABLE audit_log (
    id INTEGER PRIMARY KEY,
    at TEXT NOT NULL,
    actor TEXT NOT NULL,              -- an organiser's e-mail, 'cli' or 'system'
    client TEXT,
    action TEXT NOT NULL,             -- dotted, e.g. 'auth.signed_in'
    object_type TEXT,
    object_id TEXT,
    details TEXT NOT NULL DEFAULT '{}'  -- JSON
);
CREATE INDEX audit_log_at ON audit_log (at);
CREATE TRIGGER audit_log_append_only_update BEFORE UPDATE ON audit_log
BEGIN
    SELECT RAISE(ABORT, 'the audit log is append-only');
END;
CREATE TRIGGER audit_log_append_only_delete BEFORE DELETE ON audit_log
BEGIN
    SELECT RAISE(ABORT, 'the audit log is append-only');
END;
