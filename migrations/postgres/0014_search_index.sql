-- The same migration number as SQLite's full-text search indexes (search here already has
-- the trigram indexes of migration 0013), and the dashboard's paid totals read from an index
-- again.

-- The dashboard's paid totals (src/repo/dashboard.rs) count refunds apart since migration
-- 0012: the covering index gains `refunded_at`, so an index-only scan serves them again.
CREATE INDEX orders_paid_refunded ON orders (status, payments_mode, currency, kind, amount_cents, refunded_at);
DROP INDEX orders_paid;

-- Unread messages newest first, with the list's tie-breaker.
CREATE INDEX messages_read_created_id ON messages (read_at, created, id);
DROP INDEX messages_read_at;
