// After payment, as the attendee lives it (issue 33): pay for a physical ticket through the
// test gateway, open the attendee page from the receipt mail, and find the ticket, its QR and
// the numbered receipt there; the QR's address shows no personal data; the ticket's PDF
// downloads whole; "send my link again" answers the same for any order. axe runs on every page
// on the way.
import { test, expect } from './fixtures';
import { readFileSync } from 'node:fs';
import { withoutNotice } from './island-helpers';
import { LISTENER_PHYSICAL } from './content';
import { payForTicket } from './tickets';
import { seriousViolations } from './axe';

test.beforeEach(async ({ page }) => withoutNotice(page));

const ATTENDEE = { name: 'Zoë Ñúñez', email: 'zoe.attendee@example.org' };

test('a paid physical ticket: the attendee page from the mail, its QR address and its receipt', async ({ page }) => {
  const link = await payForTicket(page, LISTENER_PHYSICAL, ATTENDEE);
  const path = new URL(link).pathname;

  const answer = await page.goto(path);
  expect(answer?.headers()['cache-control']).toContain('no-store');
  expect(answer?.headers()['referrer-policy']).toBe('no-referrer');
  await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', /noindex/);
  await expect(page.locator('#ticket-title')).toHaveText(LISTENER_PHYSICAL.title);
  await expect(page.locator('#ticket-name')).toHaveText(ATTENDEE.name);
  await expect(page.locator('#ticket-mode')).toHaveText(/in person/i);
  await expect(page.locator('#ticket-qr svg')).toBeVisible();
  const receipt = page.locator('section.receipt').first();
  await expect(receipt.getByRole('heading', { level: 2 })).toHaveText(/^Receipt FIX-\d{4}-\d{6}$/);
  await expect(receipt).toContainText('PAID');
  await expect(receipt).toContainText('Quill Events Collective');
  expect(await seriousViolations(page)).toEqual([]);

  // The QR's address, as an ordinary phone camera opens it: no name, no order.
  const checkInUrl = (await page.locator('#check-in-url').textContent())!.trim();
  await page.goto(new URL(checkInUrl).pathname);
  await expect(page.locator('main')).toContainText('Show this at the registration desk');
  await expect(page.locator('main')).not.toContainText(ATTENDEE.name);
  await expect(page.locator('main')).not.toContainText('ORD');
  expect(await seriousViolations(page)).toEqual([]);
});

test('"send my link again" answers the same for an order that is not theirs', async ({ page }) => {
  await page.goto('/attendee');
  expect(await seriousViolations(page)).toEqual([]);
  await page.getByLabel('E-mail address you paid with').fill('nobody@example.org');
  await page.getByLabel(/^Order id/).fill('ORD1740816000000AB12CD');
  await page.getByRole('button', { name: 'Send my link again' }).click();
  await expect(page.locator('#resend-answer')).toContainText('If this order is yours and paid, we have sent a new link');
  expect(await seriousViolations(page)).toEqual([]);
});

test('a wrong attendee link is a plain 404 that offers the form', async ({ page, problems }) => {
  problems.allow(/404/);
  const answer = await page.goto(`/attendee/${'A'.repeat(43)}`);
  expect(answer?.status()).toBe(404);
  await expect(page.getByRole('heading', { name: 'Send my link again' })).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
});

// Chromium asks with `Accept-Encoding: gzip, deflate, br, zstd` (downloads once arrived cut off
// that way, issue 30): the saved file must be a whole PDF, byte for byte the server's identity
// answer.
test('a paid visitor downloads their ticket from the attendee page, whole', async ({ page }) => {
  // An address of this run only: other specs share the server and its mail folder.
  const email = `pdf.ticket.${Date.now()}@example.org`;

  const link = await payForTicket(page, LISTENER_PHYSICAL, { name: 'Zoë Ñúñez', email, address: 'Calle Mayor 5', city: 'Madrid', zip: '28013', country: 'Spain' });
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
