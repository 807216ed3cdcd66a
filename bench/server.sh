# Sourced by the benchmarks: starts the release binary on a temp database and waits for it.
#
#   start_server URL DIR [NAME=VALUE ...]
#
# Serves on URL's host and port (loopback only) with DATABASE_URL and DATA_DIR inside DIR and
# RUST_LOG=warn, plus the given settings; sets SERVER_PID (the caller stops it by that pid)
# and returns once /api/health answers, after WARM_UP seconds (default 5) in which the server
# compresses the island assets at quality 11 in the background. Needs BIN. An https:// URL
# needs the settings TLS=files TLS_CERT=... TLS_KEY=..., and CURL_CA naming the certificate.
start_server() {
  local url=$1 dir=$2
  shift 2
  env DATABASE_URL="sqlite://$dir/conference.db" DATA_DIR="$dir/data" LISTEN_ADDR="${url#*://}" \
    PUBLIC_URL="$url" RUST_LOG=warn "$@" "$BIN" serve >"$dir/server.log" 2>&1 &
  SERVER_PID=$!
  for _ in $(seq 1 100); do
    curl -fs ${CURL_CA:+--cacert "$CURL_CA"} "$url/api/health" >/dev/null 2>&1 && break
    sleep 0.1
  done
  curl -fs ${CURL_CA:+--cacert "$CURL_CA"} "$url/api/health" >/dev/null || { echo "server did not start:" >&2; cat "$dir/server.log" >&2; exit 1; }
  sleep "${WARM_UP:-5}"
}
