// Speakers on the home page (spec section 2: tabs by category, default keynote; More info
// opens a drawer closed via overlay, X or Close; issue 3, item 3).
import { test, expect } from './fixtures';
import type { APIRequestContext, Page } from '@playwright/test';
import { focusInside, mounted, withoutNotice } from './island-helpers';

interface Speaker {
  name: string;
  category: string;
  order: number;
  bio: string;
}

async function speakers(request: APIRequestContext): Promise<Speaker[]> {
  const response = await request.get('/api/collections/speakers/records?sort=order&perPage=500');
  expect(response.ok()).toBe(true);
  return (await response.json()).items;
}

const names = (list: Speaker[], category: string) =>
  list
    .filter((s) => s.category === category)
    .sort((a, b) => a.order - b.order || a.name.localeCompare(b.name))
    .map((s) => s.name);

async function open(page: Page) {
  await withoutNotice(page);
  await page.goto('/');
  await mounted(page, 'Speakers');
  return page.locator('#speakers');
}

test('tabs Guest of Honor, Keynote Speaker, Session Chair; Keynote open first, speakers in order', async ({ page, request }) => {
  const all = await speakers(request);
  const section = await open(page);
  const tablist = section.getByRole('tablist', { name: 'Speakers' });
  await expect(tablist.getByRole('tab')).toHaveText(['Guest of Honor', 'Keynote Speaker', 'Session Chair']);
  const keynote = tablist.getByRole('tab', { name: 'Keynote Speaker' });
  await expect(keynote).toHaveAttribute('aria-selected', 'true');

  const panel = section.getByRole('tabpanel', { name: 'Keynote Speaker' });
  await expect(panel).toBeVisible();
  await expect(panel.locator('.person-card__name')).toHaveText(names(all, 'keynote'));
  // Only the open tab's panel is shown.
  await expect(section.getByRole('tabpanel')).toHaveCount(1);

  await tablist.getByRole('tab', { name: 'Guest of Honor' }).click();
  await expect(section.getByRole('tabpanel', { name: 'Guest of Honor' }).locator('.person-card__name')).toHaveText(names(all, 'guest'));
  await tablist.getByRole('tab', { name: 'Session Chair' }).click();
  await expect(section.getByRole('tabpanel', { name: 'Session Chair' }).locator('.person-card__name')).toHaveText(names(all, 'session'));
});

test('arrow keys, Home and End move between tabs (WAI-ARIA tabs)', async ({ page }) => {
  const section = await open(page);
  const tab = (name: string) => section.getByRole('tab', { name });
  await tab('Keynote Speaker').focus();
  await page.keyboard.press('ArrowRight');
  await expect(tab('Session Chair')).toBeFocused();
  await expect(tab('Session Chair')).toHaveAttribute('aria-selected', 'true');
  await expect(tab('Keynote Speaker')).toHaveAttribute('aria-selected', 'false');
  await page.keyboard.press('ArrowRight'); // wraps
  await expect(tab('Guest of Honor')).toBeFocused();
  await page.keyboard.press('ArrowLeft'); // wraps back
  await expect(tab('Session Chair')).toBeFocused();
  await page.keyboard.press('Home');
  await expect(tab('Guest of Honor')).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('End');
  await expect(tab('Session Chair')).toHaveAttribute('aria-selected', 'true');
  // Only the selected tab is in the Tab order; Tab goes on into its panel.
  await expect(section.locator('[role="tab"][tabindex="0"]')).toHaveCount(1);
  await page.keyboard.press('Tab');
  await expect(section.getByRole('tabpanel', { name: 'Session Chair' })).toBeFocused();
});

test('More info opens a drawer with the bio, labelled by the name, focus trapped; Esc returns focus', async ({ page, request }) => {
  const all = await speakers(request);
  const first = all.filter((s) => s.category === 'keynote').sort((a, b) => a.order - b.order)[0];
  const section = await open(page);
  const more = section.getByRole('button', { name: `More info about ${first.name}` });
  await more.click();

  const drawer = page.getByRole('dialog', { name: first.name });
  await expect(drawer).toBeVisible();
  await expect(drawer).toHaveAttribute('aria-modal', 'true');
  await expect(drawer).toContainText(first.bio.split(/\s+/).slice(0, 8).join(' '));
  expect(await focusInside(page, '[role="dialog"]')).toBe(true);
  for (let i = 0; i < 4; i++) {
    await page.keyboard.press('Tab');
    expect(await focusInside(page, '[role="dialog"]')).toBe(true);
  }
  for (let i = 0; i < 4; i++) {
    await page.keyboard.press('Shift+Tab');
    expect(await focusInside(page, '[role="dialog"]')).toBe(true);
  }
  await page.keyboard.press('Escape');
  await expect(drawer).toBeHidden();
  await expect(more).toBeFocused();
});

test('the drawer closes with X, Close and the overlay', async ({ page }) => {
  const section = await open(page);
  const more = section.getByRole('tabpanel').getByRole('button', { name: /More info/ }).first();
  const drawer = page.getByRole('dialog');

  await more.click();
  await drawer.getByRole('button', { name: 'Close speaker details' }).click(); // the X
  await expect(drawer).toBeHidden();
  await expect(more).toBeFocused();

  await more.click();
  await drawer.getByRole('button', { name: 'Close', exact: true }).click();
  await expect(drawer).toBeHidden();
  await expect(more).toBeFocused();

  await more.click();
  await expect(drawer).toBeVisible();
  // The overlay: the strip left of the drawer.
  const box = (await drawer.boundingBox())!;
  expect(box.x).toBeGreaterThan(20);
  await page.mouse.click(box.x / 2, box.y + box.height / 2);
  await expect(drawer).toBeHidden();
  await expect(more).toBeFocused();
  // The page does not scroll behind an open drawer, and scrolls again after.
  expect(await page.evaluate(() => document.documentElement.classList.contains('has-modal'))).toBe(false);
});
