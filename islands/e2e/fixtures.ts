// The `test` every spec imports: it fails a test whose page logged a console error, threw an
// uncaught exception, or saw a request to the site itself fail or answer 4xx/5xx.
//
//   import { test, expect } from './fixtures';
//   test('...', async ({ page, problems }) => {
//     // An error the test expects. A 4xx/5xx response also makes Chromium log a console
//     // error ("Failed to load resource: ... status of 422"), so match both lines:
//     problems.allow(/422/);
//   });
import { test as base, expect, type Page } from '@playwright/test';

export { expect };

export interface Problems {
  /** Everything seen so far, one line each ("console error: ...", "response 404 GET ..."). */
  readonly seen: string[];
  /** Ignore problems whose line matches `pattern` (a RegExp, or a substring). */
  allow(pattern: RegExp | string): void;
}

function watch(page: Page, origin: string): { problems: Problems; unexpected(): string[] } {
  const seen: string[] = [];
  const allowed: Array<RegExp | string> = [];
  const sameOrigin = (url: string) => {
    try {
      return new URL(url).origin === origin;
    } catch {
      return false;
    }
  };

  page.on('console', (msg) => {
    if (msg.type() !== 'error') return;
    const loc = msg.location();
    seen.push(`console error: ${msg.text()}${loc.url ? ` (${loc.url}:${loc.lineNumber})` : ''}`);
  });
  page.on('pageerror', (error) => {
    seen.push(`uncaught exception: ${error.stack ?? error.message}`);
  });
  page.on('requestfailed', (request) => {
    if (!sameOrigin(request.url())) return;
    const why = request.failure()?.errorText ?? 'failed';
    // Navigating away aborts requests still in flight; that is not the site's fault.
    if (why === 'net::ERR_ABORTED') return;
    seen.push(`request failed ${request.method()} ${request.url()}: ${why}`);
  });
  page.on('response', (response) => {
    if (response.status() < 400 || !sameOrigin(response.url())) return;
    seen.push(`response ${response.status()} ${response.request().method()} ${response.url()}`);
  });

  return {
    problems: {
      seen,
      allow(pattern) {
        allowed.push(pattern);
      },
    },
    unexpected: () =>
      seen.filter((line) => !allowed.some((p) => (typeof p === 'string' ? line.includes(p) : p.test(line)))),
  };
}

export const test = base.extend<{ problems: Problems }>({
  problems: [
    async ({ page, baseURL }, use, testInfo) => {
      const origin = new URL(baseURL ?? 'http://127.0.0.1').origin;
      const watcher = watch(page, origin);
      await use(watcher.problems);
      const unexpected = watcher.unexpected();
      if (unexpected.length > 0) {
        await testInfo.attach('page problems', { body: unexpected.join('\n'), contentType: 'text/plain' });
      }
      expect(unexpected, `the page reported ${unexpected.length} problem(s)`).toEqual([]);
    },
    { auto: true },
  ],
});
