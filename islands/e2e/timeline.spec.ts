// Important dates (spec section 4: passed dates greyed and struck through; issue 3, item 9).
// The server decides with its clock; the island decides again with the visitor's clock, in the
// venue's UTC offset (+08:00).
import { test, expect } from './fixtures';
import type { APIRequestContext, Page } from '@playwright/test';
import { mounted, withoutNotice } from './island-helpers';

async function dates(request: APIRequestContext): Promise<Array<{ date: string; title: string }>> {
  const response = await request.get('/api/collections/dates/records?sort=created&perPage=500');
  expect(response.ok()).toBe(true);
  return (await response.json()).items;
}

async function timeline(page: Page, now?: string) {
  if (now) await page.clock.install({ time: new Date(now) });
  await withoutNotice(page);
  await page.goto('/');
  const island = await mounted(page, 'Timeline');
  return island.locator('.timeline__item');
}

test('with the visitor clock before the conference, only the days already over in Manila are struck', async ({ page, request }) => {
  const all = await dates(request);
  // 18 March 2025, 23:30 in Manila: the paper deadline day is not over yet.
  const items = await timeline(page, '2025-03-18T23:30:00+08:00');
  await expect(items).toHaveCount(all.length);
  for (const [i, d] of all.entries()) {
    const item = items.nth(i);
    const passed = d.date < '2025-03-18';
    await expect(item.locator('.timeline__title')).toContainText(d.title);
    if (passed) {
      await expect(item).toHaveClass(/timeline__item--past/);
      await expect(item.locator('.timeline__title del')).toHaveText(d.title);
      await expect(item.locator('.timeline__date del')).toHaveCount(1);
      await expect(item).toContainText('(passed)');
      await expect(item.locator('.timeline__title del')).toHaveCSS('text-decoration-line', 'line-through');
    } else {
      await expect(item).not.toHaveClass(/timeline__item--past/);
      await expect(item.locator('del')).toHaveCount(0);
      await expect(item).not.toContainText('(passed)');
    }
  }
});

test('half an hour later the paper deadline has passed too', async ({ page }) => {
  const items = await timeline(page, '2025-03-19T00:00:00+08:00');
  await expect(items.filter({ hasText: 'Full Paper Submission Due' })).toHaveClass(/timeline__item--past/);
  await expect(items.filter({ hasText: 'Conference Day 1' })).not.toHaveClass(/timeline__item--past/);
});

test('passed dates are greyed', async ({ page }) => {
  const items = await timeline(page, '2025-03-10T12:00:00+08:00');
  const past = items.filter({ hasText: 'Abstract Submission Deadline' }).locator('.timeline__title');
  const future = items.filter({ hasText: 'Conference Day 1' }).locator('.timeline__title');
  const colour = (l: typeof past) => l.evaluate((el) => getComputedStyle(el).color);
  expect(await colour(past)).not.toBe(await colour(future));
});

test('with the real clock the island agrees with the server', async ({ page, request }) => {
  // What the server rendered, before the island re-rendered it.
  const html = await (await request.get('/')).text();
  const serverPast = (html.match(/timeline__item timeline__item--past/g) ?? []).length;
  const items = await timeline(page);
  await expect(items.and(page.locator('.timeline__item--past'))).toHaveCount(serverPast);
});
