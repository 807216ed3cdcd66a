-- The organisers' back office (DESIGN.md section 12, issue 20): opening a contact message
-- marks it read, and the lists filter and sort by the columns below.

-- RFC 3339 UTC; NULL until an organiser first opens the message.
ALTER TABLE messages ADD COLUMN read_at TEXT;
CREATE INDEX messages_read_at ON messages (read_at, created);

-- Filters of the lists: paper type (sorted by arrival), order kind and payments mode,
-- subscriber status, mail status (newest first by id), audit entries by action.
CREATE INDEX submissions_paper_type ON submissions (paper_type, created);
CREATE INDEX orders_kind ON orders (kind, created);
CREATE INDEX orders_payments_mode ON orders (payments_mode, created);
CREATE INDEX orders_status_created ON orders (status, created);
CREATE INDEX subscribers_status ON subscribers (status, created);
CREATE INDEX outbox_status_id ON outbox (status, id);
