#!/usr/bin/env bash
# Issue 20 item 6: the organisers' back office at conference scale. For each engine: fills a
# fresh database with examples/organiser_data.rs (20,000 submissions with their papers,
# 50,000 orders, 20,000 messages, 20,000 subscribers, 20,000 mails, 5,000 audit entries, and
# for peer review (issue 32 item 10) 400 reviewers and 40,000 reviews; the organiser is also
# a reviewer of 100 papers, so the reviewers' list and paper page are measured too),
# starts the release server, signs in as an organiser the way a person does (asks for a link,
# reads it from the .eml the outbox writes, POSTs the confirmation with an Origin header, keeps
# the cookie), then measures every list, filter, search, sort, page N and detail page with wrk
# at 8 connections (p99 per URL; target <= 50 ms), and streams the CSV of all 50,000 orders
# while sampling the server's VmRSS (target: within 20 MB of idle).
#
#   cargo build --release --bin conference --example organiser_data
#   bench/organiser.sh                  # sqlite, then postgres
#   bench/organiser.sh sqlite           # one engine
#
# Builds nothing: BIN (default target/release/conference, or $CARGO_TARGET_DIR/release/...)
# and GENERATOR (the example beside it). Settings: DURATION (seconds per URL, default 5),
# PORT (the server's loopback port, default 18201), PG_PORT (the throwaway PostgreSQL of
# .ci/postgres.sh, default 25501). Loopback only; every process it starts is stopped by pid.
set -euo pipefail
cd "$(dirname "$0")/.."

release=${CARGO_TARGET_DIR:-target}/release
BIN=${BIN:-$release/conference}
GENERATOR=${GENERATOR:-$release/examples/organiser_data}
DURATION=${DURATION:-5}
PORT=${PORT:-18201}
PG_PORT=${PG_PORT:-25501}
ENGINES=${1:-both}
[ "$ENGINES" = both ] && ENGINES="sqlite postgres"
URL="http://127.0.0.1:$PORT"
CHAIR=bench.chair@example.org

for tool in "$BIN" "$GENERATOR"; do
  [ -x "$tool" ] || {
    echo "organiser.sh: $tool is missing; build it first:" >&2
    echo "  cargo build --release --bin conference --example organiser_data" >&2
    exit 1
  }
done
command -v wrk >/dev/null || { echo "organiser.sh: wrk is missing (apt-get install wrk)" >&2; exit 1; }

# shellcheck source=bench/server.sh
. bench/server.sh
# shellcheck source=tests/mailed-link.sh
. tests/mailed-link.sh

work=$(mktemp -d)
# The throwaway PostgreSQL runs as the `postgres` user, which must reach its folder inside.
chmod 755 "$work"
SERVER_PID=
pg_dir=
cleanup() {
  stop_server
  if [ -n "$pg_dir" ]; then .ci/postgres.sh stop "$pg_dir" >/dev/null 2>&1 || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

rss_kb() { awk '/^VmRSS:/ { print $2 }' "/proc/$SERVER_PID/status"; }

# Signs in as $CHAIR; prints the session cookie (`name=value`).
sign_in() {
  local dir=$1 link
  curl -fs -o /dev/null -H "Origin: $URL" --data-urlencode "email=$CHAIR" "$URL/organiser/sign-in" \
    || { echo "organiser.sh: asking for a sign-in link failed" >&2; return 1; }
  link=$(mailed_link "$dir/data/mail" '/organiser/sign-in/[A-Za-z0-9_-]\{43\}') ||
    { echo "organiser.sh: no sign-in mail within 30 s" >&2; return 1; }
  curl -s -o /dev/null -c "$dir/cookies" -H "Origin: $URL" -X POST "$URL$link"
  awk '$6 ~ /organiser_session$/ { print $6 "=" $7 }' "$dir/cookies"
}

# wrk's "99%" (or other) latency line in milliseconds.
latency_ms() {
  awk -v p="$1" '$1 == p {
    v = $2; unit = v; sub(/[0-9.]+/, "", unit); sub(/[a-z]+$/, "", v)
    if (unit == "us") v /= 1000; else if (unit == "s") v *= 1000; else if (unit == "m") v *= 60000
    printf "%.2f", v }' "$2"
}

# Measures one URL; prints a table row and counts the misses.
misses=0
measure() {
  local path=$1 cookie=$2 out=$work/wrk.txt code p50 p99 rps errors verdict
  code=$(curl -s -o /dev/null -w '%{http_code}' -H "Cookie: $cookie" "$URL$path")
  [ "$code" = 200 ] || { echo "organiser.sh: $path answered $code, not 200" >&2; exit 1; }
  wrk -t2 -c8 -d"${DURATION}s" --timeout 2s --latency -H "Cookie: $cookie" "$URL$path" >"$out"
  p50=$(latency_ms 50% "$out")
  p99=$(latency_ms 99% "$out")
  rps=$(awk '/^Requests\/sec:/ { printf "%.0f", $2 }' "$out")
  errors=$(awk '/Non-2xx|Socket errors/ { print }' "$out")
  verdict=ok
  if [ -n "$errors" ] || awk -v p="$p99" 'BEGIN { exit !(p > 50) }'; then verdict=MISS; misses=$((misses + 1)); fi
  printf '| `%s` | %s | %s | %s | %s |\n' "$path" "$rps" "$p50" "$p99" "$verdict${errors:+ ($errors)}"
}

# Streams the orders' CSV at full speed and at 2 MB/s while sampling VmRSS every 20 ms.
csv_memory() {
  local cookie=$1 rate=$2 idle peak now pid rows started
  sleep 1
  idle=$(rss_kb)
  peak=$idle
  started=$(date +%s.%N)
  curl -s ${rate:+--limit-rate "$rate"} --max-time 120 -H "Cookie: $cookie" -o "$work/orders.csv" "$URL/organiser/orders.csv" &
  pid=$!
  while kill -0 "$pid" 2>/dev/null; do
    now=$(rss_kb)
    [ "$now" -gt "$peak" ] && peak=$now
    sleep 0.02
  done
  wait "$pid" || { echo "organiser.sh: the CSV download failed" >&2; exit 1; }
  rows=$(($(wc -l <"$work/orders.csv") - 1))
  awk -v rate="${rate:-full speed}" -v rows="$rows" -v s="$started" -v e="$(date +%s.%N)" -v idle="$idle" -v peak="$peak" \
    'BEGIN { printf "| orders.csv, %s | %d | %.1f s | %.1f MiB | %.1f MiB | %.1f MiB | %s |\n", rate, rows, e - s,
      idle / 1024, peak / 1024, (peak - idle) / 1024, (peak - idle <= 20480 ? "ok" : "MISS") }' 
  [ $((peak - idle)) -le 20480 ] || misses=$((misses + 1))
}

for engine in $ENGINES; do
  dir=$work/$engine
  mkdir -p "$dir/data"
  case "$engine" in
    sqlite) database_url="sqlite://$dir/conference.db" ;;
    postgres)
      pg_dir=$work/pg
      database_url=$(.ci/postgres.sh start "$pg_dir" "$PG_PORT")
      ;;
    *) echo "organiser.sh: unknown engine $engine (sqlite, postgres or both)" >&2; exit 1 ;;
  esac
  echo "## $engine"
  generated=$(date +%s)
  DATABASE_URL=$database_url DATA_DIR=$dir/data "$GENERATOR" | tr '\n' ' '
  echo "(generated in $(($(date +%s) - generated)) s)"
  WARM_UP=2 start_server "$URL" "$dir" DATABASE_URL="$database_url" ORGANISER_EMAIL="$CHAIR"
  cookie=$(sign_in "$dir")
  [ -n "$cookie" ] || { echo "organiser.sh: signing in gave no session cookie" >&2; exit 1; }
  started_rss=$(rss_kb)

  # A detail page of each kind: the first row of each list's second page.
  first_row() {
    local row
    row=$(curl -fs -H "Cookie: $cookie" "$URL/organiser/$1?page=2" | grep -o "href=\"/organiser/$1/[^\"/]*\"" \
      | head -n 1 | sed -e 's/^href="//' -e 's/"$//' || true)
    [ -n "$row" ] || { echo "organiser.sh: no row on /organiser/$1?page=2" >&2; exit 1; }
    echo "$row"
  }
  submission=$(first_row submissions)
  message=$(first_row messages)
  order=$(first_row orders)
  from=$(date -u -d '30 days ago' +%F)
  to=$(date -u -d '16 days ago' +%F)
  echo
  echo "| URL ($engine, wrk -c8, ${DURATION} s) | req/s | p50 ms | p99 ms | p99 <= 50 ms |"
  echo "|---|---|---|---|---|"
  for path in \
    /organiser \
    /organiser/submissions \
    "/organiser/submissions?page=200" \
    "/organiser/submissions?paper_type=Abstract" \
    "/organiser/submissions?from=$from&to=$to" \
    "/organiser/submissions?sort=title&dir=asc" \
    "/organiser/submissions?sort=reference&dir=desc&page=100" \
    "/organiser/submissions?q=harbour" \
    "/organiser/submissions?q=author12345" \
    "/organiser/submissions?q=P-2025-B1999" \
    "/organiser/submissions?q=nothing+matches" \
    "/organiser/submissions?paper_type=Full+Paper&q=tidal&sort=title" \
    "$submission" \
    /organiser/messages \
    "/organiser/messages?page=200" \
    "/organiser/messages?status=unread" \
    "/organiser/messages?q=okafor" \
    "/organiser/messages?q=visitor4242%40" \
    "$message" \
    /organiser/orders \
    "/organiser/orders?page=500" \
    "/organiser/orders?status=success" \
    "/organiser/orders?kind=sponsor" \
    "/organiser/orders?payments_mode=test" \
    "/organiser/orders?payments_mode=none&status=failure" \
    "/organiser/orders?q=payer4242%40" \
    "/organiser/orders?q=okafor" \
    "$order" \
    /organiser/subscribers \
    "/organiser/subscribers?page=200" \
    "/organiser/subscribers?status=pending" \
    "/organiser/subscribers?q=reader1234" \
    /organiser/outbox \
    "/organiser/outbox?page=200" \
    "/organiser/outbox?status=failed" \
    "/organiser/outbox?q=author777" \
    /organiser/audit \
    "/organiser/audit?page=50" \
    "/organiser/audit?q=export" \
    "/organiser/submissions?sort=score&dir=desc" \
    "/organiser/submissions?sort=score&dir=asc&page=100" \
    "/organiser/submissions?sort=reviews&dir=asc" \
    "/organiser/submissions?disagreement=yes" \
    "/organiser/submissions?reviews_below=2&page=20" \
    /organiser/review \
    /organiser/reviewers \
    "/organiser/reviewers?page=8" \
    /organiser/review/assignments \
    "/organiser/review/assignments?page=200" \
    /organiser/review/assignments/P-2025-B00000 \
    /review \
    /review/papers/R-B00000; do
    measure "$path" "$cookie"
  done

  echo
  echo "| CSV ($engine) | rows | time | VmRSS idle | peak | peak - idle | within 20 MB |"
  echo "|---|---|---|---|---|---|---|"
  csv_memory "$cookie" ""
  csv_memory "$cookie" 2M
  echo "(VmRSS after start and sign-in, before wrk: $((started_rss / 1024)) MiB)"
  echo

  stop_server
  if [ -n "$pg_dir" ]; then .ci/postgres.sh stop "$pg_dir" >/dev/null; pg_dir=; fi
done
echo "misses: $misses"
[ "$misses" -eq 0 ]
