// Policy accordions on /Terms-&-Conditions and /Privacy-Policy (spec section 2 and 4: one open
// at a time, clicking the open one closes it) and the footer's policy panel (spec section 4:
// "Footer policy panel can show a selected policy's content"). Issue 3, item 4.
import { test, expect } from './fixtures';
import type { Page } from '@playwright/test';
import { focusInside, island, mounted, withoutNotice } from './island-helpers';
import { POLICIES } from './content';

async function accordion(page: Page, path: string) {
  await withoutNotice(page);
  await page.goto(path);
  await mounted(page, 'PolicyAccordion');
  return page.locator('main .accordion');
}

for (const path of ['/Terms-&-Conditions', '/Privacy-Policy']) {
  test(`${path}: one section open at a time, and clicking the open one closes it`, async ({ page }) => {
    const list = await accordion(page, path);
    const headers = list.locator('.accordion__summary');
    expect(await headers.count()).toBeGreaterThanOrEqual(3);
    // Buttons inside headings, pointing at their panels, all closed at first.
    for (const header of await headers.all()) {
      await expect(header).toHaveRole('button');
      await expect(header).toHaveAttribute('aria-expanded', 'false');
      const panel = page.locator(`#${await header.getAttribute('aria-controls')}`);
      await expect(panel).toBeHidden();
    }
    await expect(list.getByRole('heading', { level: 2 })).toHaveCount(await headers.count());

    const [first, second] = [headers.nth(0), headers.nth(1)];
    const panelOf = async (h: typeof first) => page.locator(`#${await h.getAttribute('aria-controls')}`);
    await first.click();
    await expect(first).toHaveAttribute('aria-expanded', 'true');
    await expect(await panelOf(first)).toBeVisible();
    await expect((await panelOf(first)).locator('p').first()).not.toBeEmpty();

    await second.click();
    await expect(second).toHaveAttribute('aria-expanded', 'true');
    await expect(first).toHaveAttribute('aria-expanded', 'false');
    await expect(await panelOf(first)).toBeHidden();
    await expect(list.locator('[aria-expanded="true"]')).toHaveCount(1);

    await second.click();
    await expect(second).toHaveAttribute('aria-expanded', 'false');
    await expect(list.locator('[aria-expanded="true"]')).toHaveCount(0);
  });
}

test('the accordion works from the keyboard: Enter/Space toggle, Up/Down/Home/End move', async ({ page }) => {
  const list = await accordion(page, '/Privacy-Policy');
  const headers = list.locator('.accordion__summary');
  const count = await headers.count();
  await headers.first().focus();
  await page.keyboard.press('Enter');
  await expect(headers.first()).toHaveAttribute('aria-expanded', 'true');
  await page.keyboard.press('Space');
  await expect(headers.first()).toHaveAttribute('aria-expanded', 'false');
  await page.keyboard.press('ArrowDown');
  await expect(headers.nth(1)).toBeFocused();
  await page.keyboard.press('Space');
  await expect(headers.nth(1)).toHaveAttribute('aria-expanded', 'true');
  await page.keyboard.press('End');
  await expect(headers.nth(count - 1)).toBeFocused();
  await page.keyboard.press('ArrowDown'); // wraps
  await expect(headers.first()).toBeFocused();
  await page.keyboard.press('ArrowUp'); // wraps back
  await expect(headers.nth(count - 1)).toBeFocused();
  await page.keyboard.press('Home');
  await expect(headers.first()).toBeFocused();
});

test('a link to a section opens it', async ({ page }) => {
  await withoutNotice(page);
  await page.goto('/Privacy-Policy#pol-privacy-3');
  await mounted(page, 'PolicyAccordion');
  const header = page.locator('#pol-privacy-3 .accordion__summary');
  await expect(header).toHaveAttribute('aria-expanded', 'true');
  await expect(header).toHaveText(POLICIES.privacy.sections[2]);
  await expect(page.locator('main [aria-expanded="true"]')).toHaveCount(1);
});

test('the footer policy panel shows a chosen policy: summary, sections and a link to its page', async ({ page }) => {
  await withoutNotice(page);
  await page.goto('/gallery');
  const legal = page.locator('.site-footer__legal');
  await mounted(page, 'PolicyPanel', legal);
  await expect(legal.getByRole('button')).toHaveText(['Cancellation Policy', 'Terms & Conditions', 'Privacy Policy', 'Cookie Policy']);

  const opener = legal.getByRole('button', { name: 'Privacy Policy' });
  await opener.click();
  const panel = page.getByRole('dialog', { name: 'Privacy Policy' });
  await expect(panel).toBeVisible();
  await expect(panel).toHaveAttribute('aria-modal', 'true');
  await expect(panel).toContainText(POLICIES.privacy.summary);
  // The sections, read from the policy page.
  await expect(panel.getByRole('heading', { level: 3 })).toHaveText([...POLICIES.privacy.sections]);
  await expect(panel).toContainText(POLICIES.privacy.lastText);
  await expect(panel.getByRole('link', { name: /Privacy Policy page/ })).toHaveAttribute('href', '/Privacy-Policy');
  expect(await focusInside(page, '[role="dialog"]')).toBe(true);

  await page.keyboard.press('Escape');
  await expect(panel).toBeHidden();
  await expect(opener).toBeFocused();

  // Another policy, closed with its Close button; the link leads to the full page.
  const terms = legal.getByRole('button', { name: 'Terms & Conditions' });
  await terms.click();
  const termsPanel = page.getByRole('dialog', { name: 'Terms & Conditions' });
  await expect(termsPanel.getByRole('heading', { level: 3 }).first()).toHaveText(POLICIES.terms.firstSection);
  await termsPanel.getByRole('button', { name: 'Close' }).click();
  await expect(termsPanel).toBeHidden();
  await expect(terms).toBeFocused();

  await legal.getByRole('button', { name: 'Cookie Policy' }).click();
  await page.getByRole('dialog', { name: 'Cookie Policy' }).getByRole('link', { name: /Cookie Policy page/ }).click();
  await expect(page).toHaveURL(/\/cookie-policy$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Cookie Policy');
});

test('the footer panel still gives the summary and the link when the policy page cannot be read', async ({ page, problems }) => {
  problems.allow(/cancellation-policy/);
  await withoutNotice(page);
  await page.goto('/venue');
  await page.route('**/cancellation-policy', (route) => route.abort('failed'));
  const legal = page.locator('.site-footer__legal');
  await mounted(page, 'PolicyPanel', legal);
  await legal.getByRole('button', { name: 'Cancellation Policy' }).click();
  const panel = page.getByRole('dialog', { name: 'Cancellation Policy' });
  await expect(panel.getByRole('status')).toHaveText(/could not be loaded/);
  await expect(panel).toContainText(POLICIES.cancellation.summary);
  await expect(panel.getByRole('link', { name: /Cancellation Policy page/ })).toHaveAttribute('href', '/cancellation-policy');
  expect(await island(page, 'PolicyPanel', legal).getAttribute('data-island-ready')).toBe('');
});
