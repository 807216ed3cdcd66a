#!/usr/bin/env bash
# How long automatic review assignment takes (issue 32 item 4: 250 papers and 60 reviewers,
# two reviewers a paper, in under 1 s): the papers' topics, the conflict rules over every
# pair and the min-cost flow of src/review/assign.rs, timed by examples/assign_bench.rs on
# made-up papers and reviewers (random topics and conflicts from a fixed seed).
#
# Builds nothing: build the example first and give its path (or BIN):
#
#   cargo build --release --example assign_bench
#   bench/assign.sh target/release/examples/assign_bench
#   PAPERS=1000 REVIEWERS=100 ROUNDS=3 bench/assign.sh target/release/examples/assign_bench
#
# Prints the machine, then per round the milliseconds of each step and what the result was
# (pairs, papers full, conflicted pairs, the loads' range, topic matches); the last line is
# the median and worst round. Fails when the median is 1 s or more at the issue's size.
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
BIN="${1:-${BIN:-$ROOT/target/release/examples/assign_bench}}"
PAPERS="${PAPERS:-250}"
REVIEWERS="${REVIEWERS:-60}"
PER_PAPER="${PER_PAPER:-2}"
ROUNDS="${ROUNDS:-5}"

[ -x "$BIN" ] || { echo "no $BIN: run cargo build --release --example assign_bench first" >&2; exit 1; }

echo "# $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs); load average $(cut -d' ' -f1-3 /proc/loadavg)"
out=$("$BIN" "$PAPERS" "$REVIEWERS" "$PER_PAPER" "$ROUNDS")
echo "$out"
median=$(awk '/^assignment: median/ { print $3 }' <<<"$out")
if [ "$PAPERS" = 250 ] && [ "$REVIEWERS" = 60 ] && awk -v m="$median" 'BEGIN { exit !(m >= 1000) }'; then
  echo "assign: median $median ms, over the issue's 1 s" >&2
  exit 1
fi
