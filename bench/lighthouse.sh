#!/usr/bin/env bash
# Lighthouse (mobile, simulated slow 4G and 4x CPU) on the release build (issue 13,
# docs/performance.md).
#
# Builds nothing: run `cargo build --release` first. Needs Debian's chromium and npx (the
# first run fetches Lighthouse 12 from npm into npm's cache; Chromium is never downloaded).
# The server listens on 127.0.0.1 only, on a temp database with the production seed, and is
# stopped by its pid on exit; the temp folder is removed.
#
#   bench/lighthouse.sh                    # 3 runs of /, /pricing, /submission, /committee
#   RUNS=5 bench/lighthouse.sh / /pricing  # other routes, more runs
#   BASE_BIN=/tmp/conference-before bench/lighthouse.sh /
#                                          # the same runs on a second build (say, the commit
#                                          # before a change), interleaved with this one's, so
#                                          # both meet the same machine load; rows say which
#   BIN=/tmp/conference-new BASE_BIN=/tmp/conference-old RUNS=3 bench/lighthouse.sh / /pricing
#                                          # any two builds: "this" is BIN, "base" BASE_BIN
#   PROGRAMME=1 bench/lighthouse.sh /schedule /schedule/talks/a-study-of-solar-micro-grids-for-island-communities-1
#                                          # with 250 published talks (publish_programme in
#                                          # bench/server.sh), on this build only
#
# Comparing two builds: each build gets its own server (BASE_BIN on PORT+1) and its own temp
# database, both started before the first run; each run measures both, one right after the
# other, the first of the pair alternating (base first in odd runs, this first in even ones),
# and each route ends with the median of each build. The header names both binaries (path,
# size, mtime, SHA-256 prefix), since neither knows its commit: copy each build out under a
# name that says it (`cp target/release/conference /tmp/conference-<sha>`). To build an older
# commit without touching this tree: `git worktree add --detach /tmp/wt <sha>` and
# `CARGO_TARGET_DIR=/tmp/wt-target cargo build --release` in it.
#
# Prints one line per run (scores, LCP, FCP, TBT, CLS, transferred JS and CSS, Lighthouse's
# benchmarkIndex of the machine at that moment, the longest main-thread task after the first
# paint, the LCP element's render delay: from the first byte to its paint, as Lighthouse
# observed it, unthrottled) and the median of each route. TBT moves with the machine's speed:
# Lighthouse multiplies the task times it observes by 4, so compare runs made in the same
# session.
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
BIN="${BIN:-$ROOT/target/release/conference}"
RUNS="${RUNS:-3}"
PORT="${PORT:-18091}"
LIGHTHOUSE="${LIGHTHOUSE:-lighthouse@12}"
ROUTES=("$@")
[ ${#ROUTES[@]} -gt 0 ] || ROUTES=(/ /pricing /submission /committee)

[ -x "$BIN" ] || { echo "no $BIN: run cargo build --release first" >&2; exit 1; }
[ -x /usr/bin/chromium ] || { echo "no /usr/bin/chromium (apt-get install -y chromium)" >&2; exit 1; }
command -v npx >/dev/null || { echo "npx is not installed" >&2; exit 1; }

[ -z "${BASE_BIN:-}" ] || [ -x "$BASE_BIN" ] || { echo "no $BASE_BIN" >&2; exit 1; }

TMP="$(mktemp -d /tmp/conference-lighthouse.XXXXXX)"
SERVER_PID=""
BASE_PID=""
cleanup() {
  for pid in $SERVER_PID $BASE_PID; do kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null || true; done
  rm -rf "$TMP"
}
trap cleanup EXIT

# shellcheck source=bench/server.sh
source "$ROOT/bench/server.sh"
# Builds by label: "this" is BIN; "base" (with BASE_BIN) is the build to compare with.
declare -A URLS=([this]="http://127.0.0.1:$PORT")
LABELS=(this)
if [ -n "${BASE_BIN:-}" ]; then
  mkdir -p "$TMP/base"
  URLS[base]="http://127.0.0.1:$((PORT + 1))"
  BIN="$BASE_BIN" start_server "${URLS[base]}" "$TMP/base"
  BASE_PID=$SERVER_PID
  LABELS=(base this)
fi
mkdir -p "$TMP/this"
start_server "${URLS[this]}" "$TMP/this"
# With PROGRAMME=1, this build's database gets a published programme of 250 talks (issue 31
# item 7; the example is built beside BIN): measure `/schedule` and a talk page with it.
[ "${PROGRAMME:-0}" = 1 ] && publish_programme "${URLS[this]}" "$TMP/this"

# Reads one Lighthouse JSON report; prints a run's figures as one tab-separated line.
summarise() {
  node -e '
    const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
    const a = r.audits, c = r.categories;
    const score = (k) => Math.round(c[k].score * 100);
    const kb = (type) => (a["network-requests"].details.items
      .filter((i) => i.resourceType === type)
      .reduce((s, i) => s + i.transferSize, 0) / 1024).toFixed(0);
    const fcp = a["first-contentful-paint"].numericValue;
    const tasks = (a["long-tasks"]?.details?.items ?? []).filter((t) => t.startTime >= fcp);
    const longest = tasks.reduce((m, t) => Math.max(m, t.duration), 0);
    // The render delay of the LCP element as Lighthouse observed it (unthrottled), from
    // `lcp-breakdown-insight`; "-" when the report has none.
    const renderDelay = (a["lcp-breakdown-insight"]?.details?.items ?? [])
      .flatMap((item) => item.items ?? [])
      .find((i) => i.subpart === "elementRenderDelay");
    console.log([
      [score("performance"), score("accessibility"), score("best-practices"), score("seo")].join("/"),
      (a["largest-contentful-paint"].numericValue / 1000).toFixed(2),
      (fcp / 1000).toFixed(2),
      a["total-blocking-time"].numericValue.toFixed(0),
      a["cumulative-layout-shift"].numericValue.toFixed(3),
      kb("Script"), kb("Stylesheet"),
      r.environment.benchmarkIndex.toFixed(0),
      longest.toFixed(0),
      renderDelay ? renderDelay.duration.toFixed(0) : "-",
    ].join("\t"));
  ' "$1"
}

median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) }'; }

echo "# $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), tree at $(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo '?'), load average $(cut -d' ' -f1-3 /proc/loadavg)"
# Which binary each label is: the builds do not know their commits.
describe() { echo "$(stat -c '%s bytes, built %y' "$1" | cut -d. -f1), sha256 $(sha256sum "$1" | cut -c1-12)"; }
[ -z "${BASE_BIN:-}" ] || echo "# base: $BASE_BIN ($(describe "$BASE_BIN"))"
echo "# this: $BIN ($(describe "$BIN"))"
row() { printf '%-12s %-5s %-4s %-15s %6s %6s %6s %6s %7s %7s %6s %9s %9s\n' "$@"; }
row route build run scores LCP_s FCP_s TBT_ms CLS JS_KB CSS_KB bench long_task lcp_delay
for route in "${ROUTES[@]}"; do
  for label in "${LABELS[@]}"; do : >"$TMP/rows-$label"; done
  for run in $(seq 1 "$RUNS"); do
    # With two builds, the first of a run alternates, so neither always meets a cold machine.
    order=("${LABELS[@]}")
    if [ ${#LABELS[@]} = 2 ] && [ $((run % 2)) = 0 ]; then order=(this base); fi
    for label in "${order[@]}"; do
      report="$TMP/report.json"
      rm -f "$report"
      # Lighthouse's own trace error (NO_NAVSTART) ends a run now and then: one more try.
      for attempt in 1 2; do
        if npx --yes "$LIGHTHOUSE" "${URLS[$label]}$route" --quiet --output=json --output-path="$report" \
          --form-factor=mobile --throttling-method=simulate \
          --chrome-path=/usr/bin/chromium \
          --chrome-flags="--headless --no-sandbox --disable-gpu --disable-background-networking --disable-component-update --no-first-run" \
          >"$TMP/lighthouse.log" 2>&1 && node -e 'process.exit(JSON.parse(require("fs").readFileSync(process.argv[1])).runtimeError ? 1 : 0)' "$report"; then
          break
        fi
        [ "$attempt" = 2 ] && { echo "lighthouse failed on $route:" >&2; tail -5 "$TMP/lighthouse.log" >&2; exit 1; }
      done
      line=$(summarise "$report")
      echo "$line" >>"$TMP/rows-$label"
      IFS=$'\t' read -r scores lcp fcp tbt cls js css bench longest delay <<<"$line"
      row "$route" "$label" "$run" "$scores" "$lcp" "$fcp" "$tbt" "$cls" "$js" "$css" "$bench" "$longest" "$delay"
    done
  done
  for label in "${LABELS[@]}"; do
    col() { cut -f"$1" "$TMP/rows-$label" | median; }
    row "$route" "$label" median "perf $(cut -f1 "$TMP/rows-$label" | cut -d/ -f1 | median)" \
      "$(col 2)" "$(col 3)" "$(col 4)" "$(col 5)" "$(col 6)" "$(col 7)" "$(col 8)" "$(col 9)" "$(col 10)"
  done
done
