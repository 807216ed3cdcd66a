// The footer's newsletter box (spec section 5; DESIGN.md section 5): sign-up, the same address
// again, failure, the browser-side check, and the plain form without JavaScript.
import { test, expect } from './fixtures';
import type { Locator, Page, TestInfo } from '@playwright/test';
import { mounted, withoutNotice } from './island-helpers';

async function openBox(page: Page, path = '/venue'): Promise<Locator> {
  await withoutNotice(page);
  await page.goto(path);
  const island = await mounted(page, 'Newsletter');
  return island.locator('form');
}

/** An address no other run or project has used (the e2e database lives for a whole run). */
function freshAddress(testInfo: TestInfo, tag: string): string {
  return `${tag}.${testInfo.project.name}.${Date.now()}@example.org`;
}

test('signing up clears the box and confirms; the same address again says so', async ({ page }, testInfo) => {
  const form = await openBox(page);
  const email = form.getByLabel('Email address');
  const address = freshAddress(testInfo, 'reader');

  await email.fill(address);
  const first = page.waitForResponse((r) => r.url().endsWith('/api/newsletter'));
  await form.getByRole('button', { name: 'Subscribe' }).click();
  expect((await first).status()).toBe(201);
  await expect(form.getByRole('status')).toContainText('Thank you for subscribing!');
  await expect(form.getByRole('status')).toContainText('Please confirm your subscription');
  await expect(email).toHaveValue('');
  await expect(page.locator('.Toastify__toast').filter({ hasText: 'Thank you for subscribing!' })).toBeVisible();

  await email.fill(address.toUpperCase());
  const again = page.waitForResponse((r) => r.url().endsWith('/api/newsletter'));
  await form.getByRole('button', { name: 'Subscribe' }).click();
  expect((await again).status()).toBe(200);
  await expect(form.getByRole('status')).toHaveText('You are already subscribed.');
  await expect(email).toHaveValue('');
});

test('a malformed address is refused in the browser and the address kept', async ({ page }) => {
  const form = await openBox(page);
  let posted = 0;
  page.on('request', (r) => {
    if (r.method() === 'POST') posted += 1;
  });
  const email = form.getByLabel('Email address');
  await email.fill('reader@example');
  await email.press('Enter');
  await expect(form.getByRole('status')).toHaveText('Please enter a valid email address');
  await expect(email).toHaveAttribute('aria-invalid', 'true');
  await expect(email).toHaveValue('reader@example');
  expect(posted).toBe(0);
});

test('when the server fails the address is kept and the failure shown', async ({ page, problems }, testInfo) => {
  problems.allow(/503/);
  const form = await openBox(page, '/');
  await page.route('**/api/newsletter', (route) => route.fulfill({ status: 503, json: { message: 'Service unavailable' } }));
  const address = freshAddress(testInfo, 'unlucky');
  await form.getByLabel('Email address').fill(address);
  await form.getByRole('button', { name: 'Subscribe' }).click();
  await expect(form.getByRole('status')).toHaveText('Could not subscribe. Please try again.');
  await expect(page.locator('.Toastify__toast').filter({ hasText: 'Could not subscribe. Please try again.' })).toBeVisible();
  await expect(form.getByLabel('Email address')).toHaveValue(address);
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('the plain form posts and returns to the same page with a confirmation', async ({ page, problems }, testInfo) => {
    // With scripts off Chromium refuses the pages' module preloads and reports them as
    // blocked ("csp"): that is the switch, not the site.
    problems.allow(/\/assets\/[^ ]+\.js: csp$/);
    await page.goto('/awards');
    const form = page.locator('form.newsletter');
    await form.getByLabel('Email address').fill(freshAddress(testInfo, 'noscript'));
    await form.getByRole('button', { name: 'Subscribe' }).click();
    await expect(page).toHaveURL(/\/awards#newsletter-subscribed$/);
    await expect(page.locator('#newsletter-subscribed')).toBeVisible();
    await expect(page.locator('#newsletter-subscribed')).toContainText('Thank you for subscribing!');
    await expect(page.locator('#newsletter-subscribed')).toContainText('Please confirm your subscription');
  });
});
