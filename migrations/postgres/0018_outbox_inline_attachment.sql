-- An attachment made for one mail (the `.ics` of a moved talk, issue 31 item 3) is kept in
-- its outbox row rather than as a file under DATA_DIR: with several instances, the worker
-- that claims the row may run on another machine than the one that queued it, and only the
-- database is shared. NULL for a mail whose attachment is a file (`attachment_path`) or
-- that has none.
ALTER TABLE outbox ADD COLUMN attachment_data BYTEA;
