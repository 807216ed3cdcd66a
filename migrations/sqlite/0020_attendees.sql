-- Attendees (issue 33, DESIGN.md section 16): a ticket for every paid registration, the
-- attendee's private link, check-ins at the desk, numbered receipts and credit notes, and the
-- stream links of online and hybrid sessions. Times are RFC 3339 UTC text, as everywhere.

-- The attendee settings, edited in the seed's `site` row (DESIGN.md section 16).
-- `attendee_changes_until`: until when attendees may change the name on their ticket,
-- `YYYY-MM-DD HH:MM` in site.time_zone; NULL for no limit.
ALTER TABLE site ADD COLUMN attendee_changes_until TEXT;
-- Receipt numbers read `<receipt_prefix>-<year>-<6 digits>`.
ALTER TABLE site ADD COLUMN receipt_prefix TEXT NOT NULL DEFAULT 'RCPT';
-- The seller a receipt names (issue 33 item 4); '' until the seed says.
ALTER TABLE site ADD COLUMN seller_name TEXT NOT NULL DEFAULT '';
ALTER TABLE site ADD COLUMN seller_address TEXT NOT NULL DEFAULT '';
ALTER TABLE site ADD COLUMN seller_tax_number TEXT NOT NULL DEFAULT '';
-- 1: receipts are called invoices. Off unless the organisers turn it on, since some tax
-- authorities register the systems that issue invoices.
ALTER TABLE site ADD COLUMN invoice_wording INTEGER NOT NULL DEFAULT 0 CHECK (invoice_wording IN (0, 1));

-- One ticket per paid registration (a `plan` order), made in the transaction that records
-- the payment. `code` is what the QR carries (`PUBLIC_URL/check-in/<code>`): 128 random bits
-- in base32. It is kept as it is, not hashed: the attendee page draws the QR from it every
-- time it is opened, and the code opens nothing by itself (the check-in URL shows no personal
-- data without a desk's session). `mode` and `ticket_type` are the plan's attendance and
-- title when it was paid. `refunded_at` is set with the order's credit note.
CREATE TABLE tickets (
    id INTEGER PRIMARY KEY,
    order_id TEXT NOT NULL UNIQUE REFERENCES orders (order_id),
    code TEXT NOT NULL UNIQUE,
    holder_name TEXT NOT NULL,
    mode TEXT NOT NULL CHECK (mode IN ('virtual', 'physical')),
    ticket_type TEXT NOT NULL,
    created TEXT NOT NULL,
    name_changed_at TEXT,
    refunded_at TEXT
);

-- The private links `/attendee/<token>`: only the SHA-256 of the 32 random bytes is kept. A
-- ticket has one per mail that carried one ("send my link again" adds one; earlier links
-- keep working).
CREATE TABLE attendee_links (
    token_hash TEXT PRIMARY KEY,
    ticket_id INTEGER NOT NULL REFERENCES tickets (id),
    created TEXT NOT NULL
);
CREATE INDEX attendee_links_ticket ON attendee_links (ticket_id, created);

-- Check-ins at the desk: at most one per ticket and day (`day` is `YYYY-MM-DD` in the event's
-- zone), whatever number of desks scan it at once. `checked_by` is the desk's address.
CREATE TABLE check_ins (
    ticket_id INTEGER NOT NULL REFERENCES tickets (id),
    day TEXT NOT NULL,
    at TEXT NOT NULL,
    checked_by TEXT NOT NULL,
    PRIMARY KEY (ticket_id, day)
);
CREATE INDEX check_ins_day ON check_ins (day);

-- Receipts and credit notes, numbered `<prefix>-<year>-<6 digits>` without gaps per year
-- (`receipt_counters`), one receipt per paid order and one credit note per refund, which
-- `cites` the receipt it cancels. `content` is the document as issued (JSON: seller, buyer,
-- lines, amounts, dates), so a receipt is drawn the same way forever: rows are never
-- updated or deleted (the triggers below refuse it).
CREATE TABLE receipts (
    number TEXT PRIMARY KEY,
    year INTEGER NOT NULL,
    sequence INTEGER NOT NULL CHECK (sequence > 0),
    order_id TEXT NOT NULL REFERENCES orders (order_id),
    kind TEXT NOT NULL CHECK (kind IN ('receipt', 'credit_note')),
    cites TEXT REFERENCES receipts (number),
    issued_at TEXT NOT NULL,
    content TEXT NOT NULL,
    UNIQUE (year, sequence),
    UNIQUE (order_id, kind),
    CHECK ((kind = 'credit_note') = (cites IS NOT NULL))
);
CREATE TRIGGER receipts_never_rewritten_update BEFORE UPDATE ON receipts
BEGIN
    SELECT RAISE(ABORT, 'receipts are never rewritten');
END;
CREATE TRIGGER receipts_never_rewritten_delete BEFORE DELETE ON receipts
BEGIN
    SELECT RAISE(ABORT, 'receipts are never rewritten');
END;

-- The last number given per year: raised by one in the transaction that issues a receipt or
-- credit note, so a number is used once and a rolled-back payment leaves no gap.
CREATE TABLE receipt_counters (
    year INTEGER PRIMARY KEY,
    last_sequence INTEGER NOT NULL CHECK (last_sequence >= 0)
);

-- The stream of an online or hybrid session, set by organisers (`/organiser/streams`). Keyed
-- by the seed's session slug without a foreign key: `conference seed` deletes and re-inserts
-- sessions. Read only by the attendee page of a paid ticket: never by a public page, the
-- sitemap, JSON-LD, an export or a cache.
CREATE TABLE stream_links (
    session TEXT PRIMARY KEY,
    url TEXT NOT NULL,
    label TEXT NOT NULL DEFAULT '',
    updated TEXT NOT NULL,
    updated_by TEXT NOT NULL
);
