#!/usr/bin/env node
// The edit loop (DESIGN.md section 19, issue 45): `node dev/dev.mjs` serves the working tree on
// LISTEN_ADDR (default 127.0.0.1:3000) and reloads the open browser tab after every change.
//
// A supervisor in front of the real server, never part of it: the `conference` binary (built
// by `cargo build`, debug profile) listens on a free loopback port of its own, and this proxy
// passes every request to it, adding one script tag to HTML answers. That script listens to
// `/__dev/events` (server-sent events) and reloads the page when told. A release `serve` has
// none of it (tests/dev_loop.rs checks that).
//
// What a change does:
//   templates/, src/, migrations/ (schema), Cargo.toml, Cargo.lock, build.rs: `cargo build`,
//     then a new server beside the old one, the proxy switches to it, the old one stops,
//     the tab reloads. A failed build leaves the last good server running and shows an error
//     page (file, line, message from cargo's JSON diagnostics) until the file is fixed.
//   the content seed (migrations/seed/content.sql, or DEV_SEED_FILE): `seed --file`, no build.
//     The running server picks the new content version up by itself (src/content/store.rs);
//     the proxy waits until it answers the open page with it, then reloads. A seed that does
//     not apply changes nothing and shows as an error page (its line from `seed --check`);
//     then `seed --check` runs in full (it renders every page: seconds in a debug build, so
//     after the reload) and turns the tab into an error page if it refuses the seed.
//   islands/src/: Vite's own watch (`vite build --watch`) rebuilds them, then a new server
//     (it reads Vite's manifest at start), no cargo build.
//   static/, seed/signatures/: a new server (debug builds read embedded folders from disk).
//
// Configuration is `serve`'s (LISTEN_ADDR, PUBLIC_URL, DATABASE_URL, DATA_DIR, ...): every
// variable is passed on, except that the server itself listens on DEV_BACKEND_PORT (default:
// a free port) and PUBLIC_URL defaults to the proxy's address. Node.js built-ins only.
//
// DEV_LOG=timings prints one line per step (detect, compile, restart, reload) with its time
// in milliseconds, for bench/dev-loop.sh.

import { spawn } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, statSync, watch } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
process.chdir(root);

const listen = process.env.LISTEN_ADDR || '127.0.0.1:3000';
const [listenHost, listenPort] = splitAddr(listen);
const publicUrl = process.env.PUBLIC_URL || `http://${listen}`;
const seedFile = resolve(process.env.DEV_SEED_FILE || 'migrations/seed/content.sql');
const timings = process.env.DEV_LOG === 'timings';
const cargo = process.env.CARGO || 'cargo';

/** Paths (relative to the root) whose change needs a cargo build. */
const BUILD_PATHS = ['templates/', 'src/', 'migrations/', 'Cargo.toml', 'Cargo.lock', 'build.rs'];
/** Paths a new server picks up without a build (debug builds read embedded folders from disk). */
const RESTART_PATHS = ['static/', 'seed/'];
/** Folders watched, recursively; files at the root are watched through the root itself. */
const WATCHED = ['templates', 'src', 'migrations', 'static', 'seed'];

function splitAddr(addr) {
  const at = addr.lastIndexOf(':');
  if (at < 0) throw new Error(`LISTEN_ADDR must be host:port (it is ${addr})`);
  return [addr.slice(0, at).replace(/^\[|\]$/g, ''), Number(addr.slice(at + 1))];
}

function log(message) {
  console.log(`dev: ${message}`);
}

function timing(step, ms, detail = '') {
  if (timings) console.log(`dev-timing ${step} ${Math.round(ms)}${detail ? ` ${detail}` : ''}`);
}

// ---- state -------------------------------------------------------------------------------

/** The server answering now: { child, port, bin } or null. */
let current = null;
/** What the browser shows instead of pages: { title, file, line, column, message, output } or null. */
let failure = null;
/** Bumped at every reload; pages carry theirs, so a tab that missed an event reloads on reconnect. */
let generation = 1;
const listeners = new Set();

function reload(reason) {
  generation += 1;
  for (const res of listeners) res.write(`event: reload\ndata: ${generation}\n\n`);
  log(`reload (${reason})`);
}

// ---- the real server ---------------------------------------------------------------------

function freePort() {
  return new Promise((ok, fail) => {
    const probe = net.createServer();
    probe.unref();
    probe.on('error', fail);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => ok(port));
    });
  });
}

function serverEnv(port) {
  return { ...process.env, LISTEN_ADDR: `127.0.0.1:${port}`, PUBLIC_URL: publicUrl };
}

/** Starts `bin serve` on a free port and resolves once it answers `/api/health`. */
async function startServer(bin) {
  const port = Number(process.env.DEV_BACKEND_PORT) || (await freePort());
  const child = spawn(bin, ['serve'], { env: serverEnv(port), stdio: ['ignore', 'inherit', 'inherit'] });
  let exited = null;
  child.on('exit', (code, signal) => {
    exited = { code, signal };
  });
  const started = Date.now();
  for (;;) {
    if (exited) throw new Error(`the server exited at start (${exited.code ?? exited.signal}); its log is above`);
    if (await answers(port)) return { child, port, bin };
    if (Date.now() - started > 120_000) {
      child.kill('SIGKILL');
      throw new Error('the server did not answer /api/health within 120 s');
    }
    await sleep(25);
  }
}

function answers(port) {
  return new Promise((ok) => {
    const req = http.get({ host: '127.0.0.1', port, path: '/api/health', agent: false }, (res) => {
      res.resume();
      ok(res.statusCode === 200);
    });
    req.on('error', () => ok(false));
    req.setTimeout(1000, () => req.destroy());
  });
}

function stopServer(server) {
  if (!server || server.child.exitCode !== null || server.child.signalCode !== null) return Promise.resolve();
  return new Promise((ok) => {
    const force = setTimeout(() => server.child.kill('SIGKILL'), 10_000);
    server.child.once('exit', () => {
      clearTimeout(force);
      ok();
    });
    server.child.kill('SIGTERM');
  });
}

/** A new server beside the running one; the proxy switches to it, then the old one stops. */
async function restart(bin) {
  const started = performance.now();
  const next = await startServer(bin);
  const old = current;
  current = next;
  timing('restart', performance.now() - started);
  stopServer(old);
}

// ---- cargo -------------------------------------------------------------------------------

function run(program, args, options = {}) {
  return new Promise((ok) => {
    const child = spawn(program, args, { stdio: ['ignore', 'pipe', 'pipe'], ...options });
    options.onSpawn?.(child);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => {
      stdout += d;
      options.onStdout?.(d);
    });
    child.stderr.on('data', (d) => {
      stderr += d;
      if (options.echoStderr) process.stderr.write(d);
    });
    child.on('error', (err) => ok({ code: -1, stdout, stderr: `${stderr}${err.message}` }));
    child.on('close', (code) => ok({ code, stdout, stderr }));
  });
}

/**
 * `cargo build --bin conference` with JSON messages: resolves { bin } or { error }, the error
 * being the first compiler error's file, line and message (askama names the template in the
 * message) with every error's rendered text. Also the compile and link times, as far as
 * cargo's messages tell them apart (the link is the time after the library is built).
 */
async function cargoBuild() {
  const started = performance.now();
  let libDone = null;
  const errors = [];
  let bin = null;
  let pending = '';
  const result = await run(cargo, ['build', '--bin', 'conference', '--example', 'dev_features', '--message-format=json-diagnostic-rendered-ansi'], {
    echoStderr: false,
    onStdout(chunk) {
      pending += chunk;
      let nl;
      while ((nl = pending.indexOf('\n')) >= 0) {
        const line = pending.slice(0, nl);
        pending = pending.slice(nl + 1);
        let message;
        try {
          message = JSON.parse(line);
        } catch {
          continue;
        }
        if (message.reason === 'compiler-message' && message.message.level === 'error') errors.push(message.message);
        if (message.reason === 'compiler-artifact' && message.target?.name === 'conference') {
          if (message.executable) bin = message.executable;
          else if (message.target.kind.includes('lib')) libDone = performance.now();
        }
      }
    },
  });
  const ended = performance.now();
  if (result.code === 0 && bin) {
    const compiled = (libDone ?? ended) - started;
    timing('compile', compiled);
    timing('link', ended - started - compiled);
    return { bin };
  }
  timing('compile', ended - started, 'failed');
  return { error: diagnosticFailure(errors, result.stderr) };
}

const ANSI = /\x1b\[[0-9;]*m/g;

/** The error page's content from cargo's diagnostics (or its stderr when it gave none). */
function diagnosticFailure(errors, stderr) {
  if (errors.length === 0) {
    return { title: 'The build failed', message: 'cargo build failed before compiling', output: stderr.replace(ANSI, '') };
  }
  const first = errors.find((e) => !/^aborting due to/.test(e.message)) ?? errors[0];
  const span = first.spans.find((s) => s.is_primary) ?? first.spans[0];
  const where =
    templateLocation(first.message) ??
    (span && derivedTemplateLocation(first, span)) ??
    (span ? { file: span.file_name, line: span.line_start, column: span.column_start } : {});
  return {
    title: 'A template or Rust file does not compile',
    ...where,
    message: first.message.split('\n')[0],
    output: errors.map((e) => (e.rendered ?? e.message).replace(ANSI, '')).join('\n'),
  };
}

/**
 * askama reports a template error at the deriving struct, naming the template in its message:
 * `failed to parse template source\n --> pages/home.html:12:5` (or `... in "pages/home.html"`).
 * The page names the template's file then, under templates/.
 */
function templateLocation(message) {
  const arrow = /-->\s*([^\s:]+\.(?:html|txt|xml|js|css|svg)):(\d+):(\d+)/.exec(message);
  if (arrow) return { file: templatePath(arrow[1]), line: Number(arrow[2]), column: Number(arrow[3]) };
  return null;
}

/**
 * A type error inside a template (an unknown field or method) is reported by rustc at the
 * struct's `#[derive(Template)]`: the template is the one its `#[template(path = ...)]` names,
 * and the line the first one using the name the error quotes.
 */
function derivedTemplateLocation(error, span) {
  if (!/derive macro `Template`/.test(error.rendered ?? '') || !existsSync(span.file_name)) return null;
  const rust = readFileSync(span.file_name, 'utf8').split('\n');
  const near = rust.slice(Math.max(0, span.line_start - 3), span.line_start + 8).join('\n');
  const named = /#\[template\([^)]*path\s*=\s*"([^"]+)"/.exec(near);
  if (!named) return null;
  const file = templatePath(named[1]);
  if (!existsSync(file)) return null;
  const quoted = /`(?:r#)?([A-Za-z_][A-Za-z0-9_]*)`/.exec(error.message);
  const lines = readFileSync(file, 'utf8').split('\n');
  const word = quoted && new RegExp(`\\b${quoted[1]}\\b`);
  const index = word ? lines.findIndex((l) => /\{\{|\{%/.test(l) && word.test(l.replace(/^[^{]*/, ''))) : -1;
  return index >= 0 ? { file, line: index + 1 } : { file };
}

function templatePath(name) {
  const inTemplates = join('templates', name);
  if (!existsSync(name) && existsSync(inTemplates)) return inTemplates;
  return relative(root, resolve(name));
}

// ---- the seed ----------------------------------------------------------------------------

/**
 * `seed --file`: resolves null once applied, or the failure to show. A seed that does not
 * apply changes nothing; `seed --check` then names its line (it stops at the failing
 * statement, so it answers at once).
 */
async function applySeed(bin) {
  const env = { ...serverEnv(current?.port ?? 0), RUST_LOG: 'warn' };
  const name = relative(root, seedFile);
  const applied = await run(bin, ['seed', '--file', seedFile], { env });
  if (applied.code === 0) return null;
  const checked = await run(bin, ['seed', '--check', '--file', seedFile], { env });
  const output = checked.code !== 0 ? `${checked.stdout}${checked.stderr}` : `${applied.stdout}${applied.stderr}`;
  return seedFailure(name, output, 'The content seed does not apply; nothing was changed');
}

/**
 * `seed --check` after the seed applied: what it refuses beyond `seed` (a page that no longer
 * renders, values that would print wrong) renders every page, seconds in a debug build, so it
 * runs after the reload and turns the tab into an error page only when it refuses.
 */
let checkRun = 0;
/** The check under way: stopped when the next change comes, which has its own. */
let checking = null;
async function checkSeed(bin) {
  const mine = ++checkRun;
  const env = { ...serverEnv(current?.port ?? 0), RUST_LOG: 'warn' };
  const checked = await run(bin, ['seed', '--check', '--file', seedFile], {
    env,
    onSpawn: (child) => {
      checking = child;
    },
  });
  checking = null;
  // A newer seed or build started meanwhile: its own check decides.
  if (mine !== checkRun || busy || waiting.size > 0) return;
  if (checked.code !== 0) {
    const title = 'The content seed applied, but `seed --check` refuses it';
    fail({ ...seedFailure(relative(root, seedFile), `${checked.stdout}${checked.stderr}`, title), kind: 'seed' });
  }
}

function seedFailure(name, output, title) {
  const text = output.replace(ANSI, '');
  const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const at = new RegExp(`${escaped}:(\\d+):(\\d+): (.*)`).exec(text);
  const named = new RegExp(`${escaped}: (.*)`).exec(text);
  return {
    title,
    file: name,
    line: at ? Number(at[1]) : undefined,
    column: at ? Number(at[2]) : undefined,
    message: at ? at[3] : named ? named[1] : text.trim().split('\n').pop(),
    output: text,
  };
}

/** The last page a browser asked for through the proxy: the one to watch after a seed. */
let lastPage = '/';

/**
 * Waits until the server answers the last page with other content than `before`, at most
 * 1.5 s: the server loads a new content version within a second (src/content/store.rs polls
 * `content_version`), and an edit may not change that page at all.
 */
async function waitForContent(before) {
  const started = Date.now();
  while (Date.now() - started < 1500) {
    if ((await fetchPage()) !== before) return;
    await sleep(50);
  }
}

function fetchPage() {
  if (!current) return Promise.resolve(null);
  return new Promise((ok) => {
    const req = http.get({ host: '127.0.0.1', port: current.port, path: lastPage, agent: false }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => ok(Buffer.concat(chunks).toString()));
    });
    req.on('error', () => ok(null));
  });
}

// ---- the work queue ----------------------------------------------------------------------

/** Kinds of change waiting: 'build', 'seed', 'islands', 'restart'; first seen time each. */
const waiting = new Map();
let busy = false;
let lastBin = null;

function classify(path) {
  if (resolve(path) === seedFile) return 'seed';
  if (path.startsWith('islands/')) return null; // Vite's watch (watchIslands) has them
  if (BUILD_PATHS.some((p) => path === p || path.startsWith(p))) return 'build';
  if (RESTART_PATHS.some((p) => path.startsWith(p))) return 'restart';
  return null;
}

function changed(path) {
  // Only files with an extension: editors' and sed's temporary files have none (`4913`,
  // `sedAbC12`) or their own (`.swp`, `~`, `#...#`); islands' tests are no page's.
  const name = path.split('/').pop();
  if (!/\.[A-Za-z0-9]+$/.test(name) || /^(\.#|#)|\.(swp|swx|tmp)$|\.test\.tsx?$/.test(name)) return;
  const kind = classify(path);
  if (kind) changedKind(kind, path);
}

function changedKind(kind, path) {
  if (!waiting.has(kind)) waiting.set(kind, { at: performance.now(), path });
  setTimeout(drain, 30);
}

async function drain() {
  if (busy || waiting.size === 0) return;
  busy = true;
  checking?.kill('SIGTERM');
  const jobs = new Map(waiting);
  waiting.clear();
  try {
    await work(jobs);
  } catch (err) {
    log(`error: ${err.message}`);
  }
  busy = false;
  if (waiting.size > 0) setTimeout(drain, 0);
}

async function work(jobs) {
  const first = Math.min(...[...jobs.values()].map((j) => j.at));
  timing('detect', performance.now() - first, [...jobs.values()].map((j) => j.path).join(','));
  for (const [kind, job] of jobs) log(`${job.path} changed (${kind})`);
  // What failed last is tried again with whatever changed now (Vite retries the islands itself).
  if (failure?.kind && failure.kind !== 'islands') jobs.set(failure.kind, jobs.get(failure.kind) ?? { at: first, path: '(retry)' });
  let bin = lastBin;
  let fresh = false;
  if (jobs.has('build') || !bin) {
    log('cargo build ...');
    const built = await cargoBuild();
    if (built.error) return fail({ ...built.error, kind: 'build' });
    fresh = built.bin !== lastBin || jobs.has('build');
    bin = lastBin = built.bin;
  }
  await islandsReady;
  // Vite wrote nothing: the running server has the last good islands.
  if (islandsFailure && !fresh) return fail({ ...islandsFailure, kind: 'islands' });
  if (fresh || jobs.has('islands') || jobs.has('restart') || !current) await restart(bin);
  if (jobs.has('seed')) {
    const started = performance.now();
    const before = await fetchPage();
    const refused = await applySeed(bin);
    if (refused) return fail({ ...refused, kind: 'seed' });
    await waitForContent(before);
    timing('seed', performance.now() - started);
    setTimeout(() => checkSeed(bin), 0);
  }
  if (islandsFailure) return fail({ ...islandsFailure, kind: 'islands' });
  failure = null;
  const started = performance.now();
  reload([...jobs.keys()].join(', '));
  timing('reload', performance.now() - started);
}

function fail(error) {
  failure = error;
  log(`${error.title}: ${error.file ?? ''}${error.line ? `:${error.line}` : ''} ${error.message}`);
  reload('error page');
}

function viteFailure(output) {
  const text = output.replace(ANSI, '');
  const at = /(?:islands\/)?(src\/[^\s:\]]+):(\d+):(\d+)/.exec(text);
  const lines = text.split('\n').map((l) => l.trim());
  return {
    title: 'The islands do not build (vite build)',
    file: at ? `islands/${at[1]}` : undefined,
    line: at ? Number(at[2]) : undefined,
    column: at ? Number(at[3]) : undefined,
    message: lines.find((l) => l && !/^Build failed/.test(l)) ?? 'vite build failed',
    output: text,
  };
}

/**
 * Vite's own watch mode over islands/src/ (`vite build --watch`): it keeps its module graph, so
 * a rebuild takes about a second where a fresh `vite build` takes five (bench/README.md, "Edit
 * loop"). Each build it finishes (after its first) queues an `islands` job: a new server,
 * which reads Vite's manifest at start, and the reload; a failed build shows as the error page.
 */
let islandsFailure = null;
let vite = null;
/** Resolved once Vite's first build is written: no server starts while it writes the manifest. */
let islandsReady = Promise.resolve();
let firstIslands = () => {};
function watchIslands() {
  const bin = join(root, 'islands/node_modules/.bin/vite');
  if (!existsSync(bin)) {
    log('islands/node_modules is missing (npm ci in islands/): island edits are not rebuilt');
    return;
  }
  islandsReady = new Promise((ok) => {
    firstIslands = ok;
  });
  vite = spawn(bin, ['build', '--watch'], { cwd: join(root, 'islands'), stdio: ['ignore', 'pipe', 'pipe'] });
  let builds = 0;
  let started = performance.now();
  let failed = null;
  let text = '';
  const line = (l) => {
    const plain = l.replace(ANSI, '');
    if (/^build started/.test(plain)) {
      started = performance.now();
      failed = null;
    } else if (/^built in /.test(plain)) {
      islandsFailure = null;
      firstIslands();
      if (builds++ > 0) {
        timing('islands', performance.now() - started);
        changedKind('islands', 'islands/dist/ (vite)');
      }
    } else if (/^Build failed/.test(plain)) {
      failed = [];
      setTimeout(() => {
        firstIslands();
        islandsFailure = viteFailure(failed.join('\n'));
        changedKind('islands', 'islands/src/ (vite failed)');
      }, 300);
    } else if (failed) {
      failed.push(plain);
    }
  };
  for (const stream of [vite.stdout, vite.stderr]) {
    stream.on('data', (d) => {
      text += d;
      let nl;
      while ((nl = text.indexOf('\n')) >= 0) {
        line(text.slice(0, nl));
        text = text.slice(nl + 1);
      }
    });
  }
  vite.on('exit', (code) => {
    firstIslands();
    if (code !== null) log(`vite build --watch exited (${code}); island edits are not rebuilt`);
  });
}

// ---- the proxy ---------------------------------------------------------------------------

const RELOAD_JS = `// The dev loop's reload (dev/dev.mjs); never served by \`conference serve\`.
(() => {
  const mine = Number(document.currentScript.dataset.generation);
  const events = new EventSource('/__dev/events');
  events.addEventListener('reload', () => location.reload());
  events.addEventListener('hello', (e) => { if (Number(e.data) !== mine) location.reload(); });
})();
`;

function scriptTag() {
  return `<script src="/__dev/reload.js" data-generation="${generation}"></script>`;
}

function escapeHtml(s) {
  return String(s ?? '').replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]);
}

function errorPage(error) {
  const where = error.file ? `${error.file}${error.line ? `:${error.line}` : ''}${error.column ? `:${error.column}` : ''}` : '';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Error: ${escapeHtml(where || error.title)}</title>
<style>body{font:16px/1.5 system-ui,sans-serif;margin:2rem;max-width:70rem}
pre{background:#1e1e1e;color:#eee;padding:1rem;overflow:auto;font-size:14px}
.where{font:600 1.2rem ui-monospace,monospace}</style></head>
<body><main id="dev-error"><h1>${escapeHtml(error.title)}</h1>
${where ? `<p class="where">${escapeHtml(where)}</p>` : ''}
<p class="message">${escapeHtml(error.message)}</p>
<p>The last good build keeps running; this page comes back by itself when the file is fixed.</p>
<pre>${escapeHtml(error.output)}</pre></main>${scriptTag()}</body></html>`;
}

function injected(html) {
  const tag = scriptTag();
  const at = html.lastIndexOf('</body>');
  return at >= 0 ? `${html.slice(0, at)}${tag}${html.slice(at)}` : `${html}${tag}`;
}

const proxy = http.createServer((req, res) => {
  if (req.url === '/__dev/reload.js') {
    res.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'no-store' });
    return res.end(RELOAD_JS);
  }
  if (req.url === '/__dev/events') {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store', connection: 'keep-alive' });
    res.write(`event: hello\ndata: ${generation}\n\n`);
    listeners.add(res);
    req.on('close', () => listeners.delete(res));
    return;
  }
  const wantsPage = req.method === 'GET' && /text\/html/.test(req.headers.accept ?? '');
  if (wantsPage) lastPage = req.url;
  if (failure && wantsPage) {
    res.writeHead(500, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
    return res.end(errorPage(failure));
  }
  if (!current) {
    res.writeHead(503, { 'content-type': 'text/html; charset=utf-8', 'retry-after': '1' });
    return res.end(`<!doctype html><title>Building</title><p>The first build is running.</p>${scriptTag()}`);
  }
  const headers = { ...req.headers };
  // Answers come uncompressed, so the script tag can go into HTML.
  delete headers['accept-encoding'];
  const upstream = http.request(
    { host: '127.0.0.1', port: current.port, method: req.method, path: req.url, headers, agent: false },
    (answer) => {
      const type = answer.headers['content-type'] ?? '';
      if (!type.startsWith('text/html')) {
        res.writeHead(answer.statusCode, answer.rawHeaders);
        return answer.pipe(res);
      }
      const chunks = [];
      answer.on('data', (c) => chunks.push(c));
      answer.on('end', () => {
        const body = Buffer.from(injected(Buffer.concat(chunks).toString('utf8')));
        const out = { ...answer.headers, 'content-length': body.length, 'cache-control': 'no-store' };
        delete out.etag;
        delete out['transfer-encoding'];
        res.writeHead(answer.statusCode, out);
        res.end(req.method === 'HEAD' ? undefined : body);
      });
    },
  );
  upstream.on('error', (err) => {
    if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
    res.end(`dev: the server did not answer: ${err.message}`);
  });
  req.pipe(upstream);
});

// ---- start -------------------------------------------------------------------------------

function sleep(ms) {
  return new Promise((ok) => setTimeout(ok, ms));
}

/**
 * Watches every folder under `dir` on its own (not `recursive`: Node's recursive watch on Linux
 * loses a file an editor replaces by renaming over it); a folder made later is added.
 */
const watchedDirs = new Set();
function watchTree(dir) {
  if (watchedDirs.has(dir) || !existsSync(dir)) return;
  watchedDirs.add(dir);
  try {
    watch(dir, (_event, name) => {
      if (!name) return;
      const path = join(dir, name);
      if (existsSync(path) && statSync(path).isDirectory()) watchTree(path);
      changed(relative(root, path));
    }).on('error', () => watchedDirs.delete(dir));
  } catch {
    watchedDirs.delete(dir);
    return;
  }
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.isDirectory() && entry.name !== 'node_modules') watchTree(join(dir, entry.name));
  }
}

function watchAll() {
  for (const dir of WATCHED) watchTree(resolve(dir));
  watch(root, (_event, name) => name && changed(name));
  watchTree(dirname(seedFile));
}

async function stopAll() {
  vite?.kill('SIGTERM');
  await stopServer(current);
  process.exit(0);
}
process.on('SIGINT', stopAll);
process.on('SIGTERM', stopAll);
// An uncaught error ends this process: the server and Vite must not outlive it.
process.on('exit', () => {
  current?.child.kill('SIGTERM');
  vite?.kill('SIGTERM');
});

proxy.listen(listenPort, listenHost, async () => {
  log(`http://${listen}/ (the working tree; Ctrl-C stops)`);
  watchAll();
  watchIslands();
  // The first build, then the seed, so the site shows the working tree as it is.
  waiting.set('build', { at: performance.now(), path: '(start)' });
  waiting.set('seed', { at: performance.now(), path: relative(root, seedFile) });
  drain();
});

// Read once so a missing seed file is named at start, not at the first edit.
if (!existsSync(seedFile)) log(`the seed file ${seedFile} does not exist; seed edits are not watched`);
else readFileSync(seedFile);
