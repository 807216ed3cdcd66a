-- The organisers' lists at conference scale (issue 20 item 6, bench/organiser.sh): 20,000
-- submissions, 50,000 orders, 20,000 messages and subscribers, each page within 50 ms.

-- Search is `lower(column) LIKE '%text%'` (src/repo/filter.rs), which no B-tree serves:
-- trigram GIN indexes on the same `lower(...)` expressions do, for any text of 3 characters or
-- more (shorter texts scan the table, as before). pg_trgm ships with PostgreSQL (contrib) and
-- is a trusted extension since PostgreSQL 13: the database's owner may create it.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
CREATE INDEX submissions_search ON submissions USING gin (
    lower(paper_title) gin_trgm_ops, lower(author_name) gin_trgm_ops, lower(co_author_name) gin_trgm_ops,
    lower(email) gin_trgm_ops, lower(reference) gin_trgm_ops);
CREATE INDEX orders_search ON orders USING gin (
    lower(order_id) gin_trgm_ops, lower(billing_email) gin_trgm_ops, lower(billing_name) gin_trgm_ops);
CREATE INDEX messages_search ON messages USING gin (
    lower(name) gin_trgm_ops, lower(email) gin_trgm_ops, lower(country) gin_trgm_ops, lower(message) gin_trgm_ops);
CREATE INDEX subscribers_search ON subscribers USING gin (lower(email) gin_trgm_ops);
CREATE INDEX outbox_search ON outbox USING gin (lower(to_address) gin_trgm_ops, lower(subject) gin_trgm_ops);
CREATE INDEX audit_log_search ON audit_log USING gin (
    lower(actor) gin_trgm_ops, lower(action) gin_trgm_ops, lower(object_type) gin_trgm_ops,
    lower(object_id) gin_trgm_ops);

-- The lists' orders with their tie-breakers, so a page is read from an index in order instead
-- of sorting the table (newest first; submissions also by title).
-- They replace the single-column ones, which the planner would otherwise still pick, sorting
-- every row up to a deep page's offset.
CREATE INDEX orders_created_id ON orders (created, order_id);
CREATE INDEX messages_created_id ON messages (created, id);
CREATE INDEX subscribers_created_id ON subscribers (created, id);
CREATE INDEX submissions_created_id ON submissions (created, id);
CREATE INDEX submissions_title ON submissions (lower(paper_title), id);
DROP INDEX orders_created;
DROP INDEX messages_created;
DROP INDEX submissions_created;

-- The dashboard's order counts and paid totals, read from these indexes alone instead of the
-- table (src/repo/dashboard.rs).
CREATE INDEX orders_mode_status ON orders (payments_mode, status);
CREATE INDEX orders_paid ON orders (status, payments_mode, currency, kind, amount_cents);
