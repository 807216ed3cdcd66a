-- The conference calendar (issue 42, DESIGN.md section 20).
--
-- The seed's first values of two more operational settings, beside `paper_due_date`,
-- `review_deadline` and `attendee_changes_until`: when registration closes (NULL: at the end
-- of the event's last day, `end_date`) and when camera-ready papers are due (section 18;
-- NULL: none). A date means the end of that day in `time_zone`; `YYYY-MM-DD HH:MM` in
-- `time_zone` and an RFC 3339 time are also accepted (`crate::calendar::deadline`).
ALTER TABLE site ADD COLUMN registration_closes TEXT;
ALTER TABLE site ADD COLUMN camera_ready_due TEXT;

-- The organisers' values of those settings, set at /organiser/settings or with
-- `conference settings set`: one row per key that was changed, read before the seed's value.
-- Not in the `site` row, which every seed rewrites: a value set here outlives a later seed
-- until the next edition. `value` is the setting as stored (`YYYY-MM-DD`,
-- `YYYY-MM-DD HH:MM` in the event's zone, or RFC 3339 UTC); `changed_at` RFC 3339 UTC;
-- `changed_by` an organiser's address or `cli`. Each change is also in the audit log.
CREATE TABLE settings (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL,
    changed_at TEXT NOT NULL,
    changed_by TEXT NOT NULL
);
