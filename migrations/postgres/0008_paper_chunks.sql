-- Paper files on PostgreSQL (issue 12): every instance must reach every paper, so the file
-- is kept in the database, written in the same transaction as its `submissions` row.
-- Chunks of at most 256 KiB, so neither writing nor reading a paper holds it whole in memory.
-- SQLite keeps papers as files under DATA_DIR/papers instead (one machine), so this migration
-- exists only here; the next migration of both engines is 0009.
CREATE TABLE paper_chunks (
    submission_id BIGINT NOT NULL REFERENCES submissions (id) ON DELETE CASCADE,
    seq BIGINT NOT NULL,             -- 0, 1, 2, ... in file order
    data BYTEA NOT NULL,
    PRIMARY KEY (submission_id, seq)
);
