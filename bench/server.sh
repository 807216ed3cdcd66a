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

# Stops the server start_server started, if it runs, and waits for it to exit.
stop_server() {
  if [ -n "${SERVER_PID:-}" ]; then
    kill "$SERVER_PID" 2>/dev/null || true
    wait "$SERVER_PID" 2>/dev/null || true
  fi
  SERVER_PID=
}

# Starts nginx serving the files under DIR/nginx/html (the caller saves them there first):
#
#   start_nginx URL DIR LISTEN_OPTIONS HTTP_DIRECTIVES SERVER_DIRECTIVES
#
# on URL's loopback port, with what both benchmarks compare against (sendfile, unlimited
# keep-alive, no access log) plus the given directives (`gzip_static on;`, `ssl_certificate
# ...;`); sets NGINX_PID (the caller stops it by that pid) and returns once URL/ answers (with
# CURL_CA for https://).
start_nginx() {
  local url=$1 dir=$2 listen=$3 http=$4 server=$5
  local port=${url##*:}
  mkdir -p "$dir/nginx/html" "$dir/nginx/logs" "$dir/nginx/tmp"
  cat >"$dir/nginx/nginx.conf" <<CONF
worker_processes auto;
pid $dir/nginx/nginx.pid;
error_log $dir/nginx/logs/error.log warn;
events { worker_connections 4096; }
http {
  access_log off;
  sendfile on;
  tcp_nopush on;
  keepalive_requests 1000000;
  default_type text/html;
  $http
  client_body_temp_path $dir/nginx/tmp;
  proxy_temp_path $dir/nginx/tmp;
  fastcgi_temp_path $dir/nginx/tmp;
  uwsgi_temp_path $dir/nginx/tmp;
  scgi_temp_path $dir/nginx/tmp;
  server {
    listen 127.0.0.1:$port $listen;
    $server
    root $dir/nginx/html;
    index index.html;
    location / { try_files \$uri \$uri/ =404; }
  }
}
CONF
  # nginx's workers run as an unprivileged user: let them read the copies.
  chmod 755 "$dir"
  chmod -R a+rX "$dir/nginx"
  "$NGINX" -p "$dir/nginx" -c "$dir/nginx/nginx.conf" -g 'daemon off;' 2>"$dir/nginx/logs/stderr" &
  NGINX_PID=$!
  for _ in $(seq 1 50); do curl -fs ${CURL_CA:+--cacert "$CURL_CA"} "$url/" >/dev/null 2>&1 && break; sleep 0.1; done
  curl -fs ${CURL_CA:+--cacert "$CURL_CA"} "$url/" >/dev/null || { echo "nginx did not start" >&2; cat "$dir/nginx/logs/"* >&2; exit 1; }
}

# Publishes a programme of 250 talks in 40 sessions over 3 days (issue 31 item 7) on the
# database of a server start_server started in DIR, with the example built beside BIN
# (`cargo build --release --example programme_fixture`), and waits until URL/schedule
# shows it (the server reloads its content within a second of the publication).
#
#   publish_programme URL DIR
publish_programme() {
  local url=$1 dir=$2
  local fixture="${PROGRAMME_FIXTURE:-$(dirname "$BIN")/examples/programme_fixture}"
  [ -x "$fixture" ] || { echo "no $fixture: run cargo build --release --example programme_fixture first" >&2; exit 1; }
  "$fixture" "sqlite://$dir/conference.db" >"$dir/programme.log" 2>&1 || { cat "$dir/programme.log" >&2; exit 1; }
  for _ in $(seq 1 50); do
    curl -fs "$url/schedule" | grep 'class="schedule-talk"' >/dev/null && return 0
    sleep 0.1
  done
  echo "the published programme did not show on $url/schedule" >&2
  exit 1
}
