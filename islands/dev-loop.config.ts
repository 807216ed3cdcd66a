// The edit loop's browser test (issue 45 item 5, DESIGN.md section 19): dev/dev.mjs on a copy of
// the repository, driven through Debian's Chromium. Run by tests/browser.rs after the main
// suite (the copy builds with cargo; the main suite's servers are gone by then):
//   SERVER_BIN=/path/to/target/debug/conference npx playwright test -c dev-loop.config.ts
import { defineConfig } from '@playwright/test';

export default defineConfig({
  testDir: 'dev-loop',
  // Not test-results/: Playwright empties its output folder at the start of a run, and
  // tests/browser.rs prints the main suite's failures from there after this run.
  outputDir: 'test-results-dev-loop',
  reporter: 'list',
  workers: 1,
  forbidOnly: !!process.env.CI,
  retries: 0,
  // Each step waits for a cargo build of the copy; the first one links a new binary.
  timeout: 600_000,
  expect: { timeout: 120_000 },
  use: {
    browserName: 'chromium',
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'],
    },
  },
});
