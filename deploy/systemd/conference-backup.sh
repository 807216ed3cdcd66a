#!/bin/sh
# A nightly backup of the site (run by conference-backup.service): one archive named by its
# UTC time in BACKUP_DIR, checked with `conference verify-backup`, then all but the newest
# KEEP archives removed. The database and DATA_DIR come from the same settings as the server
# (DATABASE_URL, DATA_DIR). A failed backup or check exits non-zero and removes nothing.
#
# Settings (environment): BACKUP_DIR (default /var/backups/conference), KEEP (14),
# CONFERENCE (the binary, default /usr/local/bin/conference).
set -eu
dir=${BACKUP_DIR:-/var/backups/conference}
keep=${KEEP:-14}
conference=${CONFERENCE:-/usr/local/bin/conference}
case $keep in '' | *[!0-9]* | 0) echo "KEEP must be a whole number of archives, at least 1 (got '$keep')" >&2; exit 2 ;; esac

mkdir -p "$dir"
out="$dir/conference-$(date -u +%Y%m%dT%H%M%SZ).tar.gz"
"$conference" backup --out "$out"
"$conference" verify-backup "$out" >/dev/null

# Names sort by time; the newest $keep stay. Only this script's own archives are touched.
ls -1 "$dir" | grep -E '^conference-[0-9]{8}T[0-9]{6}Z\.tar\.gz$' | sort | head -n "-$keep" |
  while read -r old; do rm -f -- "$dir/$old"; done
echo "backup: $out (keeping the newest $keep in $dir)"
