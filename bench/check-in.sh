#!/usr/bin/env bash
# Issue 33 item 3: the check-in desk at conference scale. Fills a fresh SQLite database with
# 5,000 paid tickets (orders and tickets by SQL, codes known to the script), starts the release
# server with CHECKIN_DAYS=any and desk staff, signs the desk in the way a person does (asks
# for a link, reads it from the .eml the outbox writes, POSTs the confirmation with an Origin
# header, keeps the cookie), then:
#
# 1. 20 scans a second for DURATION seconds, open loop (bench/check_in_scans.py): `POST
#    /organiser/check-in` with JSON, as the desk's island sends it, random tickets (repeats
#    answer "already") and 5% unknown codes; p50/p90/p99/max per scan (target: p99 <= 50 ms).
#    The same against nginx answering the same path with a fixed JSON of the same shape: the
#    floor of loopback, HTTP and the client.
# 2. wrk at 8 connections for DURATION seconds, posting codes in turn (a wrk Lua script written to the temp folder):
#    how many scans a second the desk takes at most, and its p99 there.
#
#   cargo build --release --bin conference
#   bench/check-in.sh                   # DURATION=30 RATE=20 TICKETS=5000 PORT=18301 NGINX_PORT=18302
#
# Builds nothing: BIN (default target/release/conference). Loopback only; every process it
# starts is stopped by pid; the temp folder is removed.
set -euo pipefail
cd "$(dirname "$0")/.."

BIN=${BIN:-${CARGO_TARGET_DIR:-target}/release/conference}
NGINX="${NGINX:-/usr/sbin/nginx}"
DURATION=${DURATION:-30}
RATE=${RATE:-20}
TICKETS=${TICKETS:-5000}
PORT=${PORT:-18301}
NGINX_PORT=${NGINX_PORT:-18302}
URL="http://127.0.0.1:$PORT"
NGINX_URL="http://127.0.0.1:$NGINX_PORT"
DESK=bench.desk@example.org

[ -x "$BIN" ] || { echo "check-in.sh: $BIN is missing: cargo build --release --bin conference" >&2; exit 1; }
for tool in wrk sqlite3 python3 "$NGINX"; do
  command -v "$tool" >/dev/null || { echo "check-in.sh: $tool is missing" >&2; exit 1; }
done

# shellcheck source=bench/server.sh
. bench/server.sh
# shellcheck source=tests/mailed-link.sh
. tests/mailed-link.sh

work=$(mktemp -d)
SERVER_PID=
NGINX_PID=
cleanup() {
  stop_server
  if [ -n "$NGINX_PID" ]; then kill "$NGINX_PID" 2>/dev/null || true; wait "$NGINX_PID" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

mkdir -p "$work/data"
WARM_UP=2 start_server "$URL" "$work" CHECKIN_EMAIL="$DESK" CHECKIN_DAYS=any RATE_LIMIT_PER_MINUTE=1000000

# 5,000 paid registrations, each with its ticket; codes are base32 (A-Z, 2-7) from the row
# number, so the script knows them.
sqlite3 "$work/conference.db" <<SQL >/dev/null
.timeout 10000
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < $TICKETS)
INSERT INTO orders (order_id, kind, item_id, item_title, amount_cents, currency, status, billing_name, billing_email, created, decided_at)
  SELECT printf('ORDBENCH%06d', i), 'plan', 'listener-physical', 'Listener Physical', 12500, 'USD', 'success',
         printf('Attendee %d', i), printf('attendee%d@example.org', i), '2025-03-01T00:00:00Z', '2025-03-01T00:00:00Z'
  FROM n;
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < $TICKETS)
INSERT INTO tickets (order_id, code, holder_name, mode, ticket_type, created)
  SELECT printf('ORDBENCH%06d', i),
         'BENCHCODE' || replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(
           printf('%017d', i * 7919), '0', 'A'), '1', 'B'), '2', 'C'), '3', 'D'), '4', 'E'), '5', 'F'), '6', 'G'), '7', 'H'), '8', 'I'), '9', 'J'),
         printf('Attendee %d', i), 'physical', 'Listener Physical', '2025-03-01T00:00:00Z'
  FROM n;
SQL
sqlite3 "$work/conference.db" "SELECT code FROM tickets" >"$work/codes.txt"
tickets=$(wc -l <"$work/codes.txt")

# The desk signs in.
curl -fs -o /dev/null -H "Origin: $URL" --data-urlencode "email=$DESK" "$URL/organiser/check-in/sign-in"
link=$(mailed_link "$work/data/mail" '/organiser/check-in/sign-in/[A-Za-z0-9_-]\{43\}') ||
  { echo "check-in.sh: no desk sign-in mail within 30 s" >&2; exit 1; }
curl -s -o /dev/null -c "$work/cookies" -H "Origin: $URL" -X POST "$URL$link"
cookie=$(awk '$6 ~ /organiser_session$/ { print $6 "=" $7 }' "$work/cookies")
[ -n "$cookie" ] || { echo "check-in.sh: signing in gave no session cookie" >&2; exit 1; }
first=$(head -n 1 "$work/codes.txt")
answer=$(curl -fs -H "Origin: $URL" -H "Cookie: $cookie" -H 'Content-Type: application/json' \
  --data "{\"code\":\"$first\"}" "$URL/organiser/check-in")
case "$answer" in *'"result":"valid"'*) ;; *) echo "check-in.sh: the first scan answered $answer" >&2; exit 1 ;; esac

# nginx answering the desk's path with a fixed answer of the same shape.
fixed=$(curl -fs -H "Origin: $URL" -H "Cookie: $cookie" -H 'Content-Type: application/json' \
  --data "{\"code\":\"$first\"}" "$URL/organiser/check-in")
printf '%s' "$fixed" >"$work/answer.json"
mkdir -p "$work/nginx/html"
echo ok >"$work/nginx/html/index.html"
start_nginx "$NGINX_URL" "$work" "" "" "location = /organiser/check-in { default_type application/json; return 200 '$(sed "s/'/\\\\'/g" "$work/answer.json")'; }"

echo "# $(date -u '+%F %H:%M') UTC, $(nproc) cores: $(awk -F': ' '/model name/ { print $2; exit }' /proc/cpuinfo)"
echo "# $tickets tickets on SQLite; $RATE scans/s for $DURATION s, open loop, 5% unknown codes; milliseconds"
printf 'ours:  %s\n' "$(python3 bench/check_in_scans.py "$URL/organiser/check-in" "$cookie" "$work/codes.txt" "$RATE" "$DURATION")"
printf 'nginx: %s\n' "$(python3 bench/check_in_scans.py "$NGINX_URL/organiser/check-in" "$cookie" "$work/codes.txt" "$RATE" "$DURATION")"

# At most: wrk at 8 connections, posting the codes in turn.
cat >"$work/scan.lua" <<LUA
local codes = {}
for line in io.lines("$work/codes.txt") do codes[#codes + 1] = line end
local i = 0
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Origin"] = "$URL"
wrk.headers["Cookie"] = "$cookie"
request = function()
  i = i % #codes + 1
  return wrk.format(nil, nil, nil, '{"code":"' .. codes[i] .. '"}')
end
LUA
for target in "$URL" "$NGINX_URL"; do
  wrk -t2 -c8 -d"${DURATION}s" --timeout 2s --latency -s "$work/scan.lua" "$target/organiser/check-in" >"$work/wrk.txt"
  awk -v who="$([ "$target" = "$URL" ] && echo ours || echo nginx)" '
    /^Requests\/sec:/ { rps = $2 }
    $1 == "50%" { p50 = $2 } $1 == "99%" { p99 = $2 }
    /Non-2xx|Socket errors/ { errors = errors " " $0 }
    END { printf "%s, wrk -c8: %.0f scans/s, p50 %s, p99 %s%s\n", who, rps, p50, p99, errors }' "$work/wrk.txt"
done
checked=$(sqlite3 "$work/conference.db" "SELECT COUNT(*) FROM check_ins")
audited=$(sqlite3 "$work/conference.db" "SELECT COUNT(*) FROM audit_log WHERE action = 'ticket.checked_in'")
echo "check_ins rows: $checked, their audit entries: $audited"
[ "$checked" = "$audited" ] || { echo "check-in.sh: check-ins and audit entries differ" >&2; exit 1; }
