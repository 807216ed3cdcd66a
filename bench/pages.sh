#!/usr/bin/env bash
# Pages from memory against nginx serving the same bytes (issue 9, DESIGN.md section 10), and
# against a bare axum handler serving them from memory (examples/bare_pages.rs, issue 30: the
# ceiling a page-cache hit, with its headers and its log span, is held to).
#
# Builds nothing: run `cargo build --release --bin conference --example bare_pages --example
# programme_fixture` first. The server serves the production seed with a published programme
# of 250 talks in 40 sessions (examples/programme_fixture.rs, issue 31 item 7).
# Needs wrk and nginx (Debian nginx-light) and curl. Everything listens on 127.0.0.1 only, lives in a temp folder, and every process
# started here is stopped by its pid on exit.
#
#   bench/pages.sh            # 3 rounds of 10 s wrk runs a row, 60 s memory run
#   DURATION=5s ROUNDS=1 SOAK=30s bench/pages.sh
#   BIN=/tmp/conference-before PAGES="/ /committee" bench/pages.sh   # another build, two pages
#
# Prints, per page and encoding: requests/s, p50 and p99 latency for this server, for nginx
# and for the bare handler (medians of ROUNDS rounds; runs take turns, same machine, same
# moment), ours/nginx with each round's ratio, and ours/bare; the server runs with the log
# filter it has in production (`info`, LOG_FILTER overrides); then the server's RSS
# before, at peak and after a SOAK run at 256 connections, and POST /api/contact messages/s
# at 32 connections with the rate limit raised.
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
BIN="${BIN:-$ROOT/target/release/conference}"
NGINX="${NGINX:-/usr/sbin/nginx}"
DURATION="${DURATION:-10s}"
SOAK="${SOAK:-60s}"
CONNECTIONS="${CONNECTIONS:-64}"
ROUNDS="${ROUNDS:-3}"
OURS_PORT="${OURS_PORT:-18089}"
NGINX_PORT="${NGINX_PORT:-18090}"
BARE_PORT="${BARE_PORT:-18088}"
BARE="${BARE:-$ROOT/target/release/examples/bare_pages}"
# /Schedule is an alias of /schedule (issue 25): answered from the canonical page's entry.
# PAGES="/ /committee" measures fewer rows.
# A talk page: the first of the fixture's programme.
TALK=/schedule/talks/a-study-of-solar-micro-grids-for-island-communities-1
read -r -a PAGES <<<"${PAGES:-/ /pricing /committee /Schedule $TALK}"

[ -x "$BIN" ] || { echo "no $BIN: run cargo build --release first" >&2; exit 1; }
[ -x "$BARE" ] || { echo "no $BARE: run cargo build --release --example bare_pages first" >&2; exit 1; }
command -v wrk >/dev/null || { echo "wrk is not installed" >&2; exit 1; }
[ -x "$NGINX" ] || { echo "no nginx at $NGINX" >&2; exit 1; }

TMP="$(mktemp -d /tmp/conference-bench.XXXXXX)"
# shellcheck source=bench/server.sh
source "$ROOT/bench/server.sh"
SERVER_PID=""
NGINX_PID=""
BARE_PID=""
cleanup() {
  stop_server
  [ -n "$NGINX_PID" ] && kill "$NGINX_PID" 2>/dev/null || true
  [ -n "$BARE_PID" ] && kill "$BARE_PID" 2>/dev/null || true
  sleep 0.3
  rm -rf "$TMP"
}
trap cleanup EXIT

OURS="http://127.0.0.1:$OURS_PORT"
NGX="http://127.0.0.1:$NGINX_PORT"
BARE_URL="http://127.0.0.1:$BARE_PORT"

# --- this server, on a temp database (migrated and seeded at start) ---------------------
start_server "$OURS" "$TMP" RATE_LIMIT_PER_MINUTE=1000000000 RUST_LOG="${LOG_FILTER:-info}"
publish_programme "$OURS" "$TMP"

# --- nginx, serving saved copies of the same pages (gzip_static: the same gzip bytes) ---
mkdir -p "$TMP/nginx/html"
# `/` always: the start-up probes of nginx and the bare handler ask for it, also when PAGES
# leaves it out.
for page in / "${PAGES[@]}"; do
  name="${page#/}"; name="${name:-index.html}"
  mkdir -p "$(dirname "$TMP/nginx/html/$name")"
  curl -fs "$OURS$page" -o "$TMP/nginx/html/$name"
  curl -fs -H 'Accept-Encoding: gzip' "$OURS$page" -o "$TMP/nginx/html/$name.gz"
  curl -fs -H 'Accept-Encoding: br' "$OURS$page" -o "$TMP/nginx/html/$name.br"
  touch -r "$TMP/nginx/html/$name" "$TMP/nginx/html/$name.gz"
done
start_nginx "$NGX" "$TMP" "" "gzip_static on; gzip_vary on;" ""
# --- the bare axum handler, serving the same saved bytes (brotli too) --------------------
"$BARE" "127.0.0.1:$BARE_PORT" "$TMP/nginx/html" >"$TMP/bare.log" 2>&1 &
BARE_PID=$!
for _ in $(seq 1 100); do curl -fs "$BARE_URL/" >/dev/null 2>&1 && break; sleep 0.1; done
# Alive and answering: a port another server holds would otherwise measure that server.
kill -0 "$BARE_PID" 2>/dev/null && curl -fs "$BARE_URL/" >/dev/null ||
  { echo "bare_pages did not start:" >&2; cat "$TMP/bare.log" >&2; exit 1; }

# Same bytes check: nginx serves what we serve.
for page in "${PAGES[@]}"; do
  cmp -s <(curl -fs "$OURS$page") <(curl -fs "$NGX$page") || echo "note: $page differs between the two (the minute turned?)"
  cmp -s <(curl -fs -H 'Accept-Encoding: br' "$OURS$page") <(curl -fs -H 'Accept-Encoding: br' "$BARE_URL$page") ||
    echo "note: $page (br) differs between ours and the bare handler (the minute turned?)"
done

# One wrk run: prints "requests/s p50 p99 non2xx" (latencies in ms).
run_wrk() { # url connections duration [header]
  local url=$1 conns=$2 dur=$3 header=${4:-}
  local out
  if [ -n "$header" ]; then
    out=$(wrk -t2 -c"$conns" -d"$dur" --latency -H "$header" "$url")
  else
    out=$(wrk -t2 -c"$conns" -d"$dur" --latency "$url")
  fi
  echo "$out" >>"$TMP/wrk.log"
  awk '
    function ms(v) { if (v ~ /us$/) return v / 1000; if (v ~ /ms$/) return v + 0; if (v ~ /s$/) return v * 1000; return v }
    /Requests\/sec/ { rps = $2 }
    /^ +50%/ { p50 = ms($2) }
    /^ +99%/ { p99 = ms($2) }
    /Non-2xx or 3xx/ { bad = $NF }
    /Socket errors/ { errs = $0 }
    END { printf "%.0f %.2f %.2f %d\n", rps, p50, p99, bad + 0 }' <<<"$out"
}

# One unmeasured run against each first: the first seconds under load (connection buffers,
# the allocator's first pages, TCP's) otherwise land in whichever row comes first.
for url in "$OURS/" "$NGX/" "$BARE_URL/"; do run_wrk "$url" "$CONNECTIONS" "${WARM_RUN:-3s}" >/dev/null; done

# The median of ROUNDS runs a row, each round alternating which server goes first: on a
# shared machine one 10 s run can be 15 % off for either side (bench/README.md, runs 8-9).
declare -A last=()
median() { tr ' ' '\n' | grep -v '^$' | sort -g | awk '{ v[NR] = $1 } END { print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) }'; }

echo "# $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)"
echo "# wrk -t2 -c$CONNECTIONS -d$DURATION; medians of $ROUNDS rounds a row, each round rotating which of ours, nginx and bare goes first; log filter ${LOG_FILTER:-info}"
printf '%-12s %-10s %10s %7s %7s %10s %7s %7s %10s %7s %7s %7s %7s  %s\n' page encoding ours_rps p50_ms p99_ms \
  nginx_rps p50_ms p99_ms bare_rps p50_ms p99_ms /nginx /bare "ours/nginx, ours/bare per round"
for page in "${PAGES[@]}"; do
  for enc in none "br, gzip"; do
    header=""
    [ "$enc" != none ] && header="Accept-Encoding: $enc"
    declare -A rps=() p50=() p99=()
    rounds=()
    for round in $(seq 1 "$ROUNDS"); do
      case $((round % 3)) in
        1) order=(ours nginx bare) ;;
        2) order=(nginx bare ours) ;;
        0) order=(bare ours nginx) ;;
      esac
      for side in "${order[@]}"; do
        case $side in ours) url=$OURS ;; nginx) url=$NGX ;; bare) url=$BARE_URL ;; esac
        read -r r l50 l99 bad < <(run_wrk "$url$page" "$CONNECTIONS" "$DURATION" "$header")
        rps[$side]+="$r " p50[$side]+="$l50 " p99[$side]+="$l99 "
        [ "$bad" = 0 ] || echo "  $side: $bad non-2xx answers"
        last[$side]=$r
      done
      rounds+=("$(awk -v a="${last[ours]}" -v b="${last[nginx]}" -v c="${last[bare]}" 'BEGIN { printf "%.2f,%.2f", (b > 0 ? a / b : 0), (c > 0 ? a / c : 0) }')")
    done
    om=$(echo "${rps[ours]}" | median) nm=$(echo "${rps[nginx]}" | median) bm=$(echo "${rps[bare]}" | median)
    printf '%-12s %-10s %10.0f %7.2f %7.2f %10.0f %7.2f %7.2f %10.0f %7.2f %7.2f %7s %7s  %s\n' "$page" "$enc" \
      "$om" "$(echo "${p50[ours]}" | median)" "$(echo "${p99[ours]}" | median)" \
      "$nm" "$(echo "${p50[nginx]}" | median)" "$(echo "${p99[nginx]}" | median)" \
      "$bm" "$(echo "${p50[bare]}" | median)" "$(echo "${p99[bare]}" | median)" \
      "$(awk -v a="$om" -v b="$nm" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }')" \
      "$(awk -v a="$om" -v b="$bm" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }')" "${rounds[*]}"
    unset rps p50 p99
  done
done

# --- memory: a SOAK run at 256 connections ---------------------------------------------
rss() { awk '/VmRSS/ { printf "%.1f", $2 / 1024 }' "/proc/$SERVER_PID/status"; }
before=$(rss)
peak=$before
( wrk -t2 -c256 -d"$SOAK" --latency -H 'Accept-Encoding: br, gzip' "$OURS/" >"$TMP/soak.log" ) &
WRK_PID=$!
while kill -0 "$WRK_PID" 2>/dev/null; do
  now=$(rss)
  peak=$(awk -v a="$now" -v b="$peak" 'BEGIN { print (a > b ? a : b) }')
  sleep 0.5
done
wait "$WRK_PID" || true
sleep 2
after=$(rss)
soak=$(awk '
  function ms(v) { if (v ~ /us$/) return v / 1000; if (v ~ /ms$/) return v + 0; if (v ~ /s$/) return v * 1000; return v }
  /Requests\/sec/ { rps = $2 } /^ +99%/ { p99 = ms($2) } /Non-2xx or 3xx/ { bad = $NF }
  END { printf "%.0f requests/s, p99 %.2f ms, %d non-2xx", rps, p99, bad + 0 }' "$TMP/soak.log")
echo "# memory, GET / (br, gzip) for $SOAK at 256 connections: $soak"
grep -q 'Requests/sec' "$TMP/soak.log" || cat "$TMP/soak.log" >&2
echo "rss_mb before=$before peak=$peak after=$after"

# --- POST /api/contact at 32 connections -------------------------------------------------
cat >"$TMP/contact.lua" <<LUA
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Origin"] = "$OURS"
wrk.body = '{"name":"Ana Cruz","number":"+639171234567","email":"ana.cruz@example.org","country":"Philippines","message":"Is there a student discount for the virtual ticket?"}'
LUA
out=$(wrk -t2 -c32 -d"$DURATION" --latency -s "$TMP/contact.lua" "$OURS/api/contact")
echo "$out" >>"$TMP/wrk.log"
awk '
  function ms(v) { if (v ~ /us$/) return v / 1000; if (v ~ /ms$/) return v + 0; if (v ~ /s$/) return v * 1000; return v }
  /Requests\/sec/ { rps = $2 } /^ +50%/ { p50 = ms($2) } /^ +99%/ { p99 = ms($2) } /Non-2xx or 3xx/ { bad = $NF }
  END { printf "POST /api/contact, 32 connections: %.0f messages/s, p50 %.2f ms, p99 %.2f ms, %d non-2xx\n", rps, p50, p99, bad + 0 }' <<<"$out"
