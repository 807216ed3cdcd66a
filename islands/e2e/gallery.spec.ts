// Gallery viewer on /gallery (issue 3, item 6): thumbnails open a full-screen viewer with
// previous/next (buttons and arrow keys), Esc to close, focus trapped and returned.
import { test, expect } from './fixtures';
import type { Page } from '@playwright/test';
import { focusInside, mounted, withoutNotice } from './island-helpers';

async function gallery(page: Page) {
  await withoutNotice(page);
  await page.goto('/gallery');
  await mounted(page, 'GalleryViewer');
  return page.locator('.gallery');
}

test('thumbnails link to the images; the first (a possible LCP) loads at once, the rest lazily', async ({
  page,
  request,
}) => {
  const list = await gallery(page);
  const links = list.getByRole('link');
  expect(await links.count()).toBeGreaterThanOrEqual(6);
  for (const [i, link] of (await links.all()).entries()) {
    const img = link.getByRole('img');
    if (i === 0) {
      await expect(img).toHaveAttribute('fetchpriority', 'high');
      await expect(img).not.toHaveAttribute('loading', 'lazy');
    } else {
      await expect(img).toHaveAttribute('loading', 'lazy');
    }
    const href = (await link.getAttribute('href'))!;
    expect(href).toBe(await img.getAttribute('src'));
    expect((await request.get(href)).status()).toBe(200);
  }
});

test('a thumbnail opens the viewer; next, previous and the arrow keys step through, wrapping', async ({ page }) => {
  const list = await gallery(page);
  const thumbs = list.getByRole('link');
  const count = await thumbs.count();
  const titles = await list.getByRole('img').evaluateAll((imgs) => imgs.map((i) => i.getAttribute('alt')!));

  await thumbs.nth(0).click();
  const viewer = page.getByRole('dialog', { name: titles[0] });
  await expect(viewer).toBeVisible();
  await expect(viewer).toHaveAttribute('aria-modal', 'true');
  const box = (await viewer.boundingBox())!;
  const viewport = page.viewportSize()!;
  expect(box.width).toBeGreaterThanOrEqual(viewport.width - 1);
  expect(box.height).toBeGreaterThanOrEqual(viewport.height - 1);
  await expect(viewer).toContainText(`1 of ${count}`);
  const image = viewer.getByRole('img', { name: titles[0] });
  await expect(image).toBeVisible();
  // It really loaded.
  await expect.poll(() => image.evaluate((i: HTMLImageElement) => i.complete && i.naturalWidth > 0)).toBe(true);

  await viewer.getByRole('button', { name: 'Next image' }).click();
  await expect(page.getByRole('dialog', { name: titles[1] })).toContainText(`2 of ${count}`);
  await page.keyboard.press('ArrowRight');
  await expect(page.getByRole('dialog', { name: titles[2] })).toContainText(`3 of ${count}`);
  await page.keyboard.press('ArrowLeft');
  await expect(page.getByRole('dialog', { name: titles[1] })).toBeVisible();
  await page.getByRole('button', { name: 'Previous image' }).click();
  await page.getByRole('button', { name: 'Previous image' }).click(); // wraps to the last
  await expect(page.getByRole('dialog', { name: titles[count - 1] })).toContainText(`${count} of ${count}`);
  await page.keyboard.press('ArrowRight'); // and back to the first
  await expect(page.getByRole('dialog', { name: titles[0] })).toBeVisible();
});

test('focus is trapped in the viewer; Esc closes it and focus returns to the thumbnail shown', async ({ page }) => {
  const list = await gallery(page);
  const thumbs = list.getByRole('link');
  await thumbs.nth(2).click();
  const viewer = page.getByRole('dialog');
  await expect(viewer).toBeVisible();
  expect(await focusInside(page, '[role="dialog"]')).toBe(true);
  for (let i = 0; i < 5; i++) {
    await page.keyboard.press('Tab');
    expect(await focusInside(page, '[role="dialog"]')).toBe(true);
  }
  await page.keyboard.press('Shift+Tab');
  expect(await focusInside(page, '[role="dialog"]')).toBe(true);

  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('Escape');
  await expect(viewer).toBeHidden();
  await expect(thumbs.nth(3)).toBeFocused();

  // The Close button closes it too.
  await thumbs.nth(0).click();
  await expect(viewer).toBeVisible();
  await viewer.getByRole('button', { name: 'Close' }).click();
  await expect(viewer).toBeHidden();
  await expect(thumbs.nth(0)).toBeFocused();
});

test('a modified click keeps the browser default (open in a new tab)', async ({ page, context }) => {
  const list = await gallery(page);
  const first = list.getByRole('link').first();
  const href = (await first.getAttribute('href'))!;
  const modifier = process.platform === 'darwin' ? 'Meta' : 'Control';
  const [tab] = await Promise.all([context.waitForEvent('page'), first.click({ modifiers: [modifier] })]);
  await tab.waitForLoadState();
  expect(new URL(tab.url()).pathname).toBe(href);
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await tab.close();
});
