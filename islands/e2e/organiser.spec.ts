// The organiser sign-in in a real browser (issue 20, item 7; DESIGN.md section 12): ask for a
// link on /organiser, read it from the mail the server wrote under E2E_DATA_DIR/mail/ (no
// SMTP_URL, so the outbox worker writes .eml files), open it, press "Sign in", land on the
// dashboard, sign out, and find the dashboard gone. Keyboard only. axe checks the sign-in
// page, the confirmation page, the dashboard, every list and the page of a submission, a
// message and an order (sent through the public API first) on the way.
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
import { PRESENTER_VIRTUAL } from './content';

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

/** Every list of the back office: its path, its heading and the heading of its rows' pages. */
const LISTS: [string, string, string | null][] = [
  ['/organiser/submissions', 'Submissions', 'Submission'],
  ['/organiser/messages', 'Messages', 'Message'],
  ['/organiser/orders', 'Orders', 'Order'],
  ['/organiser/subscribers', 'Subscribers', null],
  ['/organiser/outbox', 'Mail outbox', null],
  ['/organiser/audit', 'Audit log', null],
];

/** The smallest PDF the upload check takes. */
const PDF = '%PDF-1.4\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n2 0 obj\n<< /Type /Pages /Kids [] /Count 0 >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n';

/** A paper, a contact message, an order and a newsletter sign-up, as visitors send them. */
async function sendVisitorsRows(page: Page): Promise<void> {
  const visitor = { name: 'Ana Cruz', email: 'ana.cruz@example.org', country: 'Philippines' };
  const paper = await page.request.post('/api/paper-submission', {
    multipart: {
      authorName: visitor.name,
      coAuthorName: 'Ben Reyes',
      number: '+639171234567',
      email: visitor.email,
      country: visitor.country,
      paperTitle: 'Solar microgrids for island communities',
      department: 'Electrical Engineering',
      universityOrganization: 'University of Manila',
      paperType: 'Full Paper',
      presentationType: 'Oral',
      conferenceSource: 'linkedin',
      message: 'Keywords: solar, microgrid.',
      file: { name: 'paper.pdf', mimeType: 'application/pdf', buffer: Buffer.from(PDF) },
    },
  });
  expect(paper.status(), await paper.text()).toBe(201);
  const message = await page.request.post('/api/contact', {
    data: { ...visitor, number: '+639171234567', message: 'Is there a student discount?' },
  });
  expect(message.status(), await message.text()).toBe(201);
  const order = await page.request.post('/api/ccavenue-initiate', {
    data: {
      plan: PRESENTER_VIRTUAL.id,
      ...visitor,
      phone: '+639171234567',
      address: '1 Rizal Street',
      city: 'Manila',
      state: 'Metro Manila',
      zip: '1000',
    },
  });
  expect(order.status(), await order.text()).toBe(201);
  const subscriber = await page.request.post('/api/newsletter', { data: { email: 'e2e.reader@example.org' } });
  expect([200, 201], await subscriber.text()).toContain(subscriber.status());
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

  // 3b. Every list and a detail page of each kind: a submission, a message and an order sent
  // through the public API first, so those lists have rows that link to their pages.
  await sendVisitorsRows(page);
  for (const [path, heading, detail] of LISTS) {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
    await expect(page.getByRole('region', { name: heading }).locator('tbody tr').first()).toBeVisible();
    expect(await seriousViolations(page), `axe on ${path}`).toEqual([]);
    if (!detail) continue;
    const link = page.getByRole('region', { name: heading }).locator(`tbody a[href^="${path}/"]`).first();
    const href = await link.getAttribute('href');
    await link.click();
    await expect(page).toHaveURL(new RegExp(`${href!.replace(/[.?]/g, '\\$&')}$`));
    await expect(page.getByRole('heading', { level: 1, name: new RegExp(`^${detail} `) })).toBeVisible();
    expect(await seriousViolations(page), `axe on ${href}`).toEqual([]);
  }
  await page.goto('/organiser');

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
