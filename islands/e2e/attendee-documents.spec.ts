// The attendee's ticket PDF in a real browser (issue 33 items 1 and 7): a visitor pays for a
// ticket through the built-in test gateway, opens the attendee page from the receipt mail and
// clicks the ticket's download link, as a person does. Chromium asks with `Accept-Encoding:
// gzip, deflate, br, zstd` (downloads once arrived cut off that way, issue 30): the saved file
// must be a whole PDF, byte for byte the server's identity answer.
import { readFileSync } from 'node:fs';
import { test, expect } from './fixtures';
import { mounted, withoutNotice } from './island-helpers';
import { LISTENER_PHYSICAL } from './content';
import { mailFiles, mailedLink } from './mail';

test.use({ viewport: { width: 1280, height: 900 } });
test.describe.configure({ timeout: 90_000 });
test.beforeEach(async ({ page }) => withoutNotice(page));

test('a paid visitor downloads their ticket from the attendee page, whole', async ({ page }) => {
  // An address of this run only: other specs share the server and its mail folder.
  const email = `pdf.ticket.${Date.now()}@example.org`;
  const before = new Set(mailFiles());

  await page.goto('/pricing');
  const island = await mounted(page, 'TicketCheckout', page.locator(`#plan-${LISTENER_PHYSICAL.id}`));
  await island.getByRole('button', { name: `Register Now for ${LISTENER_PHYSICAL.title}` }).click();
  const dialog = page.getByRole('dialog', { name: `Register: ${LISTENER_PHYSICAL.title}` });
  await expect(dialog).toBeVisible();
  const field = (name: string) => dialog.getByRole('textbox', { name, exact: true });
  await field('Name').fill('Zoë Ñúñez');
  await field('Email').fill(email);
  await field('Phone').fill('2015550123');
  await field('Address').fill('Calle Mayor 5');
  await field('City').fill('Madrid');
  await field('ZIP Code').fill('28013');
  await field('Country').fill('Spain');
  await dialog.getByRole('button', { name: `Pay Now USD ${LISTENER_PHYSICAL.amount}` }).click();
  await expect(page).toHaveURL(/\/test-gateway$/);
  await page.getByRole('button', { name: 'Approve' }).click();
  await expect(page).toHaveURL(/\/Success\?order=ORD/);

  const link = await mailedLink(email, /Payment/, /https?:\/\/[^\s"<>]+\/attendee\/[A-Za-z0-9_-]{43}/, before);
  await page.goto(new URL(link).pathname);
  await expect(page.getByRole('heading', { level: 1, name: 'Your ticket' })).toBeVisible();
  await expect(page.locator('#ticket-name')).toHaveText('Zoë Ñúñez');

  const download = page.getByRole('link', { name: 'Download the ticket (PDF)' });
  const [file] = await Promise.all([page.waitForEvent('download'), download.click()]);
  expect(file.suggestedFilename()).toMatch(/^ticket-ORD[A-Za-z0-9-]*\.pdf$/);
  expect(await file.failure(), 'the ticket download completes').toBeNull();
  const saved = readFileSync((await file.path())!);
  expect(saved.subarray(0, 5).toString('latin1')).toBe('%PDF-');
  expect(saved.subarray(-6).toString('latin1')).toContain('%%EOF');
  // The same PDF as the server sends it uncompressed: not one byte lost on the way.
  const identity = await page.request.get((await download.getAttribute('href'))!, { headers: { 'accept-encoding': 'identity' } });
  expect(identity.status()).toBe(200);
  expect(identity.headers()['content-type']).toBe('application/pdf');
  expect(saved.equals(await identity.body()), 'the saved ticket is the whole answer').toBe(true);
});
