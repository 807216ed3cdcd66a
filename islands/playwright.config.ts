// End-to-end tests against the real server binary, in Debian's Chromium (no browser download).
//   SERVER_BIN=/path/to/target/debug/conference npm run e2e
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from '@playwright/test';

const serverBin = process.env.SERVER_BIN;
// Without SERVER_BIN, `playwright test --list` still works; running tests fails at once with
// this message instead of starting a server.
const missingServerBin =
  'SERVER_BIN is not set: give the path of the built server binary, e.g. ' +
  'SERVER_BIN=../target/debug/conference npm run e2e';

// The suite's own content (tests/fixtures/content.sql), not the production seed organisers
// edit: `conference seed --file` would fall back to the built-in production copy if the file
// were missing, so a missing file stops the run instead.
const fixtureSeed = fileURLToPath(new URL('../tests/fixtures/content.sql', import.meta.url));
const missingFixture = `the fixture seed ${fixtureSeed} is missing`;

// Playwright stops the server when the run ends; a runner killed from outside (a CI run that
// failed elsewhere and stops this one) cannot, and the server would keep the port. Linux's
// parent-death signal (util-linux `setpriv`) stops it with the runner.
const diesWithRunner = existsSync('/usr/bin/setpriv') ? 'setpriv --pdeathsig TERM -- ' : '';

const port = Number(process.env.E2E_PORT || 3999);
const baseURL = `http://127.0.0.1:${port}`;
// A fresh database and data folder for every run. The config is evaluated again in each
// worker process, so create the folder once and hand it down through the environment; and
// not at all when no server will be started.
//
// Whoever sets E2E_DATA_DIR owns that folder and it is kept: a hand run that sets it chose
// where the data goes (to look into it afterwards). `cargo test` (tests/browser.rs) sets
// TMPDIR to a folder of its own instead and fails when this one is left in it. A folder made
// here is removed when the runner process exits, the review server's folder inside it too. Not in a
// globalTeardown: Playwright runs that before it stops the servers, which still write to the
// folder; it stops them (and waits for them) before the process exits. A runner killed from
// outside (SIGKILL, SIGTERM) leaves its folder behind.
const needsServer = !!serverBin && !process.argv.includes('--list');
const madeHere = needsServer && !process.env.E2E_DATA_DIR;
const dataDir = needsServer
  ? (process.env.E2E_DATA_DIR ??= mkdtempSync(join(tmpdir(), 'conference-e2e-')))
  : join(tmpdir(), 'conference-e2e-unused');
if (madeHere) {
  process.on('exit', () => rmSync(dataDir, { recursive: true, force: true }));
}

// The peer-review spec (e2e/review.spec.ts) runs the whole review of a conference: its
// automatic assignment takes every submitted paper on the server, so it gets a server of its
// own, with its own database and mail folder beside the shared one, on the port below, and
// the fixture seed with no review deadline (the fixture's lies in the past of a real clock).
const reviewPort = Number(process.env.E2E_REVIEW_PORT || port - 1);
const reviewBaseURL = `http://127.0.0.1:${reviewPort}`;
const reviewDataDir = join(dataDir, 'review');
if (needsServer) {
  mkdirSync(reviewDataDir, { recursive: true });
  const seed = existsSync(fixtureSeed) ? readFileSync(fixtureSeed, 'utf8') : '';
  writeFileSync(join(reviewDataDir, 'seed.sql'), `${seed}\nUPDATE site SET review_deadline = NULL WHERE id = 1;\n`);
}
// The main server's content: the fixture seed with its countdown 30 days ahead of the real
// clock. The fixture's conference (21-23 March 2025) lies in the past of the real clock, and
// once its last day and its countdown have both passed the home page says the conference
// took place instead of showing the countdown (DESIGN.md section 17; tests/clock.rs tests that
// page). The countdown's specs set the browser's clock around this target (e2e/content.ts).
// Made once and handed down through the environment, like the data folder.
const countdownTarget = (process.env.E2E_COUNTDOWN_TARGET ??= (() => {
  const minute = 60_000;
  const at = Math.floor((Date.now() + 30 * 24 * 60 * minute) / minute) * minute;
  return `${new Date(at + 8 * 60 * minute).toISOString().slice(0, 19)}+08:00`;
})());
const mainSeed = join(dataDir, 'seed.sql');
if (needsServer) {
  const seed = existsSync(fixtureSeed) ? readFileSync(fixtureSeed, 'utf8') : '';
  writeFileSync(mainSeed, `${seed}\nUPDATE site SET countdown_target = '${countdownTarget}' WHERE id = 1;\n`);
}
process.env.E2E_REVIEW_DATA_DIR ??= reviewDataDir;
process.env.E2E_REVIEW_BASE_URL ??= reviewBaseURL;

const launchOptions = {
  executablePath: '/usr/bin/chromium',
  args: [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--no-first-run',
    '--disable-quic',
    '--disable-sync',
  ],
};

/**
 * A server on `serverPort` with its own database and mail under `serverDataDir`: migrate and
 * seed `seed` into the fresh database, then serve it.
 */
function server(serverPort: number, serverDataDir: string, seed: string, organisers: string) {
  const url = `http://127.0.0.1:${serverPort}`;
  return {
    command: !serverBin
      ? `echo "${missingServerBin}" >&2; exit 1`
      : !existsSync(fixtureSeed)
        ? `echo "${missingFixture}" >&2; exit 1`
        : `"${serverBin}" seed --file "${seed}" && exec ${diesWithRunner}"${serverBin}" serve`,
    url: `${url}/api/health`,
    reuseExistingServer: false,
    gracefulShutdown: { signal: 'SIGTERM' as const, timeout: 5_000 },
    timeout: 60_000,
    stdout: 'pipe' as const,
    stderr: 'pipe' as const,
    env: {
      LISTEN_ADDR: `127.0.0.1:${serverPort}`,
      PUBLIC_URL: url,
      DATA_DIR: serverDataDir,
      DATABASE_URL: `sqlite://${join(serverDataDir, 'conference.db')}`,
      // Every spec posts from 127.0.0.1: one shared per-minute budget would make the suite
      // fail on 429s. The limit itself is tested in tests/protection.rs.
      RATE_LIMIT_PER_MINUTE: '100000',
      ORGANISER_EMAIL: organisers,
      // The check-in desk (e2e/check-in.spec.ts): its desk staff, open on any day (the
      // fixture's conference days are in the past of the real clock).
      CHECKIN_EMAIL: 'e2e.desk@example.org',
      CHECKIN_DAYS: 'any',
    },
  };
}

export default defineConfig({
  testDir: 'e2e',
  reporter: 'list',
  // One worker per core (at most 4): the specs share one server and each test has a fresh
  // browser context, so they may run side by side. E2E_WORKERS overrides.
  workers: Number(process.env.E2E_WORKERS) || Math.min(4, Math.max(1, availableParallelism())),
  fullyParallel: true,
  // The suite checks behaviour, not speed: on two shared cores a page's scripts can take
  // longer than Playwright's default 5 s to arrive while other workers load theirs.
  expect: { timeout: 10_000 },
  forbidOnly: !!process.env.CI,
  // No retries, in CI or not: a test that fails once fails the run. A flaky test is fixed
  // (it waits for a state, never for a fixed time), not retried into green.
  retries: 0,
  use: {
    baseURL,
    // Recording a trace costs every test CPU time on a small machine; E2E_TRACE=1 keeps one
    // for each failing test (npx playwright show-trace ...). A failure always attaches its
    // page snapshot (error-context.md).
    trace: process.env.E2E_TRACE === '1' ? 'retain-on-failure' : 'off',
  },
  projects: [
    {
      name: 'chromium',
      use: { browserName: 'chromium', launchOptions },
    },
    {
      // Only the specs tagged @phone (layout, touch, the mobile menu) run again on a phone:
      // the rest behave the same at any width and would double the suite's time.
      name: 'phone',
      grep: /@phone/,
      use: {
        browserName: 'chromium',
        viewport: { width: 390, height: 844 },
        isMobile: true,
        hasTouch: true,
        launchOptions,
      },
    },
  ],
  webServer: [
    // e2e.timetable@ is e2e/programme-organiser.spec.ts's (it publishes a programme);
    // e2e.stars@ is e2e/programme-stars.spec.ts's (it publishes two talks to star). The
    // organisers e2e/organiser.spec.ts, e2e/decisions.spec.ts and e2e/downloads.spec.ts sign
    // in as one each, so specs running side by side never take each other's mail; e2e.settings@
    // is e2e/settings.spec.ts's (it moves the review deadline).
    server(
      port,
      dataDir,
      mainSeed,
      'e2e.chair@example.org,e2e.programme@example.org,e2e.downloads@example.org,e2e.timetable@example.org,e2e.stars@example.org,e2e.certificates@example.org,e2e.settings@example.org',
    ),
    server(reviewPort, reviewDataDir, join(reviewDataDir, 'seed.sql'), 'e2e.review@example.org'),
  ],
});
