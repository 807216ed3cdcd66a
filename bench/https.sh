#!/usr/bin/env bash
# HTTPS against nginx serving the same bytes with the same certificate (issue 23): `/` over
# HTTP/1.1 and over HTTP/2, TLS=files on both sides.
#
# Builds nothing: build the release binary first (`cargo build --release`, or with
# CARGO_TARGET_DIR and BIN pointing at it). Needs h2load (Debian nghttp2-client), nginx
# (nginx-light), openssl and curl. Everything listens on 127.0.0.1 only, lives in a temp
# folder, and every process started here is stopped by its pid on exit.
#
#   bench/https.sh                    # 3 rounds of 10 s h2load runs a row, 64 connections
#   DURATION=5 ROUNDS=1 bench/https.sh
#   THREADS=2 bench/https.sh          # h2load threads (default 1)
#
# One h2load thread by default: on two cores, two client threads beside the server's two
# outnumber the cores, and p99 then mostly measures h2load's own threads waiting for a core
# (the same 9-15 ms for nginx and this server, bench/README.md).
#
# Prints two tables, per protocol, for this server and for nginx (medians of ROUNDS rounds,
# alternating which goes first; latencies from h2load's per-request log):
# - throughput: every connection sends its next request as soon as the last one is answered;
#   requests/s, p50 and p99, and ours/nginx with each round's ratio. The p99 here is mostly
#   the queue h2load itself builds on the cores it shares with the server.
# - latency at a fixed rate: RATE requests/s per connection (default 50: 3,200 requests/s
#   over 64 connections, about a quarter of what nginx manages here). h2load's per-connection
#   timers fire together, so each tick is a burst of 64 requests at once: p99 is how long the
#   last of 64 simultaneous requests waits while neither side is saturated (one connection at
#   the same rate sees about 0.4 ms).
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
BIN="${BIN:-$ROOT/target/release/conference}"
NGINX="${NGINX:-/usr/sbin/nginx}"
DURATION="${DURATION:-10}"
CONNECTIONS="${CONNECTIONS:-64}"
ROUNDS="${ROUNDS:-3}"
RATE="${RATE:-50}"
THREADS="${THREADS:-1}"
OURS_PORT="${OURS_PORT:-18520}"
NGINX_PORT="${NGINX_PORT:-18521}"

[ -x "$BIN" ] || { echo "no $BIN: build the release binary first" >&2; exit 1; }
command -v h2load >/dev/null || { echo "h2load is not installed (nghttp2-client)" >&2; exit 1; }
command -v openssl >/dev/null || { echo "openssl is not installed" >&2; exit 1; }
[ -x "$NGINX" ] || { echo "no nginx at $NGINX" >&2; exit 1; }

TMP="$(mktemp -d /tmp/conference-https.XXXXXX)"
# shellcheck source=bench/server.sh
source "$ROOT/bench/server.sh"
SERVER_PID=""
NGINX_PID=""
cleanup() {
  stop_server
  [ -n "$NGINX_PID" ] && kill "$NGINX_PID" 2>/dev/null || true
  sleep 0.3
  rm -rf "$TMP"
}
trap cleanup EXIT

# --- one certificate for both: ECDSA P-256, as an ACME CA would issue by default ---------
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 2 -subj /CN=127.0.0.1 \
  -addext subjectAltName=IP:127.0.0.1 -keyout "$TMP/key.pem" -out "$TMP/cert.pem" 2>/dev/null
export CURL_CA="$TMP/cert.pem"

OURS="https://127.0.0.1:$OURS_PORT"
NGX="https://127.0.0.1:$NGINX_PORT"

# --- this server, on a temp database (migrated and seeded at start) ---------------------
start_server "$OURS" "$TMP" TLS=files TLS_CERT="$TMP/cert.pem" TLS_KEY="$TMP/key.pem"

# --- nginx, serving a saved copy of `/` with the same certificate -------------------------
mkdir -p "$TMP/nginx/html"
curl -fs --cacert "$CURL_CA" "$OURS/" -o "$TMP/nginx/html/index.html"
# nginx's workers run as an unprivileged user: let them read the certificate.
chmod a+r "$TMP/cert.pem" "$TMP/key.pem"
start_nginx "$NGX" "$TMP" "ssl http2" "" \
  "ssl_certificate $TMP/cert.pem; ssl_certificate_key $TMP/key.pem; ssl_protocols TLSv1.2 TLSv1.3;"

# Same bytes, and each side speaks both protocols.
cmp -s <(curl -fs --cacert "$CURL_CA" "$OURS/") <(curl -fs --cacert "$CURL_CA" "$NGX/") ||
  echo "note: / differs between the two (the minute turned?)"
for url in "$OURS/" "$NGX/"; do
  for proto in --http1.1 --http2; do
    got=$(curl -fs --cacert "$CURL_CA" "$proto" -o /dev/null -w '%{http_version}' "$url")
    echo "# $url $proto: HTTP/$got"
  done
done

# One h2load run: prints "requests/s p50 p99 failed" (latencies in ms, from the per-request
# log: start, status, microseconds to the end of the answer).
run_h2load() { # url connections duration proto(h1|h2) [requests/s per connection]
  local url=$1 conns=$2 dur=$3 proto=$4 rate=${5:-} out
  local args=(-c"$conns" -t"$THREADS" -D "$dur" --warm-up-time=1 --log-file="$TMP/requests.log")
  [ "$proto" = h1 ] && args+=(--h1)
  [ -n "$rate" ] && args+=(--rps="$rate")
  out=$(h2load "${args[@]}" "$url")
  echo "$out" >>"$TMP/h2load.log"
  local rps failed
  rps=$(awk '/^finished in/ { gsub(",", "", $4); print $4 }' <<<"$out")
  failed=$(awk '/^requests:/ { for (i = 2; i <= NF; i++) if ($(i + 1) ~ /^failed/) print $i }' <<<"$out")
  cut -f3 "$TMP/requests.log" | sort -n | awk -v rps="$rps" -v failed="${failed:-0}" '
    { v[NR] = $1 }
    END { p50 = v[int(NR * 0.50) + 1] / 1000; p99 = v[int(NR * 0.99) + 1] / 1000
          printf "%.0f %.2f %.2f %d\n", rps, p50, p99, failed }'
}

# One unmeasured run against each first (connection buffers, the allocator's first pages).
for url in "$OURS/" "$NGX/"; do run_h2load "$url" "$CONNECTIONS" 3 h2 >/dev/null; done

median() { tr ' ' '\n' | sort -g | awk '{ v[NR] = $1 } END { print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) }'; }

echo "# $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)"

# One table: per protocol, medians of ROUNDS rounds, each round alternating ours and nginx.
# $1: requests/s per connection, or empty for as many as each side answers.
table() {
  local rate=$1 proto round side order rps p50 p99 failed om nm ratio label
  printf '%-10s %12s %8s %8s %12s %8s %8s %8s  %s\n' protocol ours_rps p50_ms p99_ms nginx_rps p50_ms p99_ms ratio "ratio per round"
  for proto in h1 h2; do
    local o_rps=() o_p50=() o_p99=() n_rps=() n_p50=() n_p99=() rounds=()
    for round in $(seq 1 "$ROUNDS"); do
      order=(ours nginx)
      [ $((round % 2)) = 0 ] && order=(nginx ours)
      for side in "${order[@]}"; do
        if [ "$side" = ours ]; then
          read -r rps p50 p99 failed < <(run_h2load "$OURS/" "$CONNECTIONS" "$DURATION" "$proto" "$rate")
          o_rps+=("$rps") o_p50+=("$p50") o_p99+=("$p99")
          [ "$failed" = 0 ] || echo "  ours: $failed failed requests"
        else
          read -r rps p50 p99 failed < <(run_h2load "$NGX/" "$CONNECTIONS" "$DURATION" "$proto" "$rate")
          n_rps+=("$rps") n_p50+=("$p50") n_p99+=("$p99")
          [ "$failed" = 0 ] || echo "  nginx: $failed failed requests"
        fi
      done
      rounds+=("$(awk -v a="${o_rps[-1]}" -v b="${n_rps[-1]}" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }')")
    done
    om=$(echo "${o_rps[*]}" | median) nm=$(echo "${n_rps[*]}" | median)
    ratio=$(awk -v a="$om" -v b="$nm" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }')
    label=$([ "$proto" = h1 ] && echo HTTP/1.1 || echo HTTP/2)
    printf '%-10s %12.0f %8.2f %8.2f %12.0f %8.2f %8.2f %8s  %s\n' "$label" \
      "$om" "$(echo "${o_p50[*]}" | median)" "$(echo "${o_p99[*]}" | median)" \
      "$nm" "$(echo "${n_p50[*]}" | median)" "$(echo "${n_p99[*]}" | median)" "$ratio" "${rounds[*]}"
  done
}

echo "# throughput: h2load -c$CONNECTIONS -t$THREADS -D $DURATION (one stream per connection); medians of $ROUNDS rounds"
table ""
echo "# latency at a fixed rate: h2load -c$CONNECTIONS -t$THREADS -D $DURATION --rps=$RATE ($((CONNECTIONS * RATE)) requests/s); medians of $ROUNDS rounds"
table "$RATE"
