-- Decisions that reach authors (issue 21, DESIGN.md section 12 "Decisions"): a submission's
-- state, the organisers' pending decision, the version that keeps two organisers from
-- overwriting each other, the authors' private status links and the decision mails'
-- templates.

-- `submitted` until a decision is applied; `withdrawn` by the author before one.
ALTER TABLE submissions ADD COLUMN state TEXT NOT NULL DEFAULT 'submitted'
    CHECK (state IN ('submitted', 'accepted', 'rejected', 'withdrawn'));
-- What an organiser chose and nobody applied yet; seen by organisers only.
ALTER TABLE submissions ADD COLUMN pending_decision TEXT CHECK (pending_decision IN ('accepted', 'rejected'));
-- The note of the decision's mail ({organiser_note}): the pending one, or the last applied.
ALTER TABLE submissions ADD COLUMN decision_note TEXT NOT NULL DEFAULT '';
-- Raised by every change an organiser or the author makes; a form carries the version it
-- was drawn from, and a change from an older one is refused (409).
ALTER TABLE submissions ADD COLUMN version INTEGER NOT NULL DEFAULT 1;
-- RFC 3339 UTC of the latest applied decision; NULL before one.
ALTER TABLE submissions ADD COLUMN decided_at TEXT;
-- Applied decisions so far: the decision mail's outbox key is `decision:<reference>:<n>`,
-- so each applied decision mails the author once, whatever applies it twice.
ALTER TABLE submissions ADD COLUMN decisions INTEGER NOT NULL DEFAULT 0;
CREATE INDEX submissions_state ON submissions (state, created);
CREATE INDEX submissions_pending ON submissions (pending_decision);

-- The private links `/submission/status/<token>` of the authors' mails: only the SHA-256 of
-- the 32 random bytes is kept. A submission has one per mail that carried one.
CREATE TABLE submission_links (
    token_hash TEXT PRIMARY KEY,
    submission_id INTEGER NOT NULL REFERENCES submissions (id) ON DELETE CASCADE,
    created TEXT NOT NULL
);
CREATE INDEX submission_links_submission ON submission_links (submission_id);

-- The decision mails, edited in the content seed like the rest of the content (placeholders
-- in braces, checked when the seed is applied).
CREATE TABLE mail_templates (
    name TEXT PRIMARY KEY CHECK (name IN ('decision_accepted', 'decision_rejected')),
    subject TEXT NOT NULL,
    body TEXT NOT NULL
);

-- The history on an item's page (submission, message, order) reads its entries by object.
CREATE INDEX audit_log_object ON audit_log (object_type, object_id, id);

-- Messages (issue 21 item 5): answered or not, by which organiser and when (NULL: not
-- answered), and the organisers' internal note.
ALTER TABLE messages ADD COLUMN answered_at TEXT;
ALTER TABLE messages ADD COLUMN answered_by TEXT;
ALTER TABLE messages ADD COLUMN note TEXT NOT NULL DEFAULT '';

-- Orders: the organisers' internal note, and a refund made outside the site (the gateway is
-- never called): who recorded it and when. The payment's own state stays as the gateway
-- decided it.
ALTER TABLE orders ADD COLUMN note TEXT NOT NULL DEFAULT '';
ALTER TABLE orders ADD COLUMN refunded_at TEXT;
ALTER TABLE orders ADD COLUMN refunded_by TEXT;
