#!/usr/bin/env bash
# Issue 11's targets: slow clients from one address against another's latency, memory and
# open files; then three rounds of kill -9 during uploads and a mail burst.
# Builds nothing: expects target/release/conference (cargo build --release). Loopback only;
# every server is started and stopped by its pid (in bench/slow_clients.py).
# Usage: bench/slow-clients.sh [slow|crash|all]   (CONFERENCE_BIN overrides the binary)
set -euo pipefail
cd "$(dirname "$0")/.."
BIN="${CONFERENCE_BIN:-target/release/conference}"
[ -x "$BIN" ] || { echo "missing $BIN: run cargo build --release first" >&2; exit 1; }
MODE="${1:-all}"
port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
# The slow clients need more descriptors than the server's 1,024.
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true
for m in slow crash; do
  [ "$MODE" = all ] || [ "$MODE" = "$m" ] || continue
  DATA="$(mktemp -d)"
  echo "== $m (data in $DATA)"
  python3 bench/slow_clients.py "$m" "$BIN" "$DATA" "$(port)"
  rm -rf "$DATA"
done
