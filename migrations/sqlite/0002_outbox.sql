-- Mail outbox (DESIGN.md section 8): every mail is written here in the same transaction as
-- what caused it, then sent by a background worker with retries and back-off.
CREATE TABLE outbox (
    id INTEGER PRIMARY KEY,
    -- What caused the mail, e.g. 'receipt:ORD1732...'; unique so a repeated cause (a gateway
    -- answer arriving twice) queues one mail. NULL for mails that need no such guard.
    dedupe_key TEXT UNIQUE,
    to_address TEXT NOT NULL,
    reply_to TEXT,
    subject TEXT NOT NULL,
    text_body TEXT NOT NULL,
    html_body TEXT NOT NULL,
    -- Optional attachment: a file under DATA_DIR, its file name for the recipient and MIME type.
    attachment_path TEXT,
    attachment_name TEXT,
    attachment_type TEXT,
    status TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'sent', 'failed')),
    attempts INTEGER NOT NULL DEFAULT 0,
    next_attempt_at TEXT NOT NULL,   -- RFC 3339 UTC; the worker takes rows due by now
    claimed_until TEXT,              -- RFC 3339 UTC; a worker's claim, so copies never send twice
    last_error TEXT,
    created TEXT NOT NULL,
    sent_at TEXT
);

CREATE INDEX outbox_due ON outbox (status, next_attempt_at);
