-- The organisers' lists at conference scale (issue 20 item 6, bench/organiser.sh): 20,000
-- submissions, 50,000 orders, 20,000 messages and subscribers, each page within 50 ms.
-- Search (`LIKE '%text%'`) still scans the table on SQLite; src/repo/filter.rs keeps the scan
-- cheap. (An FTS5 trigram index per list, tried, made concurrent inserts fail: see
-- bench/README.md.)

-- The lists' orders with their tie-breakers, so a page is read from an index in order instead
-- of sorting the table (newest first; submissions by title).
-- They replace the single-column ones (`submissions_created` stays: SQLite's indexes end with
-- the rowid, which is `submissions.id`).
CREATE INDEX orders_created_id ON orders (created, order_id);
CREATE INDEX messages_created_id ON messages (created, id);
CREATE INDEX subscribers_created_id ON subscribers (created, id);
CREATE INDEX submissions_title ON submissions (lower(paper_title), id);
DROP INDEX orders_created;
DROP INDEX messages_created;

-- The dashboard's order counts and paid totals, read from these indexes alone instead of the
-- table (src/repo/dashboard.rs).
CREATE INDEX orders_mode_status ON orders (payments_mode, status);
CREATE INDEX orders_paid ON orders (status, payments_mode, currency, kind, amount_cents);
