#!/usr/bin/env bash
# The conference site as a cluster on one machine, all on 127.0.0.1: a throwaway PostgreSQL,
# two instances of the release binary sharing it, and nginx as a round-robin balancer in
# front (TRUSTED_PROXIES=127.0.0.1 on the instances). For trying the multi-instance setup
# and for the cluster tests (tests/cluster.rs); production uses deploy/nginx and
# deploy/systemd instead.
#
#   deploy/cluster/cluster.sh start            start everything, print the balancer's URL
#   deploy/cluster/cluster.sh stop             stop everything (by pid) and remove the folder
#   deploy/cluster/cluster.sh status           what runs, and whether the balancer answers
#   deploy/cluster/cluster.sh start-instance N (re)start instance 1 or 2, then put it back
#                                              in the balancer
#   deploy/cluster/cluster.sh stop-instance N  take instance N out of the balancer, then
#                                              SIGTERM it and wait for it to exit
#   deploy/cluster/cluster.sh kill-instance N  SIGKILL instance N (a crash)
#
# Settings (environment):
#   CLUSTER_DIR       working folder (default /tmp/conference-cluster): pids, logs, data
#   CLUSTER_PORT      the balancer's port (default 3100); instances use the next two ports
#   CLUSTER_PG_PORT   PostgreSQL's port (default 25433)
#   CLUSTER_DATABASE_URL  use this database instead of starting PostgreSQL
#   CONFERENCE_BIN    the binary (default target/release/conference of this checkout)
#   Also passed to the instances when set: RATE_LIMIT_PER_MINUTE, SMTP_URL, MAIL_FROM,
#   ORGANISER_EMAIL, CCAVENUE_*, RUST_LOG.
set -Eeuo pipefail

repo=$(cd "$(dirname "$0")/../.." && pwd)
dir=${CLUSTER_DIR:-/tmp/conference-cluster}
lb_port=${CLUSTER_PORT:-3100}
pg_port=${CLUSTER_PG_PORT:-25433}
bin=${CONFERENCE_BIN:-$repo/target/release/conference}
# How long an instance may take to drain on SIGTERM before it is killed, in seconds.
stop_wait=40

say() { echo "cluster: $*" >&2; }
die() { say "$*"; exit 1; }

instance_port() { echo $((lb_port + $1)); }
pid_of() { [ -f "$dir/$1.pid" ] && cat "$dir/$1.pid" || true; }
alive() { local pid; pid=$(pid_of "$1"); [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; }

# Waits until `url` answers 200, for at most `seconds`, while process `name` lives.
wait_healthy() {
  local url=$1 name=$2 seconds=$3 i
  for ((i = 0; i < seconds * 5; i++)); do
    curl -fsS -o /dev/null --max-time 2 "$url" 2>/dev/null && return 0
    alive "$name" || return 1
    sleep 0.2
  done
  return 1
}

# Sends `signal` to process `name` and waits up to `seconds` for it to exit; SIGKILL after.
stop_process() {
  local name=$1 signal=$2 seconds=$3 pid i
  pid=$(pid_of "$name")
  if [ -z "$pid" ]; then return 0; fi
  if kill -0 "$pid" 2>/dev/null; then
    kill "-$signal" "$pid" 2>/dev/null || true
    for ((i = 0; i < seconds * 10; i++)); do
      kill -0 "$pid" 2>/dev/null || break
      sleep 0.1
    done
    if kill -0 "$pid" 2>/dev/null; then
      say "$name (pid $pid) still running after ${seconds}s: SIGKILL"
      kill -KILL "$pid" 2>/dev/null || true
    fi
    # Reap it when it is our child; otherwise wait until the kernel has it gone.
    wait "$pid" 2>/dev/null || true
    for ((i = 0; i < 50; i++)); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  fi
  rm -f "$dir/$name.pid"
}

start_postgres() {
  if [ -n "${CLUSTER_DATABASE_URL:-}" ]; then
    echo "$CLUSTER_DATABASE_URL" >"$dir/database_url"
    return
  fi
  say "starting PostgreSQL on 127.0.0.1:$pg_port"
  "$repo/.ci/postgres.sh" start "$dir/pg" "$pg_port" >"$dir/database_url"
}

# A binary without PostgreSQL support may take the URL for a file name and migrate that
# instead: make sure the schema is in the server we started.
check_database() {
  local found
  [ -d "$dir/pg" ] || return 0
  # A failed query (PostgreSQL unreachable, a bad URL) is told apart from a database the
  # binary did not migrate, so neither is reported as the other.
  if ! found=$(psql "$(cat "$dir/database_url")" -tAc "SELECT count(*) FROM information_schema.tables WHERE table_name = 'outbox'" 2>&1); then
    say "cannot query PostgreSQL at the cluster's database: $found"
    return 1
  fi
  if [ "$found" != 1 ]; then
    say "$bin did not migrate PostgreSQL (outbox table: ${found:-none})"
    return 1
  fi
}

stop_postgres() {
  if [ -d "$dir/pg" ]; then
    "$repo/.ci/postgres.sh" stop "$dir/pg" || true
  fi
}

# The settings every instance shares, written once so start-instance uses the same.
write_instance_env() {
  {
    echo "DATABASE_URL=$(cat "$dir/database_url")"
    echo "PUBLIC_URL=http://127.0.0.1:$lb_port"
    echo "TRUSTED_PROXIES=127.0.0.1"
    for name in RATE_LIMIT_PER_MINUTE SMTP_URL MAIL_FROM ORGANISER_EMAIL CCAVENUE_MERCHANT_ID \
      CCAVENUE_ACCESS_CODE CCAVENUE_WORKING_KEY CCAVENUE_GATEWAY_URL CCAVENUE_STATUS_URL RUST_LOG; do
      if [ -n "${!name:-}" ]; then echo "$name=${!name}"; fi
    done
  } >"$dir/instance.env"
  chmod 600 "$dir/instance.env"
}

# Replaces the calling (sub)shell with `env SHARED_SETTINGS... "$@"`, run in the cluster
# folder (so the pid recorded for a background start is the binary's own, and nothing the
# binary writes lands in the checkout).
exec_conference() {
  local -a env_args=()
  while IFS= read -r line; do env_args+=("$line"); done <"$dir/instance.env"
  cd "$dir"
  exec env "${env_args[@]}" "$@"
}

start_instance() {
  local n=$1 port
  case "$n" in 1 | 2) ;; *) die "no instance $n (1 or 2)" ;; esac
  port=$(instance_port "$n")
  if alive "instance$n"; then say "instance $n already runs (pid $(pid_of "instance$n"))"; return; fi
  mkdir -p "$dir/instance$n"
  (exec_conference LISTEN_ADDR="127.0.0.1:$port" DATA_DIR="$dir/instance$n" "$bin" serve) </dev/null \
    >>"$dir/instance$n.log" 2>&1 &
  echo $! >"$dir/instance$n.pid"
  if ! wait_healthy "http://127.0.0.1:$port/api/health" "instance$n" 90; then
    tail -n 20 "$dir/instance$n.log" >&2 || true
    die "instance $n did not become healthy on 127.0.0.1:$port (log: $dir/instance$n.log)"
  fi
  say "instance $n on 127.0.0.1:$port (pid $(pid_of "instance$n"))"
  if [ -f "$dir/instance$n.out" ]; then
    rm -f "$dir/instance$n.out"
    reload_nginx
  fi
}

write_nginx_conf() {
  local user_line=""
  mkdir -p "$dir/nginx/tmp"
  # nginx started as root runs its workers as nobody; they write the temp folders.
  if [ "$(id -u)" = 0 ]; then
    user_line="user nobody nogroup;"
    chown nobody: "$dir/nginx/tmp"
  fi
  cat >"$dir/nginx/nginx.conf" <<EOF
# Written by deploy/cluster/cluster.sh; see deploy/nginx/conference.conf for a real site.
$user_line
worker_processes 1;
daemon off;
pid $dir/nginx/nginx.pid;
error_log $dir/nginx/error.log warn;
events { worker_connections 1024; }
http {
    access_log $dir/nginx/access.log;
    client_body_temp_path $dir/nginx/tmp/body;
    proxy_temp_path $dir/nginx/tmp/proxy;
    fastcgi_temp_path $dir/nginx/tmp/fastcgi;
    uwsgi_temp_path $dir/nginx/tmp/uwsgi;
    scgi_temp_path $dir/nginx/tmp/scgi;
    upstream conference {
        server 127.0.0.1:$(instance_port 1) max_fails=1 fail_timeout=2s$(down_mark 1);
        server 127.0.0.1:$(instance_port 2) max_fails=1 fail_timeout=2s$(down_mark 2);
    }
    server {
        listen 127.0.0.1:$lb_port;
        location / {
            proxy_pass http://conference;
            include $repo/deploy/nginx/conference-proxy.conf;
        }
    }
}
EOF
}

# ` down` while instance N is taken out of the balancer (a marker file), else nothing.
down_mark() { [ -f "$dir/instance$1.out" ] && echo " down" || true; }

# The pids whose parent is `pid`, from /proc (procps may not be installed).
children_of() {
  local stat fields
  for stat in /proc/[0-9]*/stat; do
    # Field 4 is the parent's pid; field 2, the name in parentheses, holds no spaces here.
    read -r -a fields <"$stat" 2>/dev/null || continue
    [ "${fields[3]:-}" = "$1" ] && echo "${fields[0]}"
  done
  return 0
}

# Rewrites the balancer's config and has nginx load it, waiting until the workers of the old
# config have exited: from then on no new request goes to an instance marked down, while the
# requests it already had finish on it.
reload_nginx() {
  local master old i
  alive nginx || return 0
  write_nginx_conf
  master=$(pid_of nginx)
  old=$(children_of "$master")
  kill -HUP "$master"
  # An old worker exits once the requests it proxies are answered: as long as nginx's
  # proxy_read_timeout (60 s) for a slow upload on a busy machine.
  for ((i = 0; i < 650; i++)); do
    local still=0 pid
    for pid in $old; do kill -0 "$pid" 2>/dev/null && still=1; done
    [ "$still" = 0 ] && return 0
    sleep 0.1
  done
  die "nginx's old workers did not exit within 65 s of the reload (log: $dir/nginx/error.log)"
}

# A rolling restart's stop: closing a listener resets the connections that reached it in the
# meantime, which a balancer cannot retry for a POST it already sent (a 502). Taking the
# instance out of the balancer first means none arrive; then SIGTERM drains what it has.
stop_instance() {
  local n=$1
  touch "$dir/instance$n.out"
  reload_nginx
  stop_process "instance$n" TERM "$stop_wait"
}

start_nginx() {
  command -v nginx >/dev/null || {
    say "installing nginx-light"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nginx-light >/dev/null
  }
  write_nginx_conf
  nginx -t -q -c "$dir/nginx/nginx.conf" -p "$dir/nginx/" 2>&1 | grep -v "^$" >&2 || true
  nginx -c "$dir/nginx/nginx.conf" -p "$dir/nginx/" >>"$dir/nginx/stderr.log" 2>&1 &
  echo $! >"$dir/nginx.pid"
  if ! wait_healthy "http://127.0.0.1:$lb_port/api/health" nginx 15; then
    cat "$dir/nginx/error.log" "$dir/nginx/stderr.log" >&2 2>/dev/null || true
    die "nginx did not answer on 127.0.0.1:$lb_port"
  fi
  say "nginx on 127.0.0.1:$lb_port (pid $(pid_of nginx))"
}

stop_all() {
  [ -d "$dir" ] || { say "nothing to stop ($dir does not exist)"; return; }
  stop_process nginx QUIT 10
  stop_process instance1 TERM "$stop_wait"
  stop_process instance2 TERM "$stop_wait"
  stop_postgres
  rm -rf "$dir"
  say "stopped"
}

start_all() {
  [ -x "$bin" ] || die "no binary at $bin: run 'cargo build --release' first (or set CONFERENCE_BIN)"
  if [ -d "$dir" ]; then die "$dir exists: a cluster runs or was not stopped; run '$0 stop' first"; fi
  mkdir -p "$dir"
  # A failed start leaves nothing running.
  trap 'say "start failed; stopping what was started"; stop_all' ERR
  start_postgres
  write_instance_env
  # Migrate once before the instances start, so a binary that cannot use this database says so
  # here, clearly, rather than as two failed instances.
  if ! (exec_conference "$bin" migrate) >"$dir/migrate.log" 2>&1; then
    cat "$dir/migrate.log" >&2
    say "the binary could not migrate $(sed 's/:[^:@]*@/:***@/' "$dir/database_url")"
    false
  fi
  check_database
  start_instance 1
  start_instance 2
  start_nginx
  trap - ERR
  echo "http://127.0.0.1:$lb_port"
}

status() {
  local name code=0
  for name in nginx instance1 instance2; do
    if alive "$name"; then echo "$name: running (pid $(pid_of "$name"))"; else echo "$name: stopped"; code=1; fi
  done
  if [ -f "$dir/pg/data/postmaster.pid" ]; then
    echo "postgres: running (pid $(head -n 1 "$dir/pg/data/postmaster.pid"), 127.0.0.1:$pg_port)"
  elif [ -n "${CLUSTER_DATABASE_URL:-}" ]; then
    echo "postgres: external (CLUSTER_DATABASE_URL)"
  else
    echo "postgres: stopped"; code=1
  fi
  if curl -fsS -o /dev/null --max-time 2 "http://127.0.0.1:$lb_port/api/health" 2>/dev/null; then
    echo "balancer: http://127.0.0.1:$lb_port answers"
  else
    echo "balancer: http://127.0.0.1:$lb_port does not answer"; code=1
  fi
  return $code
}

case "${1:-}" in
  start) start_all ;;
  stop) stop_all ;;
  status) status ;;
  start-instance) [ -f "$dir/instance.env" ] || die "no cluster in $dir"; start_instance "${2:?instance number}" ;;
  stop-instance) stop_instance "${2:?instance number}" ;;
  kill-instance) stop_process "instance${2:?instance number}" KILL 5 ;;
  *)
    sed -n '2,22p' "$0" | sed 's/^# \{0,1\}//' >&2
    exit 2
    ;;
esac
