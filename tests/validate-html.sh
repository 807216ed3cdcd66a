#!/usr/bin/env bash
# Validates every page's raw HTML (as the server sends it, before any script runs) and the
# stylesheets with the Nu validator (vnu, npm package `vnu-jar`; needs a Java runtime, e.g.
# Debian's default-jre-headless). Pages are the sitemap's (with a published programme of a dozen
# talks: its talk pages and changelog), plus the 404 page and the organiser
# area's pages (not in the sitemap): the sign-in page, and, after a real sign-in (the link read
# from the mail the server writes under DATA_DIR/mail/, the session kept in a curl cookie jar),
# the confirmation page, the dashboard, every list (with rows, filtered, and with nothing
# matching) and the detail page of a submission, a message and an order sent through the
# public forms.
# Then the reviewers' pages, for a paper released to a reviewer by SQL (`sqlite3`).
#
#   tests/validate-html.sh [SERVER_BIN]     (default: target/debug/conference)
#   VALIDATE_PORT=3997                      the loopback port the server listens on
#
# Starts the server on a loopback port with a temporary data folder and stops it by its pid.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=tests/mailed-link.sh
. tests/mailed-link.sh

server_bin=${1:-target/debug/conference}
vnu=islands/node_modules/vnu-jar/build/dist/vnu.jar
port=${VALIDATE_PORT:-3997}
base="http://127.0.0.1:$port"

[ -x "$server_bin" ] || { echo "validate: no server binary at $server_bin (cargo build first)" >&2; exit 1; }
[ -f "$vnu" ] || { echo "validate: $vnu is missing (npm ci in islands/)" >&2; exit 1; }
command -v java >/dev/null || { echo "validate: java is missing (apt-get install -y default-jre-headless)" >&2; exit 1; }
command -v sqlite3 >/dev/null || { echo "validate: sqlite3 is missing (apt-get install -y sqlite3)" >&2; exit 1; }

organiser=validate.chair@example.org
work=$(mktemp -d)
server_pid=
cleanup() {
  if [ -n "$server_pid" ]; then kill "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

# The check-in desk (issue 33 item 3) is open whatever the day, and has one desk address.
export CHECKIN_EMAIL=validate.desk@example.org CHECKIN_DAYS=any
LISTEN_ADDR="127.0.0.1:$port" PUBLIC_URL="$base" DATA_DIR="$work/data" \
  DATABASE_URL="sqlite://$work/data/conference.db" RUST_LOG=warn ORGANISER_EMAIL="$organiser" \
  "$server_bin" serve >"$work/server.log" 2>&1 &
server_pid=$!
for _ in $(seq 1 100); do
  curl -fs "$base/api/health" >/dev/null 2>&1 && break
  kill -0 "$server_pid" 2>/dev/null || { cat "$work/server.log" >&2; exit 1; }
  sleep 0.1
done

# A published programme (issue 31): a dozen talks placed and published by the bench's example
# (built by `cargo test` beside the binary), so the sitemap lists talk pages, the changelog and
# the schedule with talks.
fixture="$(dirname "$server_bin")/examples/programme_fixture"
[ -x "$fixture" ] || { echo "validate: no $fixture (cargo test --no-run builds it)" >&2; exit 1; }
"$fixture" "sqlite://$work/data/conference.db" 12 >"$work/programme.log" 2>&1 || { cat "$work/programme.log" >&2; exit 1; }
for _ in $(seq 1 50); do
  curl -fs "$base/schedule" | grep 'class="schedule-talk"' >/dev/null && break
  sleep 0.1
done
curl -fs "$base/schedule" | grep 'class="schedule-talk"' >/dev/null || { echo "validate: the published programme does not show" >&2; exit 1; }

mkdir -p "$work/pages"
paths=$(curl -fs "$base/sitemap.xml" | grep -o '<loc>[^<]*</loc>' | sed -e 's#<loc>[a-z]*://[^/]*##' -e 's#</loc>##')
paths="$paths /no-such-page"
n=0
for path in $paths; do
  n=$((n + 1))
  # 404 is expected for the last one; anything else must answer 200.
  curl -s -o "$work/pages/$n.html" "$base$path"
  echo "$path" >"$work/pages/$n.path"
done
# The organiser area: the sign-in page, then a real sign-in for the other two.
organiser_page() { # NAME PATH [curl args...]: saves the answer (must be 200) as the next page
  local name=$1 path=$2 code
  shift 2
  n=$((n + 1))
  code=$(curl -s -o "$work/pages/$n.html" -w '%{http_code}' -b "$work/cookies" -c "$work/cookies" "$@" "$base$path")
  echo "$name ($path)" >"$work/pages/$n.path"
  [ "$code" = 200 ] || { echo "validate: $name answered $code, not 200" >&2; exit 1; }
}
organiser_page "organiser sign-in page" /organiser
grep -q 'name="email"' "$work/pages/$n.html" || { echo "validate: /organiser is not the sign-in page" >&2; exit 1; }
curl -fs -o /dev/null -H "Origin: $base" --data-urlencode "email=$organiser" "$base/organiser/sign-in"
# The outbox worker writes the mail within seconds; wait for it, 30 s at most.
link=$(mailed_link "$work/data/mail" '/organiser/sign-in/[A-Za-z0-9_-]\{43\}') ||
  { echo "validate: no sign-in mail in $work/data/mail within 30 s" >&2; cat "$work/server.log" >&2; exit 1; }
organiser_page "organiser link confirmation page" "$link"
grep -q "Sign in as $organiser" "$work/pages/$n.html" || { echo "validate: $link is not the confirmation page" >&2; exit 1; }
signed_in=$(curl -s -o /dev/null -w '%{http_code} %{redirect_url}' -b "$work/cookies" -c "$work/cookies" \
  -H "Origin: $base" -X POST "$base$link")
[ "$signed_in" = "303 $base/organiser" ] || { echo "validate: signing in answered $signed_in" >&2; exit 1; }
organiser_page "organiser dashboard" /organiser
grep -q "Signed in as <strong>$organiser</strong>" "$work/pages/$n.html" || { echo "validate: no dashboard after signing in" >&2; exit 1; }
# Every list, with rows, filtered, and with nothing matching, and the detail page of the first
# row of each list that has them: what visitors send, through the public forms.
printf '%%PDF-1.4\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n2 0 obj\n<< /Type /Pages /Kids [] /Count 0 >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%%%EOF\n' >"$work/paper.pdf"
visitor_post() { # NAME PATH [curl args...]: a visitor's POST, which must answer 2xx
  local name=$1 path=$2 code
  shift 2
  code=$(curl -s -o "$work/post.txt" -w '%{http_code}' -H "Origin: $base" "$@" "$base$path")
  case "$code" in 2??) ;; *) echo "validate: $name answered $code: $(head -c 300 "$work/post.txt")" >&2; exit 1 ;; esac
}
# The shipped seed's deadlines lie in the past of a real clock (issue 42): submissions and
# registration are closed until an organiser moves them to next year, as issue 42's "Done
# when" does; the settings page as saved is validated too.
next_year=$(( $(date -u +%Y) + 1 ))
organiser_page "organiser settings, saved" /organiser/settings -H "Origin: $base" \
  --data "paper_due_date=$next_year-03-01&registration_closes=$next_year-03-01"
grep -q "paper_due_date: .* $next_year-03-01" "$work/pages/$n.html" || { echo "validate: the settings were not saved" >&2; exit 1; }
visitor_post "a paper submission" /api/paper-submission -F "authorName=Ana Cruz" -F "coAuthorName=Ben Reyes" \
  -F number=+639171234567 -F email=ana.cruz@example.org -F country=Philippines \
  -F "paperTitle=Solar microgrids for island communities" -F "department=Electrical Engineering" \
  -F "universityOrganization=University of Manila" -F "paperType=Full Paper" -F presentationType=Oral \
  -F conferenceSource=linkedin -F "message=Keywords: solar, microgrid." -F "file=@$work/paper.pdf;type=application/pdf"
visitor_post "a contact message" /api/contact -H 'Content-Type: application/json' \
  --data '{"name":"Ana Cruz","number":"+639171234567","email":"ana.cruz@example.org","country":"Philippines","message":"Is there a student discount?"}'
visitor_post "an order" /api/ccavenue-initiate -H 'Content-Type: application/json' \
  --data '{"plan":"presenter-virtual","name":"Ana Cruz","email":"ana.cruz@example.org","phone":"+639171234567","address":"1 Rizal Street","city":"Manila","state":"Metro Manila","zip":"1000","country":"Philippines"}'
visitor_post "a newsletter sign-up" /api/newsletter -H 'Content-Type: application/json' --data '{"email":"ana.cruz@example.org"}'
for list in submissions messages orders subscribers outbox audit; do
  organiser_page "organiser $list list" "/organiser/$list"
  grep -q '<tbody>' "$work/pages/$n.html" || { echo "validate: /organiser/$list has no table" >&2; exit 1; }
  detail=$(grep -o "href=\"/organiser/$list/[^\"/]*\"" "$work/pages/$n.html" | head -n 1 | sed -e 's/^href="//' -e 's/"$//' || true)
  case "$list" in
    submissions | messages | orders)
      [ -n "$detail" ] || { echo "validate: /organiser/$list links no detail page" >&2; exit 1; }
      organiser_page "organiser ${list%s} page" "$detail"
      ;;
  esac
  organiser_page "organiser $list list, searched, nothing matches" "/organiser/$list?q=nothing+matches+this"
done
organiser_page "organiser submissions list, filtered and sorted" "/organiser/submissions?paper_type=Full+Paper&from=2020-01-01&to=2099-12-31&sort=title&dir=asc"
organiser_page "organiser messages list, unread" "/organiser/messages?status=unread"
organiser_page "organiser orders list, filtered" "/organiser/orders?status=initiated&kind=plan&payments_mode=test"
organiser_page "organiser subscribers list, pending" "/organiser/subscribers?status=pending"
organiser_page "organiser review progress" /organiser/review
organiser_page "organiser settings (the calendar's deadlines)" /organiser/settings
grep -q 'id="deadlines"' "$work/pages/$n.html" || { echo "validate: /organiser/settings has no deadlines" >&2; exit 1; }
organiser_page "organiser submissions list, sorted by review score, disagreement" "/organiser/submissions?sort=score&dir=desc&disagreement=yes&reviews_below=2"

# Decisions (issue 21): a paper sent through the API, a staged decision, then the list with its
# selection form, the submission's page with its decision form and history, the preview of the
# mails, the review of a selection, and the author's status page from the acknowledgement.
printf '%%PDF-1.4\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%%%EOF\n' >"$work/paper.pdf"
reference=$(curl -fs -H "Origin: $base" -F authorName='Ana Cruz' -F coAuthorName='Ben Reyes' -F number=+639171234567 \
  -F email=validate.author@example.org -F country=Philippines -F paperTitle='Validated tides' -F department=Physics \
  -F universityOrganization='University of Manila' -F paperType='Full Paper' -F presentationType=Oral \
  -F conferenceSource=linkedin -F message='Keywords: tides.' -F "file=@$work/paper.pdf;type=application/pdf" \
  "$base/api/paper-submission" | grep -o '"reference":"[^"]*"' | cut -d'"' -f4)
[ -n "$reference" ] || { echo "validate: the paper was not accepted" >&2; exit 1; }
staged=$(curl -s -o /dev/null -w '%{http_code}' -b "$work/cookies" -H "Origin: $base" \
  --data 'version=1&decision=accepted&note=Welcome' "$base/organiser/submissions/$reference/decision")
[ "$staged" = 303 ] || { echo "validate: staging a decision answered $staged" >&2; exit 1; }
organiser_page "organiser submissions with the selection form" /organiser/submissions
organiser_page "organiser submission with its decision form and history" "/organiser/submissions/$reference"
organiser_page "organiser preview of the decision mails" /organiser/decisions
organiser_page "organiser review of a selection" /organiser/submissions/decide -H "Origin: $base" \
  --data "decision=rejected&item=$reference:2"
status_link=$(mailed_link "$work/data/mail" '/submission/status/[A-Za-z0-9_-]\{43\}') ||
  { echo "validate: no acknowledgement with a status link within 30 s" >&2; exit 1; }
organiser_page "author's status page" "$status_link"
grep -q "Withdraw my submission" "$work/pages/$n.html" || { echo "validate: $status_link is not the status page" >&2; exit 1; }

# The programme (issue 31): the paper accepted and placed, then the organisers' programme page
# with its talk and notice, and the paper's public abstract and presenter.
applied=$(curl -s -o /dev/null -w '%{http_code}' -b "$work/cookies" -H "Origin: $base" \
  --data "item=$reference:2" "$base/organiser/decisions/apply")
[ "$applied" = 303 ] || { echo "validate: applying the decision answered $applied" >&2; exit 1; }
placed=$(curl -s -o /dev/null -w '%{http_code}' -b "$work/cookies" -H "Origin: $base" \
  --data "paper=$reference&session=technical-1a-climate-change&minutes=15" "$base/organiser/programme/place")
[ "$placed" = 303 ] || { echo "validate: placing the paper answered $placed" >&2; exit 1; }
organiser_page "organiser programme with a talk" "/organiser/programme?done=placed&paper=$reference"
grep -q "Validated tides" "$work/pages/$n.html" || { echo "validate: the programme page lists no talk" >&2; exit 1; }
organiser_page "organiser public abstract and presenter of a paper" "/organiser/programme/papers/$reference"

# Reviewers (issue 32 item 1): the list with an invited reviewer, the forms refused (422, with
# the field's errors and the pasted list's bad lines), the invitation page from its mail, the
# page after accepting and the used link's 404.
organiser_answer() { # NAME STATUS PATH [curl args...]: saves the answer (must be STATUS) as the next page
  local name=$1 expected=$2 path=$3 code
  shift 3
  n=$((n + 1))
  code=$(curl -s -o "$work/pages/$n.html" -w '%{http_code}' -b "$work/cookies" -c "$work/cookies" "$@" "$base$path")
  echo "$name ($path)" >"$work/pages/$n.path"
  [ "$code" = "$expected" ] || { echo "validate: $name answered $code, not $expected" >&2; exit 1; }
}
invited=$(curl -s -o /dev/null -w '%{http_code} %{redirect_url}' -b "$work/cookies" -H "Origin: $base" \
  --data 'name=Ada+Lovelace&email=validate.reviewer%40example.org&affiliation=Analytical+Engines' \
  "$base/organiser/reviewers/invite")
case "$invited" in "303 $base/organiser/reviewers?done=invited&id="*) ;; *) echo "validate: inviting a reviewer answered $invited" >&2; exit 1 ;; esac
organiser_page "organiser reviewers with an invited reviewer" "${invited#"303 $base"}"
organiser_answer "organiser reviewers, a refused invitation" 422 /organiser/reviewers/invite -H "Origin: $base" \
  --data 'name=&email=not-mail&topics=Astrology'
organiser_answer "organiser reviewers, a refused list" 422 /organiser/reviewers/import -H "Origin: $base" \
  --data-urlencode "reviewers=$(printf 'name,email\nBen Uy,not-mail\nCy Lim,cy@example.org,,Astrology')"
invitation=$(mailed_link "$work/data/mail" '/review/invitation/[A-Za-z0-9_-]\{43\}') ||
  { echo "validate: no invitation mail within 30 s" >&2; exit 1; }
organiser_page "reviewer's invitation" "$invitation?answer=accept"
organiser_answer "reviewer's invitation, accepted" 200 "$invitation" -H "Origin: $base" --data answer=accept
organiser_answer "reviewer's invitation link, used" 404 "$invitation"
# Review assignments (issue 32 item 4): the overview with the first paper (still submitted),
# the preview with nothing staged, and that paper's reviewers (none has accepted on this seed).
organiser_page "organiser review assignments" /organiser/review/assignments
assigned=$(grep -o 'href="/organiser/review/assignments/P-[^"]*"' "$work/pages/$n.html" | head -n 1 | sed -e 's/^href="//' -e 's/"$//' || true)
[ -n "$assigned" ] || { echo "validate: /organiser/review/assignments links no paper" >&2; exit 1; }
organiser_page "organiser staged review assignments" /organiser/review/assignments/staged
organiser_page "organiser reviewers of a paper" "$assigned"
# Reviewing (issue 32): the paper above released to two reviewers by SQL (what releasing an
# assignment does) with a deadline to come, the other reviewer's submitted review and message,
# then a real reviewer sign-in in a cookie jar of its own: the sign-in and confirmation pages,
# the reviewer's list, the paper's page (fresh; with a refused submission's field errors; after
# submitting, with the other review and the discussion; after the deadline) and the 404 of a
# paper that is not theirs.
reviewer=validate.reviewing@example.org
sqlite3 "$work/data/conference.db" <<SQL >/dev/null
.timeout 5000
UPDATE site SET review_deadline = '2099-12-31 23:59';
INSERT INTO reviewers (email, name, state, invited_at, answered_at) VALUES
  ('$reviewer', 'Val Reviewer', 'accepted', '2025-01-01T00:00:00Z', '2025-01-01T00:00:00Z'),
  ('validate.other@example.org', 'Other Reviewer', 'accepted', '2025-01-01T00:00:00Z', '2025-01-01T00:00:00Z');
UPDATE submissions SET review_code = 'R-VALID1' WHERE reference = '$reference';
INSERT INTO review_assignments (submission_id, reviewer_id, number, state, created, released_at)
  SELECT s.id, r.id, CASE r.email WHEN '$reviewer' THEN 1 ELSE 2 END, 'released', '2025-02-20T00:00:00Z', '2025-02-20T00:00:00Z'
  FROM submissions s, reviewers r
  WHERE s.reference = '$reference' AND r.email IN ('$reviewer', 'validate.other@example.org');
INSERT INTO reviews (assignment_id, submission_id, reviewer_id, state, answers, score, recommendation, confidence,
                     comments_to_authors, confidential_comments, created, updated, submitted_at)
  SELECT a.id, a.submission_id, a.reviewer_id, 'submitted',
         '[{"key":"originality","label":"Originality","weight":2,"score":4,"score_label":"Original","out_of":5}]',
         4000, 'accept', 4, 'Clear and useful.', 'I would accept it.',
         '2025-02-25T00:00:00Z', '2025-02-25T00:00:00Z', '2025-02-25T00:00:00Z'
  FROM review_assignments a JOIN reviewers r ON r.id = a.reviewer_id WHERE r.email = 'validate.other@example.org';
INSERT INTO review_comments (submission_id, reviewer_id, body, created)
  SELECT a.submission_id, a.reviewer_id, 'Section 3 needs a second look.', '2025-02-26T00:00:00Z'
  FROM review_assignments a JOIN reviewers r ON r.id = a.reviewer_id WHERE r.email = 'validate.other@example.org';
SQL
reviewer_page() { # NAME PATH STATUS [curl args...]: saves the answer (must be STATUS) as the next page
  local name=$1 path=$2 want=$3 code
  shift 3
  n=$((n + 1))
  code=$(curl -s -o "$work/pages/$n.html" -w '%{http_code}' -b "$work/reviewer-cookies" -c "$work/reviewer-cookies" "$@" "$base$path")
  echo "$name ($path)" >"$work/pages/$n.path"
  [ "$code" = "$want" ] || { echo "validate: $name answered $code, not $want" >&2; exit 1; }
}
reviewer_page "reviewer sign-in page" /review 200
curl -fs -o /dev/null -H "Origin: $base" --data-urlencode "email=$reviewer" "$base/review/sign-in"
review_link=$(mailed_link "$work/data/mail" '/review/sign-in/[A-Za-z0-9_-]\{43\}') ||
  { echo "validate: no reviewer sign-in mail within 30 s" >&2; exit 1; }
reviewer_page "reviewer link confirmation page" "$review_link" 200
signed_in=$(curl -s -o /dev/null -w '%{http_code} %{redirect_url}' -b "$work/reviewer-cookies" -c "$work/reviewer-cookies" \
  -H "Origin: $base" -X POST "$base$review_link")
[ "$signed_in" = "303 $base/review" ] || { echo "validate: the reviewer's sign-in answered $signed_in" >&2; exit 1; }
reviewer_page "reviewer's papers" /review 200
grep -q 'R-VALID1' "$work/pages/$n.html" || { echo "validate: /review does not list R-VALID1" >&2; exit 1; }
reviewer_page "reviewer's paper" /review/papers/R-VALID1 200
version=$(grep -o 'name="version" value="[^"]*"' "$work/pages/$n.html" | sed -e 's/.*value="//' -e 's/"$//')
reviewer_page "reviewer's paper with a refused review" /review/papers/R-VALID1/review 422 -H "Origin: $base" \
  --data "version=$version&action=submit&score-originality=3&comments_to_authors=Half+done."
submitted=$(curl -s -o /dev/null -w '%{http_code}' -b "$work/reviewer-cookies" -H "Origin: $base" \
  --data "version=$version&action=submit&score-originality=4&score-technical-quality=3&score-clarity=5&score-relevance=4&recommendation=weak_accept&confidence=3&comments_to_authors=Sound.&confidential_comments=Fine." \
  "$base/review/papers/R-VALID1/review")
[ "$submitted" = 303 ] || { echo "validate: submitting the review answered $submitted" >&2; exit 1; }
reviewer_page "reviewer's paper after submitting, with the other review and the discussion" \
  "/review/papers/R-VALID1?done=submitted" 200
grep -q 'Clear and useful.' "$work/pages/$n.html" || { echo "validate: the other review does not show" >&2; exit 1; }
reviewer_page "a paper the reviewer may not see" /review/papers/R-NOTYOURS 404
sqlite3 "$work/data/conference.db" ".timeout 5000" "UPDATE site SET review_deadline = '2025-03-03 23:59'"
reviewer_page "reviewer's paper after the deadline" /review/papers/R-VALID1 200
grep -q 'The deadline has passed' "$work/pages/$n.html" || { echo "validate: the deadline does not show as passed" >&2; exit 1; }

# The attendee side (issue 33): an order paid through the test gateway (initiated, then the
# gateway's Approve form posted back), the attendee page from its receipt mail, the QR's
# check-in address as a phone opens it, "send my link again" (the form and its answer) and the
# 404 of a wrong link.
attendee_page() { # NAME PATH STATUS [curl args...]: saves the answer (must be STATUS) as the next page
  local name=$1 path=$2 want=$3 code
  shift 3
  n=$((n + 1))
  code=$(curl -s -o "$work/pages/$n.html" -w '%{http_code}' "$@" "$base$path")
  echo "$name ($path)" >"$work/pages/$n.path"
  [ "$code" = "$want" ] || { echo "validate: $name answered $code, not $want" >&2; exit 1; }
}
initiated=$(curl -s -H "Origin: $base" -H 'Content-Type: application/json' \
  --data '{"plan":"listener-physical","name":"Zoë Ñúñez","email":"validate.attendee@example.org","phone":"+639171234567","address":"12 Quay Road","city":"Port Quill","state":"","zip":"4242","country":"Lanternland"}' \
  "$base/api/ccavenue-initiate")
enc_request=$(echo "$initiated" | sed -n 's/.*"encRequest":"\([0-9a-f]*\)".*/\1/p')
[ -n "$enc_request" ] || { echo "validate: initiating a ticket order answered $initiated" >&2; exit 1; }
enc_response=$(curl -s -H "Origin: $base" --data "encRequest=$enc_request&access_code=TEST" "$base/test-gateway" |
  grep -o 'name="encResp" value="[0-9a-f]*"' | head -n 1 | sed -e 's/.*value="//' -e 's/"$//')
[ -n "$enc_response" ] || { echo "validate: the test gateway offered no Approve form" >&2; exit 1; }
approved=$(curl -s -o /dev/null -w '%{http_code}' -H "Origin: $base" --data-urlencode "encResp=$enc_response" "$base/api/ccavenue-handle")
case "$approved" in 30?) ;; *) echo "validate: approving the payment answered $approved" >&2; exit 1 ;; esac
attendee_link=$(mailed_link "$work/data/mail" '/attendee/[A-Za-z0-9_-]\{43\}') ||
  { echo "validate: no receipt mail with an attendee link within 30 s" >&2; exit 1; }
attendee_page "attendee page" "$attendee_link" 200
check_in=$(grep -o '/check-in/[A-Za-z0-9]*' "$work/pages/$n.html" | head -n 1)
[ -n "$check_in" ] || { echo "validate: the attendee page prints no check-in address" >&2; exit 1; }
attendee_page "ticket's check-in address, without a desk's session" "$check_in" 200
attendee_page "send my link again" /attendee 200
attendee_page "send my link again, answered" /attendee 200 -H "Origin: $base" \
  --data 'email=nobody%40example.org&order=ORD1740816000000AB12CD'
attendee_page "a wrong attendee link" "/attendee/$(printf 'A%.0s' $(seq 1 43))" 404
# Certificates (issue 33 item 5): two certificates of the accepted paper stored by SQL (what a
# release after the conference does), one revoked; the public verify page of each, the revoked
# one's PDF (410), and the organisers' page with its rows and with a refused reissue (422).
sqlite3 "$work/data/conference.db" <<SQL >/dev/null
.timeout 5000
INSERT INTO certificates (code, email, holder_name, kind, submission_id, reference, title, release_number, issued_at, revoked_at, revoked_by)
  SELECT 'VALIDCERTVALIDCERTVALIDCE2', email, author_name, 'presentation', id, reference, paper_title, 1, '2025-03-25T00:00:00Z', NULL, NULL
  FROM submissions WHERE reference = '$reference';
INSERT INTO certificates (code, email, holder_name, kind, submission_id, reference, title, release_number, issued_at, revoked_at, revoked_by, replaced_by)
  SELECT 'REVOKEDCERTREVOKEDCERTREV2', email, author_name, 'presentation', id, reference, paper_title, 1, '2025-03-24T00:00:00Z', '2025-03-25T00:00:00Z', '$organiser', 'VALIDCERTVALIDCERTVALIDCE2'
  FROM submissions WHERE reference = '$reference';
SQL
organiser_answer "certificate verify page" 200 /certificates/VALIDCERTVALIDCERTVALIDCE2
organiser_answer "certificate verify page, revoked" 200 /certificates/REVOKEDCERTREVOKEDCERTREV2
organiser_answer "certificate PDF, revoked" 410 /certificates/REVOKEDCERTREVOKEDCERTREV2.pdf
organiser_page "organiser certificates" /organiser/certificates
grep -q 'VALIDCERTVALIDCERTVALIDCE2' "$work/pages/$n.html" || { echo "validate: /organiser/certificates lists no certificate" >&2; exit 1; }
organiser_answer "organiser certificates, a refused reissue" 422 /organiser/certificates/VALIDCERTVALIDCERTVALIDCE2/reissue \
  -H "Origin: $base" --data 'name='
# The check-in desk (issue 33 item 3): a ticket written by SQL for the order sent above, then
# the desk as the organiser (fresh, searched, after a valid check-in, after "already", with a
# refused empty code) and the desk staff's sign-in page (no session).
sqlite3 "$work/data/conference.db" <<SQL >/dev/null
.timeout 5000
INSERT INTO tickets (order_id, code, holder_name, mode, ticket_type, created)
  SELECT order_id, 'VALIDATECHECKINCODEABCDEF2', 'Ana Cruz', 'physical', 'Presenter', '2025-03-01T00:00:00Z'
  FROM orders ORDER BY created LIMIT 1;
SQL
organiser_page "check-in desk" /organiser/check-in
organiser_page "check-in desk, searched" "/organiser/check-in?q=ana"
grep -q 'id="check-in-found"' "$work/pages/$n.html" || { echo "validate: the desk's search lists nothing" >&2; exit 1; }
organiser_page "check-in desk, a valid ticket" /organiser/check-in -H "Origin: $base" --data code=VALIDATECHECKINCODEABCDEF2
grep -q 'data-result="valid"' "$work/pages/$n.html" || { echo "validate: the desk did not check the ticket in" >&2; exit 1; }
organiser_page "check-in desk, already checked in" /organiser/check-in -H "Origin: $base" \
  --data-urlencode "code=$base/check-in/VALIDATECHECKINCODEABCDEF2"
grep -q 'data-result="already"' "$work/pages/$n.html" || { echo "validate: the desk's second scan is not 'already'" >&2; exit 1; }
organiser_answer "check-in desk, an empty code" 422 /organiser/check-in -H "Origin: $base" --data code=
n=$((n + 1))
curl -s -o "$work/pages/$n.html" "$base/organiser/check-in"
echo "check-in desk sign-in page (/organiser/check-in)" >"$work/pages/$n.path"
grep -q 'action="/organiser/check-in/sign-in"' "$work/pages/$n.html" || { echo "validate: no desk sign-in page" >&2; exit 1; }

# Every stylesheet any page links: the site-wide one and the page-group sheets.
css=$(cat "$work/pages/"*.html | grep -o '/assets/[^"]*\.css' | sort -u)
for href in $css; do
  curl -fs -o "$work/pages/$(basename "$href")" "$base$href"
done

echo "validate: $n pages and $(echo "$css" | wc -w) stylesheet(s) with vnu"
status=0
java -jar "$vnu" --errors-only --also-check-css --format gnu "$work/pages/"*.html "$work/pages/"*.css >"$work/vnu.txt" 2>&1 || status=$?
if [ "$status" -ne 0 ]; then
  # Name the page behind each numbered file.
  while IFS= read -r line; do
    file=$(echo "$line" | sed -n 's#^"\{0,1\}[^"]*/pages/\([0-9]*\)\.html.*#\1#p')
    if [ -n "$file" ]; then echo "$(cat "$work/pages/$file.path"): $line"; else echo "$line"; fi
  done <"$work/vnu.txt"
  exit 1
fi
echo "validate: no errors"
