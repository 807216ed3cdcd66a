-- Search at conference scale (issue 20 item 6, bench/organiser.sh), and the dashboard's paid
-- totals read from an index again.
--
-- Search (`?q=`) is `LIKE '%text%'`, which no B-tree index serves. A full-text index per list
-- with the trigram tokenizer (in sqlx's bundled SQLite) finds the rows holding a text of 3 or
-- more characters in any of the list's searched columns, ignoring letter case;
-- src/repo/filter.rs asks it for such texts and scans only for shorter ones. External
-- content: the index keeps no copy of the text; the triggers below keep it in step with its
-- table in the same transaction (the audit log is only ever appended to). Writers begin with
-- `BEGIN IMMEDIATE` (`db::begin_write`): preparing a statement whose trigger writes here
-- reads the index's settings, and a deferred transaction that has read cannot wait for the
-- write lock.
--
-- Backups leave these tables out (src/backup/tables.rs lists ordinary tables only); rows
-- copied into a restored database fill them through the triggers. The indexes name rows by
-- rowid, which a plain `VACUUM` may renumber in tables without an INTEGER PRIMARY KEY
-- (orders, messages, subscribers): the server never runs one, and after a hand-run `VACUUM`
-- each index is rebuilt with `INSERT INTO orders_search (orders_search) VALUES ('rebuild')`.

CREATE VIRTUAL TABLE submissions_search USING fts5(paper_title, author_name, co_author_name, email, reference, content='submissions', tokenize='trigram');
INSERT INTO submissions_search (submissions_search) VALUES ('rebuild');
CREATE TRIGGER submissions_search_insert AFTER INSERT ON submissions BEGIN
    INSERT INTO submissions_search (rowid, paper_title, author_name, co_author_name, email, reference) VALUES (new.rowid, new.paper_title, new.author_name, new.co_author_name, new.email, new.reference);
END;
CREATE TRIGGER submissions_search_delete AFTER DELETE ON submissions BEGIN
    INSERT INTO submissions_search (submissions_search, rowid, paper_title, author_name, co_author_name, email, reference) VALUES ('delete', old.rowid, old.paper_title, old.author_name, old.co_author_name, old.email, old.reference);
END;
CREATE TRIGGER submissions_search_update AFTER UPDATE OF paper_title, author_name, co_author_name, email, reference ON submissions BEGIN
    INSERT INTO submissions_search (submissions_search, rowid, paper_title, author_name, co_author_name, email, reference) VALUES ('delete', old.rowid, old.paper_title, old.author_name, old.co_author_name, old.email, old.reference);
    INSERT INTO submissions_search (rowid, paper_title, author_name, co_author_name, email, reference) VALUES (new.rowid, new.paper_title, new.author_name, new.co_author_name, new.email, new.reference);
END;
CREATE VIRTUAL TABLE orders_search USING fts5(order_id, billing_email, billing_name, content='orders', tokenize='trigram');
INSERT INTO orders_search (orders_search) VALUES ('rebuild');
CREATE TRIGGER orders_search_insert AFTER INSERT ON orders BEGIN
    INSERT INTO orders_search (rowid, order_id, billing_email, billing_name) VALUES (new.rowid, new.order_id, new.billing_email, new.billing_name);
END;
CREATE TRIGGER orders_search_delete AFTER DELETE ON orders BEGIN
    INSERT INTO orders_search (orders_search, rowid, order_id, billing_email, billing_name) VALUES ('delete', old.rowid, old.order_id, old.billing_email, old.billing_name);
END;
CREATE TRIGGER orders_search_update AFTER UPDATE OF order_id, billing_email, billing_name ON orders BEGIN
    INSERT INTO orders_search (orders_search, rowid, order_id, billing_email, billing_name) VALUES ('delete', old.rowid, old.order_id, old.billing_email, old.billing_name);
    INSERT INTO orders_search (rowid, order_id, billing_email, billing_name) VALUES (new.rowid, new.order_id, new.billing_email, new.billing_name);
END;
CREATE VIRTUAL TABLE messages_search USING fts5(name, email, country, message, content='messages', tokenize='trigram');
INSERT INTO messages_search (messages_search) VALUES ('rebuild');
CREATE TRIGGER messages_search_insert AFTER INSERT ON messages BEGIN
    INSERT INTO messages_search (rowid, name, email, country, message) VALUES (new.rowid, new.name, new.email, new.country, new.message);
END;
CREATE TRIGGER messages_search_delete AFTER DELETE ON messages BEGIN
    INSERT INTO messages_search (messages_search, rowid, name, email, country, message) VALUES ('delete', old.rowid, old.name, old.email, old.country, old.message);
END;
CREATE TRIGGER messages_search_update AFTER UPDATE OF name, email, country, message ON messages BEGIN
    INSERT INTO messages_search (messages_search, rowid, name, email, country, message) VALUES ('delete', old.rowid, old.name, old.email, old.country, old.message);
    INSERT INTO messages_search (rowid, name, email, country, message) VALUES (new.rowid, new.name, new.email, new.country, new.message);
END;
CREATE VIRTUAL TABLE subscribers_search USING fts5(email, content='subscribers', tokenize='trigram');
INSERT INTO subscribers_search (subscribers_search) VALUES ('rebuild');
CREATE TRIGGER subscribers_search_insert AFTER INSERT ON subscribers BEGIN
    INSERT INTO subscribers_search (rowid, email) VALUES (new.rowid, new.email);
END;
CREATE TRIGGER subscribers_search_delete AFTER DELETE ON subscribers BEGIN
    INSERT INTO subscribers_search (subscribers_search, rowid, email) VALUES ('delete', old.rowid, old.email);
END;
CREATE TRIGGER subscribers_search_update AFTER UPDATE OF email ON subscribers BEGIN
    INSERT INTO subscribers_search (subscribers_search, rowid, email) VALUES ('delete', old.rowid, old.email);
    INSERT INTO subscribers_search (rowid, email) VALUES (new.rowid, new.email);
END;
CREATE VIRTUAL TABLE outbox_search USING fts5(to_address, subject, content='outbox', tokenize='trigram');
INSERT INTO outbox_search (outbox_search) VALUES ('rebuild');
CREATE TRIGGER outbox_search_insert AFTER INSERT ON outbox BEGIN
    INSERT INTO outbox_search (rowid, to_address, subject) VALUES (new.rowid, new.to_address, new.subject);
END;
CREATE TRIGGER outbox_search_delete AFTER DELETE ON outbox BEGIN
    INSERT INTO outbox_search (outbox_search, rowid, to_address, subject) VALUES ('delete', old.rowid, old.to_address, old.subject);
END;
CREATE TRIGGER outbox_search_update AFTER UPDATE OF to_address, subject ON outbox BEGIN
    INSERT INTO outbox_search (outbox_search, rowid, to_address, subject) VALUES ('delete', old.rowid, old.to_address, old.subject);
    INSERT INTO outbox_search (rowid, to_address, subject) VALUES (new.rowid, new.to_address, new.subject);
END;
CREATE VIRTUAL TABLE audit_log_search USING fts5(actor, action, object_type, object_id, content='audit_log', tokenize='trigram');
INSERT INTO audit_log_search (audit_log_search) VALUES ('rebuild');
CREATE TRIGGER audit_log_search_insert AFTER INSERT ON audit_log BEGIN
    INSERT INTO audit_log_search (rowid, actor, action, object_type, object_id) VALUES (new.rowid, new.actor, new.action, new.object_type, new.object_id);
END;

-- The dashboard's paid totals (src/repo/dashboard.rs) count refunds apart since migration
-- 0012: the covering index gains `refunded_at`, so they are read from it alone again.
CREATE INDEX orders_paid_refunded ON orders (status, payments_mode, currency, kind, amount_cents, refunded_at);
DROP INDEX orders_paid;

-- Unread messages newest first, with the list's tie-breaker.
CREATE INDEX messages_read_created_id ON messages (read_at, created, id);
DROP INDEX messages_read_at;
