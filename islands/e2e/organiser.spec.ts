// The organiser sign-in in a real browser (issue 20, item 7; DESIGN.md section 12): ask for a
// link on /organiser, read it from the mail the server wrote under E2E_DATA_DIR/mail/ (no
// SMTP_URL, so the outbox worker writes .eml files), open it, press "Sign in", land on the
// dashboard, sign out, and find the dashboard gone. Keyboard only. axe checks the sign-in
// page, the confirmation page and the dashboard on the way.
//
// The organiser address is the e2e server's ORGANISER_EMAIL (playwright.config.ts).
//
// UPDATE_SCREENSHOTS=1 also writes the dashboard, at 1280x900, to docs/organiser-dashboard.png
// (the README's picture); without it the test only attaches it to its report.
import { copyFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Locator, Page } from '@playwright/test';
import { test, expect } from './fixtures';
import { withoutNotice } from './island-helpers';
import { seriousViolations } from './axe';
import { mailFiles, mailedLink } from './mail';

const ORGANISER = 'e2e.chair@example.org';
const SCREENSHOT = fileURLToPath(new URL('../../docs/organiser-dashboard.png', import.meta.url));

test.use({ reducedMotion: 'reduce', viewport: { width: 1280, height: 900 } });
test.describe.configure({ timeout: 90_000 });

/** The sign-in link of the newest mail to `to` that was not in `before`. */
async function signInLink(to: string, before: Set<string>): Promise<string> {
  return mailedLink(to, /sign-in link/i, /https?:\/\/[^\s"<>]+\/organiser\/sign-in\/[A-Za-z0-9_-]+/, before);
}

/** Presses Tab (at most `max` times) until `target` has the focus. */
async function tabTo(page: Page, target: Locator, max = 60): Promise<void> {
  for (let i = 0; i < max; i++) {
    if (await target.evaluate((el) => el === document.activeElement)) return;
    await page.keyboard.press('Tab');
  }
  await expect(target, `reached by Tab within ${max} presses`).toBeFocused();
}

test('an organiser signs in with the mailed link, sees the dashboard and signs out', async ({ page, problems }, testInfo) => {
  await withoutNotice(page);

  // 1. The sign-in page.
  await page.goto('/organiser');
  await expect(page.getByRole('heading', { level: 1, name: 'Organisers' })).toBeVisible();
  expect(await seriousViolations(page), 'axe on the sign-in page').toEqual([]);

  const email = page.getByLabel('E-mail address');
  await tabTo(page, email);
  await page.keyboard.type(ORGANISER);
  const before = new Set(mailFiles());
  await page.keyboard.press('Enter');
  await expect(page.getByRole('status').filter({ hasText: 'sign-in link' })).toContainText('If this address belongs to an organiser, a sign-in link is on its way');

  // 2. The mail, and the confirmation page its link opens: opening it signs nobody in.
  const link = await signInLink(ORGANISER, before);
  expect(new URL(link).origin, 'the link is built from PUBLIC_URL').toBe(new URL(page.url()).origin);
  await page.goto(link);
  await expect(page.getByRole('heading', { level: 1, name: `Sign in as ${ORGANISER}` })).toBeVisible();
  expect(await seriousViolations(page), 'axe on the confirmation page').toEqual([]);

  const signIn = page.getByRole('button', { name: 'Sign in', exact: true });
  await tabTo(page, signIn);
  await page.keyboard.press('Enter');

  // 3. The dashboard.
  await expect(page).toHaveURL(/\/organiser$/);
  await expect(page.getByText(`Signed in as ${ORGANISER}.`)).toBeVisible();
  await expect(page.getByRole('heading', { level: 2, name: 'Your sessions' })).toBeVisible();
  await expect(page.getByRole('cell', { name: /\(this one\)/ })).toBeVisible();
  expect(await seriousViolations(page), 'axe on the dashboard').toEqual([]);

  const shot = testInfo.outputPath('organiser-dashboard.png');
  await page.screenshot({ path: shot });
  await testInfo.attach('dashboard', { path: shot, contentType: 'image/png' });
  if (process.env.UPDATE_SCREENSHOTS === '1') copyFileSync(shot, SCREENSHOT);

  // 4. Sign out: back on the sign-in page, and the dashboard is gone, also on a reload and
  // with the old session cookie put back (the server ended the session, not only the cookie).
  const session = (await page.context().cookies()).find((c) => c.name === 'organiser_session');
  expect(session, 'the session cookie').toBeDefined();
  expect(session!.httpOnly).toBe(true);
  expect(session!.sameSite).toBe('Lax');
  const signOut = page.getByRole('button', { name: 'Sign out', exact: true });
  await tabTo(page, signOut);
  await page.keyboard.press('Enter');
  await expect(page.getByLabel('E-mail address')).toBeVisible();
  await expect(page.getByText('Signed in as')).toHaveCount(0);
  expect((await page.context().cookies()).map((c) => c.name)).not.toContain('organiser_session');

  await page.goto('/organiser');
  await expect(page.getByRole('heading', { level: 1, name: 'Organisers' })).toBeVisible();
  await expect(page.getByLabel('E-mail address')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Sign out', exact: true })).toHaveCount(0);
  await expect(page.getByText('Signed in as')).toHaveCount(0);

  await page.context().addCookies([session!]);
  await page.goto('/organiser');
  await expect(page.getByLabel('E-mail address')).toBeVisible();
  await expect(page.getByText('Signed in as')).toHaveCount(0);

  // 5. The used link does not sign in again (404, "This link does not work").
  problems.allow(/404/);
  const reused = await page.goto(link);
  expect(reused?.status()).toBe(404);
  await expect(page.getByRole('heading', { level: 1, name: 'This link does not work' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Sign in', exact: true })).toHaveCount(0);
});
