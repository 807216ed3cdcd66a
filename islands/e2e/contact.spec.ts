// The home page's contact form (spec sections 2, 5 and 8): filled and sent in Chromium, the
// toasts of success and failure, the browser-side checks, and the plain form without JavaScript.
import { test, expect } from './fixtures';
import type { Locator, Page } from '@playwright/test';
import { chunkRequests, island, mounted, withoutNotice } from './island-helpers';

const SENT = 'Message sent successfully!';
const FAILED = 'Error sending message. Please try again.';

async function openForm(page: Page): Promise<Locator> {
  await withoutNotice(page);
  await page.goto('/#form');
  const island = await mounted(page, 'ContactForm');
  return island.locator('form');
}

async function fill(form: Locator, name: string, email = 'ana.cruz@example.org') {
  await form.getByLabel('Name', { exact: true }).fill(name);
  await form.getByLabel('Phone / Whatsapp.no', { exact: true }).fill('2015550123');
  await form.getByLabel('Email address', { exact: true }).fill(email);
  await form.getByLabel('Country', { exact: true }).fill('Philippines');
  await form.getByLabel('Message', { exact: true }).fill('Is there a student rate?\nThank you.');
}

function toast(page: Page, text: string): Locator {
  return page.locator('.Toastify__toast').filter({ hasText: text });
}

test('the form loads its code only on intent, and keeps what was typed before it loaded', async ({ page }) => {
  const chunks = chunkRequests(page);
  await withoutNotice(page);
  await page.goto('/');
  await expect(island(page, 'Countdown')).toHaveAttribute('data-island-ready', '');
  await expect(island(page, 'NoticePopup')).toHaveAttribute('data-island-ready', '');
  expect(chunks.filter((c) => /ContactForm|phone|validate/.test(c))).toEqual([]);

  // Hold the island's chunk back until the visitor has typed into the server's form.
  let release!: () => void;
  const typed = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/assets\/ContactForm-[\w-]+\.js$/, async (route) => {
    await typed;
    await route.continue();
  });
  const form = page.locator('form.contact-form');
  await form.getByLabel('Name', { exact: true }).fill('Ana Cruz');
  await form.getByLabel('Message', { exact: true }).fill('Typed early');
  await expect(island(page, 'ContactForm')).not.toHaveAttribute('data-island-ready', '');
  release();
  await expect(island(page, 'ContactForm')).toHaveAttribute('data-island-ready', '');
  expect(chunks).toContain('ContactForm');
  await expect(form.getByLabel('Name', { exact: true })).toHaveValue('Ana Cruz');
  await expect(form.getByLabel('Message', { exact: true })).toHaveValue('Typed early');
  await expect(form.getByLabel('Message', { exact: true })).toBeFocused();
});

test('a message is sent: the form clears and a closable success toast shows top-right', async ({ page }, testInfo) => {
  const form = await openForm(page);
  await expect(form.getByLabel('Phone / Whatsapp.no', { exact: true })).toHaveAttribute('type', 'tel');
  await expect(form.getByRole('combobox', { name: 'Phone number country' })).toHaveValue('US');

  const name = `Ana Cruz ${testInfo.project.name}`;
  await fill(form, name);
  const answer = page.waitForResponse((r) => r.url().endsWith('/api/contact') && r.request().method() === 'POST');
  await form.getByRole('button', { name: 'Submit' }).click();
  const response = await answer;
  expect(response.status()).toBe(201);
  expect(response.request().postDataJSON()).toMatchObject({ name, number: '+12015550123', email: 'ana.cruz@example.org', country: 'Philippines', _gotcha: '' });

  const shown = toast(page, SENT);
  await expect(shown).toBeVisible();
  await expect(page.locator('.Toastify__toast-container--top-right')).toContainText(SENT);
  // Closes by itself after 5 s (spec section 9) and pauses on hover: react-toastify's timer bar.
  await expect(shown.locator('[role="progressbar"]')).toHaveAttribute('style', /animation-duration: 5000ms/);
  for (const label of ['Name', 'Phone / Whatsapp.no', 'Email address', 'Country', 'Message']) {
    await expect(form.getByLabel(label, { exact: true })).toHaveValue('');
  }
  await shown.getByRole('button', { name: 'close' }).click();
  await expect(shown).toBeHidden();
});

test('when the server fails the form is kept and the error toast shows', async ({ page, problems }) => {
  problems.allow(/500/);
  const form = await openForm(page);
  await page.route('**/api/contact', (route) =>
    route.fulfill({ status: 500, json: { message: 'Something went wrong on our side. Please try again later.' } }),
  );
  await fill(form, 'Ben Reyes');
  await form.getByRole('button', { name: 'Submit' }).click();
  await expect(toast(page, FAILED)).toBeVisible();
  await expect(form.getByLabel('Name', { exact: true })).toHaveValue('Ben Reyes');
  await expect(form.getByLabel('Message', { exact: true })).toHaveValue('Is there a student rate?\nThank you.');
  await expect(toast(page, SENT)).toHaveCount(0);
});

test('the browser checks every field and the email format before sending', async ({ page }) => {
  const form = await openForm(page);
  let posted = 0;
  page.on('request', (r) => {
    if (r.method() === 'POST') posted += 1;
  });
  await form.getByRole('button', { name: 'Submit' }).click();
  await expect(form.getByText('Name is required')).toBeVisible();
  await expect(form.getByText('Message is required')).toBeVisible();
  await expect(form.getByLabel('Name', { exact: true })).toBeFocused();

  await fill(form, 'Carla Diaz', 'carla@example');
  await form.getByRole('button', { name: 'Submit' }).click();
  const email = form.getByLabel('Email address', { exact: true });
  await expect(email).toHaveAttribute('aria-invalid', 'true');
  await expect(form.getByText('Please enter a valid email address')).toBeVisible();
  await expect(email).toBeFocused();
  expect(posted).toBe(0);
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('the plain form posts and the page confirms', async ({ page, problems }) => {
    // With scripts off Chromium refuses the pages' module preloads and reports them as
    // blocked ("csp"): that is the switch, not the site.
    problems.allow(/\/assets\/[^ ]+\.js: csp$/);
    await page.goto('/#form');
    const form = page.locator('form.contact-form');
    await form.getByLabel('Name', { exact: true }).fill('Dan Ong');
    await form.getByLabel('Phone / Whatsapp.no', { exact: true }).fill('+63 917 123 4567');
    await form.getByLabel('Email address', { exact: true }).fill('dan@example.org');
    await form.getByLabel('Country', { exact: true }).fill('Philippines');
    await form.getByLabel('Message', { exact: true }).fill('Sent without scripts');
    await form.getByRole('button', { name: 'Submit' }).click();
    await expect(page).toHaveURL(/\/#contact-sent$/);
    await expect(page.locator('#contact-sent')).toHaveText(SENT);
    await expect(page.locator('#contact-sent')).toBeVisible();
    await expect(page.locator('#contact-error')).toBeHidden();
  });
});
