#!/usr/bin/env bash
# Issue 40 item 4: the worst hour of the conference on one small machine. The release server on
# SQLite, pinned to one core (`taskset -c 0`) inside a 512 MB memory limit, with a published
# programme of 250 talks (examples/programme_fixture.rs), 5,000 paid tickets (by SQL,
# `insert_tickets` in bench/server.sh) and 20 reviewers with 2 papers of the programme each
# assigned per paper (by SQL), takes for DURATION seconds, all at once, from a load generator
# on the other core (`taskset -c 1`, bench/worst_hour.py, open loop):
#
#   - /schedule and the talk pages:                      300 requests/s
#   - payments: POST /api/ccavenue-initiate, then its TEST gateway answer
#     (POST /api/ccavenue-handle, encResp under the TEST working key):  20 a second
#   - check-ins from 4 desk sessions:                     20 a second
#   - paper uploads of 1 MB (POST /api/paper-submission):  2 a second
#   - the reviewers' pages (/review, their papers):       10 requests/s
#
# while the outbox sends every mail to a local SMTP sink (bench/smtp_sink.py, also on core 1).
# Per route: requests/s achieved, p50, p99, errors (an unexpected status or a timeout), and how
# late the generator sent against its schedule; the server's peak memory; then it accounts
# for every order, ticket, check-in, submission, paper file and mail, counted from the
# database (sqlite3) and the sink. Targets: p99 <= 50 ms on every route, 0 errors, nothing
# lost. Then the reference: nginx (pinned the same way) serving the same pages' bytes (the
# server's gzip copies, `gzip_static`) at the same 300 requests/s from the same generator,
# for NGINX_DURATION seconds.
#
# All load comes from one address, so the per-address limits are raised and say so in the
# output: RATE_LIMIT_PER_MINUTE (POSTs a minute per address) and MAX_CONNECTIONS_PER_CLIENT.
# The desk's per-session budget (CHECKIN_SCANS_PER_SECOND, 10 by default) is left as it is:
# each desk session scans 5 a second.
#
#   cargo build --release --bin conference --example programme_fixture
#   bench/worst-hour.sh                     # DURATION=600 NGINX_DURATION=60 CORES=1
#   CORES=2 DURATION=120 bench/worst-hour.sh  # the server on both cores (taskset -c 0,1)
#
# Memory: a cgroup with a 512 MB limit (MEMORY_MB), the cgroup v2 `memory.max` when this
# machine has it, else the cgroup v1 memory controller's `memory.limit_in_bytes`; if neither
# can be written, `systemd-run --scope -p MemoryMax=`, else `prlimit --as` (address space, not
# the same thing); the output says which. Builds nothing: BIN (default
# target/release/conference) and the programme fixture beside it. PORT (18401), SMTP_PORT
# (18402), NGINX_PORT (18403). Loopback only; every process it starts is stopped by its pid;
# the cgroup and the temp folder are removed.
set -euo pipefail
cd "$(dirname "$0")/.."

BIN=${BIN:-${CARGO_TARGET_DIR:-target}/release/conference}
NGINX="${NGINX:-/usr/sbin/nginx}"
DURATION=${DURATION:-600}
NGINX_DURATION=${NGINX_DURATION:-60}
CORES=${CORES:-1}
MEMORY_MB=${MEMORY_MB:-512}
TICKETS=${TICKETS:-5000}
REVIEWERS=${REVIEWERS:-20}
DESKS=${DESKS:-4}
PAGES_RATE=${PAGES_RATE:-300}
PAY_RATE=${PAY_RATE:-20}
CHECKIN_RATE=${CHECKIN_RATE:-20}
UPLOAD_RATE=${UPLOAD_RATE:-2}
REVIEW_RATE=${REVIEW_RATE:-10}
PAPER_BYTES=${PAPER_BYTES:-1048576}
PORT=${PORT:-18401}
SMTP_PORT=${SMTP_PORT:-18402}
NGINX_PORT=${NGINX_PORT:-18403}
URL="http://127.0.0.1:$PORT"
NGINX_URL="http://127.0.0.1:$NGINX_PORT"
# The TEST gateway's working key (src/payments/config.rs, TEST_WORKING_KEY).
TEST_WORKING_KEY=$(sed -n 's/^pub const TEST_WORKING_KEY: &str = "\(.*\)";$/\1/p' src/payments/config.rs)

case "$CORES" in
  1) SERVER_CPUS=0 ;;
  2) SERVER_CPUS=0,1 ;;
  *) echo "worst-hour.sh: CORES is 1 or 2" >&2; exit 1 ;;
esac
LOAD_CPUS=1

[ -x "$BIN" ] || { echo "worst-hour.sh: $BIN is missing: cargo build --release --bin conference" >&2; exit 1; }
for tool in sqlite3 python3 curl taskset "$NGINX"; do
  command -v "$tool" >/dev/null || { echo "worst-hour.sh: $tool is missing" >&2; exit 1; }
done
python3 -c 'import aiohttp, cryptography' 2>/dev/null ||
  { echo "worst-hour.sh: the generator needs Python's aiohttp and cryptography (pip install aiohttp cryptography)" >&2; exit 1; }
[ -n "$TEST_WORKING_KEY" ] || { echo "worst-hour.sh: no TEST_WORKING_KEY in src/payments/config.rs" >&2; exit 1; }
[ "$(nproc)" -ge 2 ] || { echo "worst-hour.sh: needs 2 cores (server and load generator apart)" >&2; exit 1; }

# shellcheck source=bench/server.sh
. bench/server.sh

work=$(mktemp -d)
SERVER_PID=
SINK_PID=
NGINX_PID=
cgroup=
cleanup() {
  stop_server
  if [ -n "$SINK_PID" ]; then kill "$SINK_PID" 2>/dev/null || true; wait "$SINK_PID" 2>/dev/null || true; fi
  if [ -n "$NGINX_PID" ]; then kill "$NGINX_PID" 2>/dev/null || true; wait "$NGINX_PID" 2>/dev/null || true; fi
  if [ -n "$cgroup" ] && [ -d "$cgroup" ]; then rmdir "$cgroup" 2>/dev/null || true; fi
  if [ -n "${KEEP_LOG:-}" ] && [ -f "$work/server.log" ]; then cp "$work/server.log" "$KEEP_LOG"; fi
  rm -rf "$work"
}
trap cleanup EXIT

# The memory limit: a cgroup of our own, v2 or v1, else a wrapper; sets LIMIT_HOW, LIMITER
# (the command the server starts under, if any) and cgroup.
bytes=$((MEMORY_MB * 1024 * 1024))
LIMITER=()
name=worst-hour-$$
if [ -f /sys/fs/cgroup/cgroup.controllers ] && grep -qw memory /sys/fs/cgroup/cgroup.controllers \
  && mkdir "/sys/fs/cgroup/$name" 2>/dev/null; then
  cgroup=/sys/fs/cgroup/$name
  if echo "$bytes" >"$cgroup/memory.max" 2>/dev/null; then
    echo 0 >"$cgroup/memory.swap.max" 2>/dev/null || true
    LIMIT_HOW="cgroup v2 $cgroup, memory.max=$bytes"
  else
    rmdir "$cgroup"; cgroup=
  fi
fi
if [ -z "$cgroup" ] && [ -d /sys/fs/cgroup/memory ] && mkdir "/sys/fs/cgroup/memory/$name" 2>/dev/null; then
  cgroup=/sys/fs/cgroup/memory/$name
  if echo "$bytes" >"$cgroup/memory.limit_in_bytes" 2>/dev/null; then
    echo "$bytes" >"$cgroup/memory.memsw.limit_in_bytes" 2>/dev/null || true
    LIMIT_HOW="cgroup v1 memory controller $cgroup, memory.limit_in_bytes=$bytes (this machine's cgroup v2 has no memory controller)"
  else
    rmdir "$cgroup"; cgroup=
  fi
fi
if [ -z "$cgroup" ]; then
  if command -v systemd-run >/dev/null && systemd-run --scope --quiet -p MemoryMax="${MEMORY_MB}M" true 2>/dev/null; then
    LIMITER=(systemd-run --scope --quiet -p MemoryMax="${MEMORY_MB}M")
    LIMIT_HOW="no writable cgroup: systemd-run --scope -p MemoryMax=${MEMORY_MB}M"
  else
    LIMITER=(prlimit --as="$bytes")
    LIMIT_HOW="no writable cgroup and no systemd: prlimit --as=$bytes (address space, not resident memory)"
  fi
fi

# The SMTP sink, on the generator's core.
mkdir -p "$work/sink" "$work/data"
taskset -c "$LOAD_CPUS" python3 bench/smtp_sink.py "$SMTP_PORT" "$work/sink" &
SINK_PID=$!

DESK_EMAILS=$(seq 1 "$DESKS" | sed 's/.*/desk&@example.org/' | paste -sd, -)
db=$work/conference.db
# The server: into the cgroup first (a subshell writes its own pid, then becomes the server,
# keeping the pid), pinned to SERVER_CPUS.
(
  if [ -n "$cgroup" ]; then echo "$BASHPID" >"$cgroup/cgroup.procs"; fi
  exec "${LIMITER[@]}" taskset -c "$SERVER_CPUS" env DATABASE_URL="sqlite://$db" DATA_DIR="$work/data" \
    LISTEN_ADDR="127.0.0.1:$PORT" PUBLIC_URL="$URL" RUST_LOG="${LOG_FILTER:-info}" \
    SMTP_URL="smtp://127.0.0.1:$SMTP_PORT" PAYMENTS_MODE=test \
    ORGANISER_EMAIL=bench.chair@example.org CHECKIN_EMAIL="$DESK_EMAILS" CHECKIN_DAYS=any \
    RATE_LIMIT_PER_MINUTE=10000000 MAX_CONNECTIONS_PER_CLIENT=4096 \
    "$BIN" serve >"$work/server.log" 2>&1
) &
SERVER_PID=$!
for _ in $(seq 1 100); do
  curl -fs "$URL/api/health" >/dev/null 2>&1 && break
  sleep 0.1
done
curl -fs "$URL/api/health" >/dev/null || { echo "worst-hour.sh: the server did not start:" >&2; cat "$work/server.log" >&2; exit 1; }
# The island assets' brotli pass at quality 11 runs in the background after start-up.
sleep 3

# The data: the programme, the tickets, the reviewers and their assignments.
publish_programme "$URL" "$work"
insert_tickets "sqlite://$db" "$TICKETS"
sqlite3 "$db" <<SQL >/dev/null
.timeout 10000
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < $REVIEWERS)
INSERT INTO reviewers (email, name, affiliation, topics, state, invited_at, answered_at)
  SELECT printf('reviewer%d@review.example.net', i), printf('Reviewer %d', i), 'Institute of Load', '', 'accepted',
         '2025-01-01T00:00:00Z', '2025-01-01T00:00:00Z'
  FROM n;
UPDATE submissions SET review_code = printf('R-W%05d', id) WHERE review_code IS NULL;
INSERT INTO review_assignments (submission_id, reviewer_id, number, state, created, released_at)
  SELECT s.id, r.id, k.number, 'released', '2025-01-02T00:00:00Z', '2025-01-02T00:00:00Z'
  FROM submissions s
  JOIN (SELECT 1 AS number UNION ALL SELECT 2) k
  JOIN reviewers r ON r.id = (SELECT MIN(id) FROM reviewers) + (s.id + k.number - 1) % $REVIEWERS;
SQL
sqlite3 "$db" "SELECT code FROM tickets ORDER BY id" >"$work/codes.txt"
# Each reviewer's papers (by the reviewer's place among the reviewers, from 0), at most 5.
sqlite3 "$db" "SELECT r.id - (SELECT MIN(id) FROM reviewers), s.review_code FROM review_assignments a
  JOIN reviewers r ON r.id = a.reviewer_id JOIN submissions s ON s.id = a.submission_id ORDER BY a.id" >"$work/assigned.txt"
curl -fs "$URL/schedule" | grep -o 'href="/schedule/talks/[^"]*"' | sed -e 's/^href="//' -e 's/"$//' | sort -u >"$work/talks.txt"
talks=$(wc -l <"$work/talks.txt")
[ "$talks" -gt 0 ] || { echo "worst-hour.sh: no talk links on /schedule" >&2; exit 1; }
# The page mix: /schedule, then a talk, in turn.
awk '{ print "/schedule"; print }' "$work/talks.txt" >"$work/pages.txt"

python3 - "$work" "$URL" "$DURATION" "$PAGES_RATE" "$PAY_RATE" "$CHECKIN_RATE" "$UPLOAD_RATE" "$REVIEW_RATE" \
  "$PAPER_BYTES" "$TEST_WORKING_KEY" "$DESKS" "$REVIEWERS" <<'PY'
import json, sys
work, url, duration, pages, pay, checkin, upload, review, paper, key, desks, reviewers = sys.argv[1:]
assigned = {}
for line in open(f"{work}/assigned.txt"):
    who, code = line.strip().split("|")
    assigned.setdefault(who, [])
    if len(assigned[who]) < 5:
        assigned[who].append(f"/review/papers/{code}")
cfg = {"url": url, "duration": float(duration), "sink": f"{work}/sink", "cookies": f"{work}/cookies.json",
       "codes": f"{work}/codes.txt", "working_key": key, "db": f"{work}/conference.db", "data_dir": f"{work}/data",
       "figures": f"{work}/figures.json", "paper_bytes": int(paper), "plan": "listener-physical",
       "pages": [l.strip() for l in open(f"{work}/pages.txt") if l.strip()],
       "review_paths": assigned,
       "desks": [f"desk{i}@example.org" for i in range(1, int(desks) + 1)],
       "reviewers": [f"reviewer{i}@review.example.net" for i in range(1, int(reviewers) + 1)],
       "rates": {"pages": float(pages), "pay": float(pay), "check-in": float(checkin), "upload": float(upload),
                 "review": float(review)}}
json.dump(cfg, open(f"{work}/config.json", "w"))
PY

# Every page of the mix once, as a browser asks (`br, gzip`): the first request after the
# programme's publication renders and compresses a page; the hour measures the warm server.
warm_started=$(date +%s.%N)
sort -u "$work/pages.txt" | while read -r path; do curl -fs -o /dev/null -H 'Accept-Encoding: br, gzip' "$URL$path"; done
warm_s=$(awk -v s="$warm_started" -v e="$(date +%s.%N)" 'BEGIN { printf "%.1f", e - s }')

# The desks and reviewers sign in by their mailed links (through the sink).
taskset -c "$LOAD_CPUS" python3 bench/worst_hour.py sign-in "$work/config.json"
python3 bench/worst_hour.py baseline "$work/config.json"
sink_before=$(find "$work/sink" -name '*.eml' | wc -l)

rss_kb() { awk -v k="$1" '$1 == k ":" { print $2 }' "/proc/$SERVER_PID/status"; }
cpu_model=$(awk -F': ' '/model name/ { print $2; exit }' /proc/cpuinfo)
echo "# $(date -u '+%F %H:%M') UTC, $(nproc) cores: $cpu_model; load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo "# server: $BIN on SQLite, taskset -c $SERVER_CPUS; generator and SMTP sink taskset -c $LOAD_CPUS; log filter ${LOG_FILTER:-info}"
echo "# memory limit: $LIMIT_HOW"
echo "# per-address limits raised (all load comes from 127.0.0.1): RATE_LIMIT_PER_MINUTE=10000000 MAX_CONNECTIONS_PER_CLIENT=4096; CHECKIN_SCANS_PER_SECOND left at its default (each of the $DESKS desks scans $(awk -v r="$CHECKIN_RATE" -v d="$DESKS" 'BEGIN { print r / d }') a second)"
echo "# data: $talks talks published, $TICKETS paid tickets, $REVIEWERS reviewers (2 per paper), $DESKS desk sessions; VmRSS before the load $(( $(rss_kb VmRSS) / 1024 )) MiB"
echo "# pages warmed first: $(sort -u "$work/pages.txt" | wc -l) pages asked once each (br, gzip), cold, one after another: $warm_s s"
echo "# load for $DURATION s, open loop: pages ${PAGES_RATE}/s (/schedule and $talks talk pages in turn), pay ${PAY_RATE}/s (initiate, then the gateway's answer), check-in ${CHECKIN_RATE}/s, upload ${UPLOAD_RATE}/s of $PAPER_BYTES bytes, review ${REVIEW_RATE}/s; milliseconds"
taskset -c "$LOAD_CPUS" python3 bench/worst_hour.py load "$work/config.json"

# Peak memory: the process's high-water mark, and the cgroup's (which also counts the page
# cache of the files it wrote: the papers, the database).
hwm=$(rss_kb VmHWM)
rss=$(rss_kb VmRSS)
case "$cgroup" in
  /sys/fs/cgroup/memory/*) cg_peak=$(cat "$cgroup/memory.max_usage_in_bytes"); cg_oom=$(awk '$1 == "oom_kill" { print $2 }' "$cgroup/memory.oom_control" 2>/dev/null || echo 0); cg_fail=$(cat "$cgroup/memory.failcnt") ;;
  /sys/fs/cgroup/*) cg_peak=$(cat "$cgroup/memory.peak" 2>/dev/null || echo 0); cg_oom=$(awk '$1 == "oom_kill" { print $2 }' "$cgroup/memory.events"); cg_fail=$(awk '$1 == "max" { print $2 }' "$cgroup/memory.events") ;;
  *) cg_peak=0; cg_oom=n/a; cg_fail=n/a ;;
esac
echo "server memory: VmHWM (peak RSS) $((hwm / 1024)) MiB, VmRSS at the end $((rss / 1024)) MiB; cgroup peak $((cg_peak / 1048576)) MiB with page cache (limit $MEMORY_MB MiB, times at the limit: $cg_fail, OOM kills: ${cg_oom:-0})"

# CPU seconds (user + system) a process has used so far.
cpu_s() { awk -v hz="$(getconf CLK_TCK)" '{ printf "%.0f", ($14 + $15) / hz }' "/proc/$1/stat"; }
echo "CPU used since start: server $(cpu_s "$SERVER_PID") s, SMTP sink $(cpu_s "$SINK_PID") s"

# Every mail out before counting (bounded: 120 s).
for _ in $(seq 1 1200); do
  [ "$(sqlite3 -cmd '.timeout 10000' "$db" "SELECT COUNT(*) FROM outbox WHERE status = 'pending'")" = 0 ] && break
  sleep 0.1
done
sleep 1
echo "## accounting (database: sqlite3 on the server's file; mail: the sink's $(( $(find "$work/sink" -name '*.eml' | wc -l) - sink_before )) messages of the load and $sink_before of the sign-ins)"
python3 bench/worst_hour.py account "$work/config.json"
kill -0 "$SERVER_PID" 2>/dev/null || echo "the server is no longer running (killed by the memory limit?)"

# The reference: nginx serving the same pages' bytes (the server's gzip copies) at the same rate.
mkdir -p "$work/nginx/html"
# /schedule is saved as schedule.html (the talks live under /schedule/), served by name.
while read -r path; do
  file=$path
  [ "$path" = /schedule ] && file=/schedule.html
  mkdir -p "$work/nginx/html$(dirname "$file")"
  curl -fs -H 'Accept-Encoding: gzip' -o "$work/nginx/html$file.gz" "$URL$path"
  curl -fs -o "$work/nginx/html$file" "$URL$path"
done < <(sort -u "$work/pages.txt")
echo ok >"$work/nginx/html/index.html"
stop_server
start_nginx "$NGINX_URL" "$work" "" "gzip_static on;" "location = /schedule { try_files /schedule.html =404; }"
taskset -a -p -c "$SERVER_CPUS" "$NGINX_PID" >/dev/null
for worker in $(pgrep -P "$NGINX_PID"); do taskset -p -c "$SERVER_CPUS" "$worker" >/dev/null; done
python3 - "$work" "$NGINX_URL" "$NGINX_DURATION" "$PAGES_RATE" <<'PY'
import json, sys
work, url, duration, rate = sys.argv[1:]
cfg = json.load(open(f"{work}/config.json"))
cfg.update({"url": url, "duration": float(duration), "figures": f"{work}/nginx-figures.json", "cookies": "",
            "rates": {"pages": float(rate)}})
json.dump(cfg, open(f"{work}/nginx-config.json", "w"))
PY
echo "## reference: nginx (taskset -c $SERVER_CPUS, gzip_static) serving the same pages' bytes, ${PAGES_RATE}/s for $NGINX_DURATION s, the same generator"
taskset -c "$LOAD_CPUS" python3 bench/worst_hour.py load "$work/nginx-config.json"
