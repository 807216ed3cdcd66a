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

# Writes N paid registrations (`plan` orders, status success) with their tickets into the
# database at DATABASE_URL (sqlite://FILE or postgres://...), by SQL: sqlite3 for SQLite,
# psql for PostgreSQL. Order ids are ORDBENCH000001...; codes are BENCHCODE plus 17
# letters A-J spelling i * 7919 (base32's alphabet, as real codes), so a script knows them.
# Prints nothing; the caller reads the codes back (SELECT code FROM tickets).
#
#   insert_tickets DATABASE_URL N
insert_tickets() {
  local url=$1 n=$2
  case "$url" in
    sqlite://*)
      sqlite3 "${url#sqlite://}" <<SQL >/dev/null
.timeout 10000
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < $n)
INSERT INTO orders (order_id, kind, item_id, item_title, amount_cents, currency, status, billing_name, billing_email, created, decided_at)
  SELECT printf('ORDBENCH%06d', i), 'plan', 'listener-physical', 'Listener Physical', 12500, 'USD', 'success',
         printf('Attendee %d', i), printf('attendee%d@example.org', i), '2025-03-01T00:00:00Z', '2025-03-01T00:00:00Z'
  FROM n;
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < $n)
INSERT INTO tickets (order_id, code, holder_name, mode, ticket_type, created)
  SELECT printf('ORDBENCH%06d', i),
         'BENCHCODE' || replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(
           printf('%017d', i * 7919), '0', 'A'), '1', 'B'), '2', 'C'), '3', 'D'), '4', 'E'), '5', 'F'), '6', 'G'), '7', 'H'), '8', 'I'), '9', 'J'),
         printf('Attendee %d', i), 'physical', 'Listener Physical', '2025-03-01T00:00:00Z'
  FROM n;
SQL
      ;;
    postgres://*)
      # The same rows in PostgreSQL's SQL (migrations/postgres/0005_orders.sql, 0020_attendees.sql).
      psql -q -v ON_ERROR_STOP=1 "$url" <<SQL >/dev/null
INSERT INTO orders (order_id, kind, item_id, item_title, amount_cents, currency, status, billing_name, billing_email, created, decided_at)
  SELECT 'ORDBENCH' || lpad(i::text, 6, '0'), 'plan', 'listener-physical', 'Listener Physical', 12500, 'USD', 'success',
         'Attendee ' || i, 'attendee' || i || '@example.org', '2025-03-01T00:00:00Z', '2025-03-01T00:00:00Z'
  FROM generate_series(1, $n) AS i;
INSERT INTO tickets (order_id, code, holder_name, mode, ticket_type, created)
  SELECT 'ORDBENCH' || lpad(i::text, 6, '0'),
         'BENCHCODE' || translate(lpad((i::bigint * 7919)::text, 17, '0'), '0123456789', 'ABCDEFGHIJ'),
         'Attendee ' || i, 'physical', 'Listener Physical', '2025-03-01T00:00:00Z'
  FROM generate_series(1, $n) AS i;
ANALYZE orders;
ANALYZE tickets;
SQL
      ;;
    *) echo "insert_tickets: $url is neither sqlite:// nor postgres://" >&2; exit 1 ;;
  esac
}

# Runs one SQL query on DATABASE_URL (sqlite:// or postgres://) and prints its rows, `|`
# between columns.
#
#   sql DATABASE_URL QUERY
sql() {
  case "$1" in
    sqlite://*) sqlite3 -cmd '.timeout 10000' "${1#sqlite://}" "$2" ;;
    postgres://*) psql -qAt -v ON_ERROR_STOP=1 "$1" -c "$2" ;;
  esac
}
