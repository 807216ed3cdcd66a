// The home page's goals row (spec section 2: a horizontally draggable row of five goals;
// issue 3, item 5): mouse drag, touch scroll, keyboard arrows, CSS scroll snap.
import { test, expect } from './fixtures';
import type { Locator, Page } from '@playwright/test';
import { mounted, withoutNotice } from './island-helpers';

async function row(page: Page): Promise<Locator> {
  await withoutNotice(page);
  await page.goto('/');
  const island = await mounted(page, 'GoalsRow');
  const list = island.locator('.goals__row');
  await list.scrollIntoViewIfNeeded();
  return list;
}

const scrollLeft = (list: Locator) => list.evaluate((el) => Math.round(el.scrollLeft));
const maxScroll = (list: Locator) => list.evaluate((el) => el.scrollWidth - el.clientWidth);

/** Whether some card's left edge sits at the row's snap line (its scroll padding), or the row is at its end. */
const snapped = (list: Locator) =>
  list.evaluate((el) => {
    const line = el.getBoundingClientRect().left + (parseFloat(getComputedStyle(el).scrollPaddingLeft) || 0);
    const atEnd = Math.abs(el.scrollLeft - (el.scrollWidth - el.clientWidth)) <= 1;
    return atEnd || Array.from(el.children).some((c) => Math.abs(c.getBoundingClientRect().left - line) <= 1);
  });

test('five goals in a row that overflows sideways, with CSS scroll snap', async ({ page }) => {
  const list = await row(page);
  await expect(list.locator('.goal-card')).toHaveCount(5);
  await expect(list).toHaveCSS('scroll-snap-type', 'x mandatory');
  await expect(list.locator('.goal-card').first()).toHaveCSS('scroll-snap-align', 'start');
  expect(await maxScroll(list)).toBeGreaterThan(0);
  await expect(list).toHaveAttribute('aria-label', /scroll sideways/);
});

test('a mouse drags the row and it settles on a card', async ({ page }) => {
  const list = await row(page);
  expect(await scrollLeft(list)).toBe(0);
  const box = (await list.boundingBox())!;
  const y = box.y + box.height / 2;
  await page.mouse.move(box.x + box.width * 0.8, y);
  await page.mouse.down();
  for (let i = 1; i <= 10; i++) await page.mouse.move(box.x + box.width * 0.8 - i * 25, y);
  await expect(list).toHaveClass(/is-dragging/);
  // While dragging the row follows the pointer.
  expect(await scrollLeft(list)).toBeGreaterThanOrEqual(240);
  await page.mouse.up();
  await expect(list).not.toHaveClass(/is-dragging/);
  await expect.poll(() => snapped(list)).toBe(true);
  expect(await scrollLeft(list)).toBeGreaterThan(0);

  // Dragging back to the start.
  await page.mouse.move(box.x + 20, y);
  await page.mouse.down();
  for (let i = 1; i <= 20; i++) await page.mouse.move(box.x + 20 + i * 40, y);
  await page.mouse.up();
  await expect.poll(() => scrollLeft(list)).toBe(0);
});

test('arrow keys step one card; Home and End go to the ends', async ({ page }) => {
  const list = await row(page);
  await list.focus();
  await page.keyboard.press('ArrowRight');
  await expect.poll(() => scrollLeft(list)).toBeGreaterThan(0);
  await expect.poll(() => snapped(list)).toBe(true);
  const first = await scrollLeft(list);
  await page.keyboard.press('ArrowRight');
  await expect.poll(() => scrollLeft(list)).toBeGreaterThan(first);
  await page.keyboard.press('End');
  const max = await maxScroll(list);
  await expect.poll(() => scrollLeft(list)).toBeGreaterThanOrEqual(max - 1);
  await page.keyboard.press('ArrowLeft');
  await expect.poll(() => scrollLeft(list)).toBeLessThan(max - 1);
  await page.keyboard.press('Home');
  await expect.poll(() => scrollLeft(list)).toBe(0);
});

test('a touch swipe scrolls the row natively and it snaps', { tag: '@phone' }, async ({ page }) => {
  const list = await row(page);
  const box = (await list.boundingBox())!;
  // Real touch input through the browser (not synthetic DOM events), as a finger would.
  const cdp = await page.context().newCDPSession(page);
  const y = Math.round(box.y + box.height / 2);
  const x0 = Math.round(box.x + box.width * 0.7);
  const touch = (type: 'touchStart' | 'touchMove' | 'touchEnd', x: number) =>
    cdp.send('Input.dispatchTouchEvent', { type, touchPoints: type === 'touchEnd' ? [] : [{ x, y }] });
  await touch('touchStart', x0);
  for (let i = 1; i <= 12; i++) await touch('touchMove', x0 - i * 20);
  await touch('touchEnd', x0 - 240);
  await expect.poll(() => scrollLeft(list)).toBeGreaterThan(0);
  await expect.poll(() => snapped(list)).toBe(true);
  // The page itself did not scroll sideways.
  expect(await page.evaluate(() => window.scrollX)).toBe(0);
});
