-- Mail that cannot be aimed at others (issue 10; DESIGN.md section 5).

-- Acknowledgement mails sent to a visitor's address, whatever the form: at most 3 per address
-- in 24 hours. `address` is lower-cased; `created` RFC 3339 UTC.
CREATE TABLE acknowledgements (
    address TEXT NOT NULL,
    created TEXT NOT NULL
);
CREATE INDEX acknowledgements_address ON acknowledgements (address, created);

-- Newsletter double opt-in: an address is 'pending' until its confirmation link is opened.
-- Rows from before this migration never confirmed, so they start 'pending' too.
ALTER TABLE subscribers ADD COLUMN status TEXT NOT NULL DEFAULT 'pending'
    CHECK (status IN ('pending', 'subscribed', 'unsubscribed'));
ALTER TABLE subscribers ADD COLUMN confirmed TEXT;   -- RFC 3339 UTC; NULL until confirmed

-- Keys the server makes for itself on first use (random, never configured, shared by every
-- instance on this database): `newsletter-links` signs the confirm and unsubscribe links.
CREATE TABLE signing_keys (
    name TEXT PRIMARY KEY,
    secret TEXT NOT NULL             -- hex
);

-- RFC 8058 one-click unsubscribe URL of a newsletter mail; NULL for other mails.
ALTER TABLE outbox ADD COLUMN list_unsubscribe TEXT;
