#!/usr/bin/env bash
# How long a backup, its check and a restore take for a site with PAPERS papers (issue 22;
# the README's Operations part quotes the result).
#
# Builds nothing: run `cargo build --release` first. Needs curl. Everything listens on
# 127.0.0.1 only, lives in a temp folder, and the server started here is stopped by its pid.
#
#   bench/restore.sh                       # 1,000 papers of 300 KiB, restored into SQLite
#   PAPERS=200 PAPER_KIB=1024 bench/restore.sh
#   RESTORE_DATABASE_URL=postgres://postgres@127.0.0.1:25503/restore bench/restore.sh
#                                          # also restore into that (empty) PostgreSQL database
#
# The site is filled through POST /api/paper-submission (4 at a time), as visitors fill it,
# so each paper has its row, its file and its two mails. Prints the seconds of `backup`,
# `verify-backup` and `restore`, and the archive's size.
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
BIN="${BIN:-$ROOT/target/release/conference}"
PAPERS="${PAPERS:-1000}"
PAPER_KIB="${PAPER_KIB:-300}"
PORT="${PORT:-18401}"
URL="http://127.0.0.1:$PORT"
[ -x "$BIN" ] || { echo "no $BIN: run cargo build --release first" >&2; exit 1; }
# shellcheck source=bench/server.sh
source "$ROOT/bench/server.sh"

work=$(mktemp -d /tmp/bench-restore.XXXXXX)
SERVER_PID=
cleanup() {
  stop_server
  rm -rf "$work"
}
trap cleanup EXIT

# One PDF of PAPER_KIB KiB of random bytes (a real PDF's streams are compressed: gzip gains
# nothing on them either); each upload appends its number so every paper is its own bytes.
{ printf '%%PDF-1.4\n%%'; head -c $((PAPER_KIB * 1024)) /dev/urandom; } >"$work/base.pdf"
WARM_UP=0 start_server "$URL" "$work" RATE_LIMIT_PER_MINUTE=10000000
seconds() { date +%s.%N; }
since() { awk -v from="$1" -v to="$(seconds)" 'BEGIN { printf "%.1f", to - from }'; }

upload() {
  local n=$1 pdf="$work/p$1.pdf"
  { cat "$work/base.pdf"; printf '\n%% paper %s\ntrailer\n<< >>\n%%%%EOF\n' "$n"; } >"$pdf"
  curl -fsS -o /dev/null -H "Origin: $URL" -H 'Accept: application/json' \
    -F paperType='Full Paper' -F authorName='Ana Cruz' -F number='+639171234567' \
    -F "email=author$n@example.org" -F country=Philippines -F coAuthorName='Ben Reyes' \
    -F "paperTitle=Paper $n" -F department=Engineering -F universityOrganization='University of Manila' \
    -F presentationType=Oral -F message='Restore benchmark' -F conferenceSource=linkedin \
    -F "file=@$pdf;type=application/pdf;filename=paper.pdf" "$URL/api/paper-submission"
  rm -f "$pdf"
}
export -f upload
export work URL
started=$(seconds)
seq 1 "$PAPERS" | xargs -P 4 -I{} bash -c 'upload {}'
echo "filled: $PAPERS papers of $PAPER_KIB KiB in $(since "$started") s"

site=(env DATABASE_URL="sqlite://$work/conference.db" DATA_DIR="$work/data" RUST_LOG=warn)
started=$(seconds)
"${site[@]}" "$BIN" backup --out "$work/site.tar.gz" >/dev/null
echo "backup (server running): $(since "$started") s, archive $(du -m "$work/site.tar.gz" | cut -f1) MiB"
stop_server

started=$(seconds)
"$BIN" verify-backup "$work/site.tar.gz" >/dev/null
echo "verify-backup: $(since "$started") s"

mkdir -p "$work/restored"
started=$(seconds)
env DATABASE_URL="sqlite://$work/restored/conference.db" DATA_DIR="$work/restored" RUST_LOG=warn \
  "$BIN" restore --from "$work/site.tar.gz" >/dev/null
echo "restore into SQLite: $(since "$started") s"
if [ -n "${RESTORE_DATABASE_URL:-}" ]; then
  started=$(seconds)
  env DATABASE_URL="$RESTORE_DATABASE_URL" DATA_DIR="$work/restored-pg" RUST_LOG=warn \
    "$BIN" restore --from "$work/site.tar.gz" >/dev/null
  echo "restore into PostgreSQL: $(since "$started") s"
fi
