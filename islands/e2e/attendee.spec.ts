// After payment, as the attendee lives it (issue 33): pay for a physical ticket through the
// test gateway, open the attendee page from the receipt mail, and find the ticket, its QR and
// the numbered receipt there; the QR's address shows no personal data; "send my link again"
// answers the same for any order. axe runs on every page on the way.
import { test, expect } from './fixtures';
import { withoutNotice, mounted } from './island-helpers';
import { LISTENER_PHYSICAL } from './content';
import { mailFiles, mailedLink } from './mail';
import { seriousViolations } from './axe';
import type { Page } from '@playwright/test';

test.beforeEach(async ({ page }) => withoutNotice(page));

const ATTENDEE = { name: 'Zoë Ñúñez', email: 'zoe.attendee@example.org' };

/** Pays for `LISTENER_PHYSICAL` in TEST mode and returns the attendee link from the receipt mail. */
async function payAndOpenMail(page: Page): Promise<string> {
  const before = new Set(mailFiles());
  await page.goto('/pricing');
  const island = await mounted(page, 'TicketCheckout', page.locator(`#plan-${LISTENER_PHYSICAL.id}`));
  await island.getByRole('button', { name: `Register Now for ${LISTENER_PHYSICAL.title}` }).click();
  const dialog = page.getByRole('dialog', { name: `Register: ${LISTENER_PHYSICAL.title}` });
  const field = (name: string) => dialog.getByRole('textbox', { name, exact: true });
  await field('Name').fill(ATTENDEE.name);
  await field('Email').fill(ATTENDEE.email);
  await field('Phone').fill('2015550123');
  await field('Address').fill('12 Quay Road');
  await field('City').fill('Port Quill');
  await field('ZIP Code').fill('4242');
  await field('Country').fill('Lanternland');
  await dialog.getByRole('button', { name: `Pay Now USD ${LISTENER_PHYSICAL.amount}` }).click();
  await expect(page).toHaveURL(/\/test-gateway$/);
  await page.getByRole('button', { name: 'Approve' }).click();
  await expect(page).toHaveURL(/\/Success\?order=ORD/);
  return mailedLink(ATTENDEE.email, /TEST Payment (receipt|invoice) /, /https?:\/\/[^\s"<>]+\/attendee\/[A-Za-z0-9_-]{43}/, before);
}

test('a paid physical ticket: the attendee page from the mail, its QR address and its receipt', async ({ page }) => {
  const link = await payAndOpenMail(page);
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
