-- What visitors send through the contact form and the newsletter box (spec sections 3 and 5,
-- DESIGN.md section 5). Rows are written before the server answers 2xx, in the same
-- transaction as any mail they cause (outbox, migrations/0002_outbox.sql).
-- Portable between SQLite and PostgreSQL: TEXT ids and RFC 3339 UTC text times.

-- spec section 3, Contact message: name, number, email, country, message.
CREATE TABLE messages (
    id TEXT PRIMARY KEY,             -- 15 random lowercase alphanumerics, as content ids look
    name TEXT NOT NULL,
    number TEXT NOT NULL,            -- phone / WhatsApp number as entered (E.164 from the island)
    email TEXT NOT NULL,
    country TEXT NOT NULL,
    message TEXT NOT NULL,
    created TEXT NOT NULL            -- RFC 3339 UTC
);

CREATE INDEX messages_created ON messages (created);

-- Newsletter sign-ups: one row per address, whatever its letter case.
CREATE TABLE subscribers (
    id TEXT PRIMARY KEY,
    email TEXT NOT NULL,             -- as first entered
    created TEXT NOT NULL            -- RFC 3339 UTC
);

-- `lower()` so Ana@Example.org and ana@example.org are one subscriber; expression indexes
-- exist in both SQLite and PostgreSQL.
CREATE UNIQUE INDEX subscribers_email ON subscribers (lower(email));
