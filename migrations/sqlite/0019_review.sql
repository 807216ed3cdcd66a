-- Peer review (issue 32, DESIGN.md section 15): the settings and the review form from the
-- content seed, the invited reviewers, conflicts declared by hand, assignments, reviews and
-- the committee's discussion. Times are RFC 3339 UTC text, as everywhere.

-- The review settings, edited in the seed's `site` row (DESIGN.md section 15).
-- `review_deadline` is `YYYY-MM-DD HH:MM` in site.time_zone, NULL while none is set.
ALTER TABLE site ADD COLUMN review_mode TEXT NOT NULL DEFAULT 'double_anonymous'
    CHECK (review_mode IN ('double_anonymous', 'single_anonymous', 'open'));
ALTER TABLE site ADD COLUMN reviewers_per_paper INTEGER NOT NULL DEFAULT 2 CHECK (reviewers_per_paper BETWEEN 1 AND 10);
ALTER TABLE site ADD COLUMN max_papers_per_reviewer INTEGER NOT NULL DEFAULT 15 CHECK (max_papers_per_reviewer BETWEEN 1 AND 1000);
ALTER TABLE site ADD COLUMN review_deadline TEXT;
ALTER TABLE site ADD COLUMN reviewers_see_others INTEGER NOT NULL DEFAULT 1 CHECK (reviewers_see_others IN (0, 1));

-- Mail domains that do not make a conflict (a shared gmail.com says nothing), lower-cased.
CREATE TABLE webmail_domains (
    domain TEXT PRIMARY KEY
);

-- The review form's criteria, in the seed. `scale` is a JSON array of the labels of scores
-- 1, 2, ... (at least two); `weight` a positive integer. A review keeps a copy of what it
-- answered (`reviews.answers`), so a form changed later leaves old reviews readable.
CREATE TABLE review_criteria (
    key TEXT PRIMARY KEY,
    position INTEGER NOT NULL,
    label TEXT NOT NULL,
    description TEXT NOT NULL,
    scale TEXT NOT NULL,
    weight INTEGER NOT NULL CHECK (weight BETWEEN 1 AND 100)
);

-- Sessions and sign-in links carry their role (DESIGN.md section 15: one sign-in for every
-- role). Existing rows are organisers'.
ALTER TABLE organiser_links ADD COLUMN role TEXT NOT NULL DEFAULT 'organiser'
    CHECK (role IN ('organiser', 'reviewer', 'checkin'));
ALTER TABLE organiser_sessions ADD COLUMN role TEXT NOT NULL DEFAULT 'organiser'
    CHECK (role IN ('organiser', 'reviewer', 'checkin'));

-- Reviewers, invited by organisers. `email` is trimmed and lower-cased; `topics` holds
-- focus areas, newline-separated. The invitation's accept and decline links carry a token
-- kept only as its SHA-256 (`invitation_hash`), cleared once answered.
CREATE TABLE reviewers (
    id INTEGER PRIMARY KEY,
    email TEXT NOT NULL UNIQUE,
    name TEXT NOT NULL,
    affiliation TEXT NOT NULL DEFAULT '',
    topics TEXT NOT NULL DEFAULT '',
    state TEXT NOT NULL DEFAULT 'invited' CHECK (state IN ('invited', 'accepted', 'declined', 'removed')),
    invitation_hash TEXT UNIQUE,
    invited_at TEXT NOT NULL,
    answered_at TEXT,
    removed_at TEXT
);
CREATE INDEX reviewers_state ON reviewers (state, name);

-- The code a paper is known by to reviewers (`R-XXXXXX`), and its file's download name;
-- given when the paper is first assigned.
ALTER TABLE submissions ADD COLUMN review_code TEXT;
CREATE UNIQUE INDEX submissions_review_code ON submissions (review_code);
-- The submitted reviews' figures, kept up to date with them so the submissions list sorts
-- and filters by them from an index: how many, the mean of their weighted scores and the
-- spread between the highest and the lowest (both in thousandths of a point, NULL without
-- a review), and the recommendations counted (JSON object, e.g. {"accept":2}).
ALTER TABLE submissions ADD COLUMN reviews_submitted INTEGER NOT NULL DEFAULT 0;
ALTER TABLE submissions ADD COLUMN review_score INTEGER;
ALTER TABLE submissions ADD COLUMN review_spread INTEGER;
ALTER TABLE submissions ADD COLUMN recommendations TEXT NOT NULL DEFAULT '{}';
CREATE INDEX submissions_review_score ON submissions (review_score, id);
CREATE INDEX submissions_reviews_submitted ON submissions (reviews_submitted, id);

-- Conflicts declared by a reviewer ("I have a conflict") or by organisers. The rules that
-- need no declaration (own paper, mail domain, affiliation: src/review/conflicts.rs) are
-- worked out from the rows they read, never stored.
CREATE TABLE review_conflicts (
    reviewer_id INTEGER NOT NULL REFERENCES reviewers (id) ON DELETE CASCADE,
    submission_id INTEGER NOT NULL REFERENCES submissions (id) ON DELETE CASCADE,
    declared_by TEXT NOT NULL CHECK (declared_by IN ('reviewer', 'organiser')),
    created TEXT NOT NULL,
    PRIMARY KEY (reviewer_id, submission_id)
);
CREATE INDEX review_conflicts_submission ON review_conflicts (submission_id);

-- Who reviews which paper. `staged` until organisers release it (release mails each
-- reviewer once); `withdrawn` when a conflict, a removal or an organiser takes it back
-- (the row stays, so a paper's reviewer numbers 1, 2, ... are never reused). `number` is
-- the reviewer's number on this paper ("Reviewer 2").
CREATE TABLE review_assignments (
    id INTEGER PRIMARY KEY,
    submission_id INTEGER NOT NULL REFERENCES submissions (id) ON DELETE CASCADE,
    reviewer_id INTEGER NOT NULL REFERENCES reviewers (id) ON DELETE CASCADE,
    number INTEGER NOT NULL,
    state TEXT NOT NULL CHECK (state IN ('staged', 'released', 'withdrawn')),
    created TEXT NOT NULL,
    released_at TEXT,
    UNIQUE (submission_id, number)
);
CREATE INDEX review_assignments_reviewer ON review_assignments (reviewer_id, state);
CREATE INDEX review_assignments_submission ON review_assignments (submission_id, state);
CREATE UNIQUE INDEX review_assignments_live ON review_assignments (submission_id, reviewer_id)
    WHERE state <> 'withdrawn';

-- One review per assignment: a draft until submitted; editable until the deadline.
-- `answers` is JSON: each criterion's key, label, weight, score and the score's label as the
-- form had them when the review was saved. `score` is the weighted mean in thousandths.
CREATE TABLE reviews (
    id INTEGER PRIMARY KEY,
    assignment_id INTEGER NOT NULL UNIQUE REFERENCES review_assignments (id) ON DELETE CASCADE,
    submission_id INTEGER NOT NULL REFERENCES submissions (id) ON DELETE CASCADE,
    reviewer_id INTEGER NOT NULL REFERENCES reviewers (id) ON DELETE CASCADE,
    state TEXT NOT NULL CHECK (state IN ('draft', 'submitted')),
    answers TEXT NOT NULL DEFAULT '[]',
    score INTEGER,
    recommendation TEXT CHECK (recommendation IN
        ('strong_accept', 'accept', 'weak_accept', 'weak_reject', 'reject', 'strong_reject')),
    confidence INTEGER CHECK (confidence BETWEEN 1 AND 5),
    comments_to_authors TEXT NOT NULL DEFAULT '',
    confidential_comments TEXT NOT NULL DEFAULT '',
    created TEXT NOT NULL,
    updated TEXT NOT NULL,
    submitted_at TEXT
);
CREATE INDEX reviews_submission ON reviews (submission_id, state);
CREATE INDEX reviews_reviewer ON reviews (reviewer_id, state);

-- The committee's discussion of a paper, which authors never see: by a reviewer, or by an
-- organiser (`reviewer_id` NULL, `organiser` their address).
CREATE TABLE review_comments (
    id INTEGER PRIMARY KEY,
    submission_id INTEGER NOT NULL REFERENCES submissions (id) ON DELETE CASCADE,
    reviewer_id INTEGER REFERENCES reviewers (id) ON DELETE CASCADE,
    organiser TEXT,
    body TEXT NOT NULL,
    created TEXT NOT NULL
);
CREATE INDEX review_comments_submission ON review_comments (submission_id, id);
