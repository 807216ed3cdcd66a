// Certificates (issue 33 item 5) in a real browser: an online ticket paid through the test
// gateway, the organisers' certificates page before and after pressing "Release certificates",
// and the public verify page its code links to; axe scans each page on the way. The e2e server
// runs on the real clock, long after the fixture's conference, so releasing is open.
import type { Locator, Page } from '@playwright/test';
import { test, expect } from './fixtures';
import { mounted, withoutNotice } from './island-helpers';
import { seriousViolations } from './axe';
import { signInAs } from './sign-in';
import { LISTENER_VIRTUAL } from './content';

// playwright.config.ts lists this address in the e2e server's ORGANISER_EMAIL.
const ORGANISER = 'e2e.certificates@example.org';

test.use({ reducedMotion: 'reduce', viewport: { width: 1280, height: 900 } });
test.describe.configure({ timeout: 90_000 });
test.beforeEach(async ({ page }) => withoutNotice(page));

function field(dialog: Locator, name: string): Locator {
  return dialog.getByRole('textbox', { name, exact: true });
}

/** Pays an online ticket as `name` <`email`> through the test gateway. */
async function payOnlineTicket(page: Page, name: string, email: string) {
  await page.goto('/pricing');
  const island = await mounted(page, 'TicketCheckout', page.locator(`#plan-${LISTENER_VIRTUAL.id}`));
  await island.getByRole('button', { name: `Register Now for ${LISTENER_VIRTUAL.title}` }).click();
  const dialog = page.getByRole('dialog', { name: `Register: ${LISTENER_VIRTUAL.title}` });
  await field(dialog, 'Name').fill(name);
  await field(dialog, 'Email').fill(email);
  await field(dialog, 'Phone').fill('2015550123');
  await field(dialog, 'Address').fill('1 Main Street');
  await field(dialog, 'City').fill('Springfield');
  await field(dialog, 'ZIP Code').fill('62701');
  await field(dialog, 'Country').fill('United States');
  await dialog.getByRole('button', { name: `Pay Now USD ${LISTENER_VIRTUAL.amount}` }).click();
  await expect(page).toHaveURL(/\/test-gateway$/);
  await page.getByRole('button', { name: 'Approve' }).click();
  await expect(page).toHaveURL(/\/Success\?order=ORD/);
}

test('organisers release certificates and the verify page shows one as valid', async ({ page }) => {
  const run = Date.now().toString(36);
  const holder = `Cert Holder ${run}`;
  const email = `e2e.certificate.${run}@example.org`;
  await payOnlineTicket(page, holder, email);

  await signInAs(page, ORGANISER);
  await page.goto('/organiser/certificates');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Certificates');
  expect(await seriousViolations(page)).toEqual([]);

  await page.getByRole('button', { name: 'Release certificates' }).click();
  await expect(page.locator('#notice')).toContainText(/Release \d+ is done/);
  const row = page.locator('tbody tr', { hasText: email });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText(holder);
  await expect(row).toContainText('Valid');
  expect(await seriousViolations(page)).toEqual([]);

  const code = (await row.locator('td').first().innerText()).trim();
  expect(code).toMatch(/^[A-Z2-7]{26}$/);
  await page.goto(`/certificates/${code}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Certificate');
  await expect(page.locator('#certificate-name')).toHaveText(holder);
  await expect(page.locator('#certificate-type')).toHaveText('Attendance');
  await expect(page.locator('#certificate-validity')).toHaveText('Valid');
  await expect(page.locator('main')).not.toContainText(email);
  expect(await seriousViolations(page)).toEqual([]);
});
