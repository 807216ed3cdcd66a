-- The review lists at conference scale (issue 32 item 10, bench/organiser.sh run 7): what the
-- assignments overview, the review progress page and the reviewers' list counted on every
-- view is kept instead.
--
-- Each paper's live (staged or released) assignments, kept by the triggers below in the
-- transaction that stages, releases, withdraws or deletes one, whichever code path does it.
-- The triggers count the paper's rows again rather than add or take one, so a restored backup
-- (its papers first, with their stored figure, then their assignments) ends with the right
-- number too. "Papers short of reviewers" is then a range of the index below instead of a
-- count of assignments for each of 20,000 papers.
ALTER TABLE submissions ADD COLUMN live_assignments INTEGER NOT NULL DEFAULT 0;
UPDATE submissions SET live_assignments = (SELECT COUNT(*) FROM review_assignments a
    WHERE a.submission_id = submissions.id AND a.state <> 'withdrawn');
CREATE INDEX submissions_live_assignments ON submissions (state, live_assignments);

CREATE TRIGGER review_assignments_live_insert AFTER INSERT ON review_assignments BEGIN
    UPDATE submissions SET live_assignments = (SELECT COUNT(*) FROM review_assignments a
        WHERE a.submission_id = new.submission_id AND a.state <> 'withdrawn') WHERE id = new.submission_id;
END;
-- Releasing (staged -> released) leaves the number as it is: no write to the paper.
CREATE TRIGGER review_assignments_live_update AFTER UPDATE OF state, submission_id ON review_assignments
WHEN (old.state = 'withdrawn') <> (new.state = 'withdrawn') OR old.submission_id <> new.submission_id BEGIN
    UPDATE submissions SET live_assignments = (SELECT COUNT(*) FROM review_assignments a
        WHERE a.submission_id = new.submission_id AND a.state <> 'withdrawn') WHERE id = new.submission_id;
    UPDATE submissions SET live_assignments = (SELECT COUNT(*) FROM review_assignments a
        WHERE a.submission_id = old.submission_id AND a.state <> 'withdrawn') WHERE id = old.submission_id;
END;
CREATE TRIGGER review_assignments_live_delete AFTER DELETE ON review_assignments BEGIN
    UPDATE submissions SET live_assignments = (SELECT COUNT(*) FROM review_assignments a
        WHERE a.submission_id = old.submission_id AND a.state <> 'withdrawn') WHERE id = old.submission_id;
END;

-- The assignments by state, counted from an index alone when `count_version` moved.
CREATE INDEX review_assignments_state ON review_assignments (state);

-- The review tables join the counted ones of migration 0015: a write to an assignment, a
-- review or a reviewer moves `count_version`, so the review pages keep their counts (and the
-- overdue reviewers) per server until then (src/repo/review_records.rs `ReviewFigures`).
CREATE TRIGGER review_assignments_counted_insert AFTER INSERT ON review_assignments BEGIN
    UPDATE count_version SET version = version + 1 WHERE id = 1;
END;
CREATE TRIGGER review_assignments_counted_update AFTER UPDATE ON review_assignments BEGIN
    UPDATE count_version SET version = version + 1 WHERE id = 1;
END;
CREATE TRIGGER review_assignments_counted_delete AFTER DELETE ON review_assignments BEGIN
    UPDATE count_version SET version = version + 1 WHERE id = 1;
END;
CREATE TRIGGER reviews_counted_insert AFTER INSERT ON reviews BEGIN
    UPDATE count_version SET version = version + 1 WHERE id = 1;
END;
CREATE TRIGGER reviews_counted_update AFTER UPDATE ON reviews BEGIN
    UPDATE count_version SET version = version + 1 WHERE id = 1;
END;
CREATE TRIGGER reviews_counted_delete AFTER DELETE ON reviews BEGIN
    UPDATE count_version SET version = version + 1 WHERE id = 1;
END;
CREATE TRIGGER reviewers_counted_insert AFTER INSERT ON reviewers BEGIN
    UPDATE count_version SET version = version + 1 WHERE id = 1;
END;
CREATE TRIGGER reviewers_counted_update AFTER UPDATE ON reviewers BEGIN
    UPDATE count_version SET version = version + 1 WHERE id = 1;
END;
CREATE TRIGGER reviewers_counted_delete AFTER DELETE ON reviewers BEGIN
    UPDATE count_version SET version = version + 1 WHERE id = 1;
END;
-- Removing a reviewer hands back assignments; a declared conflict hides a paper from its
-- reviewer: both change what the review pages count.
CREATE TRIGGER review_conflicts_counted_insert AFTER INSERT ON review_conflicts BEGIN
    UPDATE count_version SET version = version + 1 WHERE id = 1;
END;
CREATE TRIGGER review_conflicts_counted_delete AFTER DELETE ON review_conflicts BEGIN
    UPDATE count_version SET version = version + 1 WHERE id = 1;
END;

-- The reviewers' list pages in its order: those not removed first, by name.
CREATE INDEX reviewers_listed ON reviewers ((CASE state WHEN 'removed' THEN 1 ELSE 0 END), lower(name), id);
