#!/usr/bin/env bash
# The edit loop's speed (issue 45 item 2, DESIGN.md section 19): save to new page, as a median
# over EDITS edits (default 10) of a template and of the content seed, split into the steps
# dev/dev.mjs reports (detect, compile, link, restart, seed, reload) plus `page`, the time
# from the reload event to the new page's answer.
#
#   bench/dev-loop.sh            # template and seed edits, 10 each
#   EDITS=3 bench/dev-loop.sh    # fewer
#   KINDS=seed bench/dev-loop.sh # only the seed edits (or KINDS=template)
#
# Runs dev/dev.mjs on this working tree with its own database (a temp folder), on port 3197 (DEV_BENCH_PORT).
# Edits, in place (both files are put back as they were when the run ends, also on failure):
# a heading of templates/pages/home.html and a statistic's label in
# migrations/seed/content.sql, both shown on `/`. A save is a rewrite of the file; "new page"
# is the first answer of `/` through the dev proxy (as the browser reloads it) carrying the edit.
# The build after the run compiles the template back (its file is newer than the build).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
edits=${EDITS:-10}
port=${DEV_BENCH_PORT:-3197}
work=$(mktemp -d /tmp/dev-loop-bench.XXXXXX)
template=templates/pages/home.html
seed=migrations/seed/content.sql
cp -p "$template" "$work/template.orig"
cp -p "$seed" "$work/seed.orig"
cleanup() {
  if [ -n "${dev_pid:-}" ]; then kill "$dev_pid" 2>/dev/null && wait "$dev_pid" 2>/dev/null || true; fi
  cp "$work/template.orig" "$template"
  cp "$work/seed.orig" "$seed"
  rm -rf "$work"
}
trap cleanup EXIT

echo "bench: $(date -u +%FT%TZ), $(nproc) cores, $(uname -m), $(rustc --version)"
DEV_LOG=timings LISTEN_ADDR=127.0.0.1:$port PUBLIC_URL=http://127.0.0.1:$port \
  DATABASE_URL=sqlite://$work/conference.db DATA_DIR=$work RUST_LOG=warn \
  node dev/dev.mjs >"$work/dev.log" 2>&1 &
dev_pid=$!

KINDS=${KINDS:-template seed} EDITS=$edits PORT=$port LOG=$work/dev.log DEV_PID=$dev_pid node --input-type=module - <<'EOF'
import { readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';

const port = Number(process.env.PORT);
const edits = Number(process.env.EDITS);
const log = process.env.LOG;
const sleep = (ms) => new Promise((ok) => setTimeout(ok, ms));

function get(path) {
  return new Promise((ok) => {
    const req = http.get({ host: '127.0.0.1', port, path, headers: { accept: 'text/html' }, agent: false }, (res) => {
      let body = '';
      res.on('data', (c) => (body += c));
      res.on('end', () => ok({ status: res.statusCode, body }));
    });
    req.on('error', () => ok({ status: 0, body: '' }));
  });
}

// Reload events, as the open tab gets them.
let reloads = 0;
let lastReload = 0;
function listen() {
  http
    .get({ host: '127.0.0.1', port, path: '/__dev/events', agent: false }, (res) => {
      res.on('data', (c) => {
        if (String(c).includes('event: reload')) {
          reloads += 1;
          lastReload = performance.now();
        }
      });
    })
    .on('error', (err) => {
      throw new Error(`the reload events stopped: ${err.message}`);
    });
}

// The dev log's timing lines since `from` (an offset in the log file).
function steps(from) {
  const text = readFileSync(log, 'utf8').slice(from);
  const out = {};
  for (const m of text.matchAll(/^dev-timing (\w+) (\d+)/gm)) out[m[1]] = (out[m[1]] ?? 0) + Number(m[2]);
  return out;
}

async function ready() {
  const started = Date.now();
  for (;;) {
    const page = await get('/');
    if (page.status === 200 && readFileSync(log, 'utf8').includes('reload (build, seed)')) return;
    try {
      process.kill(Number(process.env.DEV_PID), 0);
    } catch {
      throw new Error(`dev/dev.mjs exited:\n${readFileSync(log, 'utf8')}`);
    }
    if (Date.now() - started > 900_000) throw new Error(`dev/dev.mjs did not serve / within 15 min; see ${log}`);
    await sleep(500);
  }
}

async function edit(kind, file, from, to) {
  const rows = [];
  for (let i = 1; i <= edits; i++) {
    const text = readFileSync(file, 'utf8');
    const tag = `${kind}-${i}-${Date.now() % 100000}`;
    const mark = `${to} ${tag}`;
    const edited = text.replace(new RegExp(`${from}( [a-z]+-\\d+-\\d+)?`), mark);
    if (edited === text) throw new Error(`${file} has no ${from}`);
    const offset = readFileSync(log, 'utf8').length;
    const before = reloads;
    const saved = performance.now();
    writeFileSync(file, edited);
    while (reloads === before) await sleep(5);
    const reloaded = lastReload;
    let page;
    for (;;) {
      page = await get('/');
      if (page.body.includes(tag)) break;
      if (performance.now() - saved > 120_000) throw new Error(`${kind} edit ${i}: / never showed ${mark}`);
      await sleep(20);
    }
    const total = performance.now() - saved;
    const s = steps(offset);
    rows.push({ total, ...s, page: performance.now() - reloaded });
    console.log(
      `${kind} ${String(i).padStart(2)}: ${(total / 1000).toFixed(2)} s = ` +
        Object.entries({ ...s, page: performance.now() - reloaded })
          .map(([k, v]) => `${k} ${Math.round(v)}`)
          .join(', ') + ' ms',
    );
    await sleep(1500);
  }
  const median = (xs) => {
    const s = [...xs].sort((a, b) => a - b);
    return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
  };
  const keys = [...new Set(rows.flatMap((r) => Object.keys(r)))];
  console.log(`${kind}: median of ${edits}: ` + keys.map((k) => `${k} ${Math.round(median(rows.map((r) => r[k] ?? 0)))}`).join(', ') + ' ms');
}

await ready();
listen();
await sleep(1500);
const kinds = (process.env.KINDS || 'template seed').split(/\s+/);
if (kinds.includes('template')) await edit('template', 'templates/pages/home.html', 'Conference Highlights', 'Conference Highlights');
if (kinds.includes('seed')) await edit('seed', 'migrations/seed/content.sql', "'home', 'Participants", "'home', 'Participants");
// The event stream would keep this process alive.
process.exit(0);
EOF
