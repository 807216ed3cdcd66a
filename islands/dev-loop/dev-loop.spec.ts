// The edit loop in a browser (issue 45 item 5, DESIGN.md section 19): `node dev/dev.mjs` on a
// copy of the repository in a temp folder, with the fixture seed (tests/fixtures/content.sql)
// as its content seed. One open tab follows a template edit, a seed edit, a broken template
// and its fix, with no key pressed.
//
// The copy builds with a target folder of its own, made from this repository's built one:
// dependencies hard-linked (cargo never rewrites a fresh dependency), this crate's own files
// copied, so the copy's builds never change the original's binaries while other checks use
// them.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from '@playwright/test';

const repo = resolve(fileURLToPath(new URL('../..', import.meta.url)));
const port = Number(process.env.E2E_DEV_PORT || 3996);
const base = `http://127.0.0.1:${port}`;

const TEMPLATE = 'templates/pages/home.html';
const SEED = 'tests/fixtures/content.sql';

let work = '';
let tree = '';
let dev: ChildProcess | undefined;
let devLog = '';

/** This crate's own build folders and files (the copy rebuilds them). */
function ownFile(name: string): boolean {
  return /^(libconference|conference|site|acme|web|browser|cluster|dev_features)([-.]|$)/.test(name);
}

/** `cp FLAG SOURCES... DEST`, 500 sources at a time. */
function cp(flag: string, sources: string[], dest: string) {
  for (let i = 0; i < sources.length; i += 500) execFileSync('cp', [flag, ...sources.slice(i, i + 500), dest]);
}

/**
 * A target folder for the copy, in seconds and without the gigabytes: hard links, except
 * for what cargo rewrites in place. rustc replaces its outputs (rlibs, binaries, incremental
 * session files) rather than writing into them, so a link never changes the original; cargo
 * truncates and rewrites fingerprints, dep-info (`.d`) files and build-script outputs, so
 * those are copied.
 */
function targetFor(copyTarget: string) {
  const debug = join(repo, 'target/debug');
  const out = join(copyTarget, 'debug');
  execFileSync('mkdir', ['-p', out]);
  for (const dir of ['deps', 'build', 'incremental', '.fingerprint', 'examples']) {
    const from = join(debug, dir);
    if (!existsSync(from)) continue;
    execFileSync('mkdir', ['-p', join(out, dir)]);
    const names = readdirSync(from);
    const copy = (n: string) => dir === '.fingerprint' || (dir === 'build' && ownFile(n)) || n.endsWith('.d');
    cp('-al', names.filter((n) => !copy(n)).map((n) => join(from, n)), join(out, dir));
    cp('-a', names.filter(copy).map((n) => join(from, n)), join(out, dir));
  }
}

function edit(file: string, from: string, to: string) {
  const path = join(tree, file);
  const text = readFileSync(path, 'utf8');
  expect(text, `${file} has what the test edits`).toContain(from);
  writeFileSync(path, text.replace(from, to));
}

test.beforeAll(async () => {
  test.setTimeout(900_000);
  work = mkdtempSync(join(tmpdir(), 'conference-devloop-'));
  tree = join(work, 'tree');
  execFileSync('mkdir', ['-p', tree, join(work, 'data')]);
  // The repository's files as they are (tracked and new, not ignored), mtimes kept.
  const files = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: repo })
    .toString()
    .split('\0')
    .filter((f) => f && existsSync(join(repo, f)));
  for (let i = 0; i < files.length; i += 500) {
    execFileSync('cp', ['-a', '--parents', '-t', tree, ...files.slice(i, i + 500)], { cwd: repo });
  }
  symlinkSync(join(repo, 'islands/node_modules'), join(tree, 'islands/node_modules'));
  execFileSync('cp', ['-a', join(repo, 'islands/dist'), join(tree, 'islands/dist')]);
  targetFor(join(work, 'target'));

  dev = spawn('node', ['dev/dev.mjs'], {
    cwd: tree,
    detached: true,
    env: {
      ...process.env,
      CARGO_TARGET_DIR: join(work, 'target'),
      // The loop's builds are incremental, whatever the CI run around it chose.
      CARGO_INCREMENTAL: '1',
      LISTEN_ADDR: `127.0.0.1:${port}`,
      PUBLIC_URL: base,
      DATA_DIR: join(work, 'data'),
      DATABASE_URL: `sqlite://${join(work, 'data/conference.db')}`,
      DEV_SEED_FILE: join(tree, SEED),
      RUST_LOG: 'warn',
      DEV_LOG: 'timings',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  dev.stdout?.on('data', (d) => (devLog += d));
  dev.stderr?.on('data', (d) => (devLog += d));
  // The first build and the seed: the dev log says `reload (build, seed)` once both are done.
  const started = Date.now();
  while (!devLog.includes('reload (build, seed)')) {
    if (dev.exitCode !== null) throw new Error(`dev/dev.mjs exited:\n${devLog}`);
    if (Date.now() - started > 840_000) throw new Error(`dev/dev.mjs did not come up:\n${devLog}`);
    await new Promise((ok) => setTimeout(ok, 250));
  }
});

test.afterAll(async () => {
  if (dev?.pid && dev.exitCode === null) {
    const exited = new Promise((ok) => dev?.once('exit', ok));
    process.kill(dev.pid, 'SIGTERM');
    await exited;
  }
  if (work) rmSync(work, { recursive: true, force: true });
});

// What the loop did and how long each step took (DEV_LOG=timings), for a failure and for
// the CI log; the server's own lines left out.
test.afterEach(async () => {
  console.log(`dev/dev.mjs said:\n${devLog.split('\n').filter((l) => /^dev/.test(l)).join('\n')}`);
});

test('the open page follows template and seed edits, and shows a broken template until it is fixed', async ({ page }) => {
  await page.goto(`${base}/`);
  await expect(page.locator('#highlights-title')).toHaveText('Conference Highlights');
  await expect(page.getByText('Lanterns Lit')).toBeVisible();

  // A template edit: rebuilt, restarted, and this tab reloads by itself.
  edit(TEMPLATE, '>Conference Highlights<', '>Highlights of the Year<');
  await expect(page.locator('#highlights-title')).toHaveText('Highlights of the Year');

  // A seed edit: applied without a build; the tab shows it.
  edit(SEED, "'Lanterns Lit'", "'Lanterns Relit'");
  await expect(page.getByText('Lanterns Relit')).toBeVisible();

  // A broken template: the tab turns into an error page naming the file and the line.
  const lines = readFileSync(join(tree, TEMPLATE), 'utf8').split('\n');
  const line = lines.findIndex((l) => l.includes('id="highlights-title"')) + 1;
  edit(TEMPLATE, '>Highlights of the Year<', '>Highlights of the Year {% if %}<');
  const error = page.locator('#dev-error');
  await expect(error).toBeVisible();
  await expect(error.locator('.where')).toContainText(`${TEMPLATE}:${line}`);

  // Fixed: the page comes back by itself, with the fix.
  edit(TEMPLATE, '>Highlights of the Year {% if %}<', '>Highlights, fixed<');
  await expect(page.locator('#highlights-title')).toHaveText('Highlights, fixed');
  await expect(page.locator('#dev-error')).toHaveCount(0);
});
