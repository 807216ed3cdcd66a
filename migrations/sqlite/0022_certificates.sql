-- Certificates (issue 33 item 5, DESIGN.md section 16): attendance and presentation
-- certificates that organisers release after the conference, each verifiable by anyone at
-- `PUBLIC_URL/certificates/<code>`. Times are RFC 3339 UTC text, as everywhere.

-- Who signs the certificates: content, edited in the seed like the rest of it (the seed
-- deletes and re-inserts these rows). `signature` names a PNG under `seed/signatures/`, built
-- into the binary and never served; NULL for a certificate line without an image.
CREATE TABLE certificate_signatories (
    position INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    role TEXT NOT NULL,
    signature TEXT
);

-- Releases: one row. A release raises `releases` in its transaction (the row's lock makes two
-- organisers or instances releasing at once take turns, so the second sees the first's
-- certificates and issues nothing twice). Not in the `site` row, which every seed rewrites.
CREATE TABLE certificate_release (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    releases INTEGER NOT NULL DEFAULT 0,
    first_released_at TEXT,
    last_released_at TEXT,
    last_released_by TEXT
);
INSERT INTO certificate_release (id) VALUES (1);

-- One row per certificate. `code` is what the verify URL carries: 128 random bits in base32,
-- kept as it is (it opens only the public verify page and the PDF). `email` is the person's
-- address, trimmed and lower case: their certificates go to it in one mail per release.
-- An attendance certificate names its ticket; a presentation certificate its paper (id,
-- reference and title as published). A reissue revokes the old row and points it at the new
-- one (`replaced_by`), which keeps the ticket or paper; `release_number` is the release that first
-- issued the ticket's or paper's certificate (`release_number`).
CREATE TABLE certificates (
    code TEXT PRIMARY KEY,
    email TEXT NOT NULL,
    holder_name TEXT NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('attendance', 'presentation')),
    ticket_id INTEGER REFERENCES tickets (id),
    submission_id INTEGER REFERENCES submissions (id),
    reference TEXT,
    title TEXT,
    release_number INTEGER NOT NULL,
    issued_at TEXT NOT NULL,
    revoked_at TEXT,
    revoked_by TEXT,
    replaced_by TEXT,
    CHECK ((kind = 'attendance') = (ticket_id IS NOT NULL)),
    CHECK ((kind = 'presentation') = (submission_id IS NOT NULL AND reference IS NOT NULL AND title IS NOT NULL)),
    CHECK (replaced_by IS NULL OR revoked_at IS NOT NULL)
);
-- One current certificate per ticket and per paper, however many releases run at once: a
-- certificate revoked without a reissue stays current, so no later release issues it again.
CREATE UNIQUE INDEX certificates_ticket ON certificates (ticket_id) WHERE replaced_by IS NULL;
CREATE UNIQUE INDEX certificates_paper ON certificates (submission_id) WHERE replaced_by IS NULL;
CREATE INDEX certificates_email ON certificates (email);
CREATE INDEX certificates_issued ON certificates (issued_at, code);
