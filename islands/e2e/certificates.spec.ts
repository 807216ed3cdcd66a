// Certificates (issue 33 item 5) in a real browser: an online ticket paid through the test
// gateway, the organisers' certificates page before and after pressing "Release certificates",
// and the public verify page its code links to; axe scans each page on the way. The e2e server
// runs on the real clock, long after the fixture's conference, so releasing is open.
import { test, expect } from './fixtures';
import { withoutNotice } from './island-helpers';
import { payForTicket } from './tickets';
import { seriousViolations } from './axe';
import { signInAs } from './sign-in';
import { LISTENER_VIRTUAL } from './content';

// playwright.config.ts lists this address in the e2e server's ORGANISER_EMAIL.
const ORGANISER = 'e2e.certificates@example.org';

test.use({ reducedMotion: 'reduce', viewport: { width: 1280, height: 900 } });
test.describe.configure({ timeout: 90_000 });
test.beforeEach(async ({ page }) => withoutNotice(page));

test('organisers release certificates and the verify page shows one as valid', async ({ page }) => {
  const run = Date.now().toString(36);
  const holder = `Cert Holder ${run}`;
  const email = `e2e.certificate.${run}@example.org`;
  await payForTicket(page, LISTENER_VIRTUAL, { name: holder, email });

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
