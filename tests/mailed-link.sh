# Sourced by tests/validate-html.sh and bench/organiser.sh: reads a link out of the mails the
# server writes to DATA_DIR/mail (MAIL_TRANSPORT=file).
#
#   mailed_link DIR PATTERN [SECONDS]
#
# Prints the first text matching PATTERN (a grep basic regular expression) in the `.eml` files
# under DIR, joining quoted-printable soft line breaks ("=" at a line's end) first; waits up to
# SECONDS (default 30) for the outbox worker to write it, and returns 1 if it never came.
mailed_link() {
  local dir=$1 pattern=$2 deadline=$((SECONDS + ${3:-30})) link
  while :; do
    link=$(cat "$dir/"*.eml 2>/dev/null | sed -e ':a' -e '/=\r\{0,1\}$/{N;s/=\r\{0,1\}\n//;ba' -e '}' \
      | grep -o "$pattern" | head -n 1 || true)
    [ -n "$link" ] && { echo "$link"; return 0; }
    [ "$SECONDS" -lt "$deadline" ] || return 1
    sleep 0.1
  done
}
