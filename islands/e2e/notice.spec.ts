// Notice popup (spec section 2: Notice popup; issue 3, item 2).
import { test, expect } from './fixtures';
import { NOTICE_DISMISSED_KEY, focusInside, island } from './island-helpers';
import { SITE } from './content';

const notice = (page: import('@playwright/test').Page) => page.getByRole('complementary', { name: SITE.shortName });

test('appears 1.5 s after load at the bottom left, above the dock', { tag: '@phone' }, async ({ page }) => {
  await page.clock.install();
  await page.goto('/committee');
  await expect(island(page, 'NoticePopup')).toHaveAttribute('data-island-ready', '');
  await page.evaluate(() => new Promise((resolve) => (document.readyState === 'complete' ? resolve(null) : addEventListener('load', resolve))));
  // Mounted after load, but not shown yet.
  await expect(page.locator('.notice')).toHaveCount(0);
  await page.clock.runFor(1500);
  await expect(notice(page)).toBeVisible();
  // Measured where it comes to rest: its rise-in animation starts a few pixels lower.
  await notice(page).evaluate((el) => Promise.all(el.getAnimations().map((a) => a.finished)));

  const box = (await notice(page).boundingBox())!;
  const dock = (await page.locator('.dock').boundingBox())!;
  const viewport = page.viewportSize()!;
  expect(box.x).toBeLessThan(24); // left edge
  expect(box.x + box.width / 2).toBeLessThan(viewport.width / 2 + 1);
  expect(box.y + box.height).toBeLessThanOrEqual(dock.y); // never over the dock
  expect(box.y + box.height).toBeGreaterThan(viewport.height / 2); // bottom half
});

test('shows the endorsement, dates, venue, due date, website, email and phone', async ({ page, request }) => {
  await page.goto('/');
  const popup = notice(page);
  await expect(popup).toBeVisible();
  await expect(popup).toContainText(`Endorsed by ${SITE.endorsement}`);
  await expect(popup).toContainText(SITE.dates);
  await expect(popup).toContainText(`${SITE.venue}, ${SITE.city}, ${SITE.country}`);
  await expect(popup).toContainText(SITE.paperDue);
  const host = new URL(SITE.website).host;
  await expect(popup.getByRole('link', { name: host, exact: true })).toHaveAttribute('href', SITE.website);
  await expect(popup.getByRole('link', { name: SITE.email })).toHaveAttribute('href', `mailto:${SITE.email}`);
  await expect(popup.getByRole('link', { name: SITE.phone })).toHaveAttribute('href', `tel:${SITE.phone}`);
  // The letter image the popup shows exists.
  const letter = popup.locator('.notice__letter img');
  const src = (await letter.getAttribute('src'))!;
  expect((await request.get(src)).status()).toBe(200);
});

test('Register Now opens /pricing in a new tab', async ({ page, context }) => {
  await page.goto('/');
  const register = notice(page).getByRole('link', { name: /Register Now/ });
  await expect(register).toHaveAttribute('href', '/pricing');
  await expect(register).toHaveAttribute('target', '_blank');
  await expect(register).toHaveAttribute('rel', /noopener/);
  const [tab] = await Promise.all([context.waitForEvent('page'), register.click()]);
  await tab.waitForLoadState();
  expect(new URL(tab.url()).pathname).toBe('/pricing');
  expect(page.url()).toMatch(/\/$/); // this tab stays
  await tab.close();
});

test('the letter opens full screen; Esc and Close close it; focus stays inside, then returns', async ({ page }) => {
  await page.goto('/');
  const open = notice(page).getByRole('button', { name: 'View endorsement letter' });
  await open.click();
  const viewer = page.getByRole('dialog', { name: 'Endorsement letter' });
  await expect(viewer).toBeVisible();
  await expect(viewer).toHaveAttribute('aria-modal', 'true');
  const box = (await viewer.boundingBox())!;
  const viewport = page.viewportSize()!;
  expect(box.width).toBeGreaterThanOrEqual(viewport.width - 1);
  expect(box.height).toBeGreaterThanOrEqual(viewport.height - 1);
  await expect(viewer.getByRole('img', { name: /Endorsement letter/ })).toBeVisible();
  expect(await focusInside(page, '[role="dialog"]')).toBe(true);
  for (let i = 0; i < 3; i++) {
    await page.keyboard.press('Tab');
    expect(await focusInside(page, '[role="dialog"]')).toBe(true);
  }
  await page.keyboard.press('Shift+Tab');
  expect(await focusInside(page, '[role="dialog"]')).toBe(true);

  await page.keyboard.press('Escape');
  await expect(viewer).toBeHidden();
  await expect(open).toBeFocused();
  // Esc closed only the viewer; the popup is still there.
  await expect(notice(page)).toBeVisible();

  await open.click();
  await viewer.getByRole('button', { name: 'Close' }).click();
  await expect(viewer).toBeHidden();
  await expect(open).toBeFocused();
});

test('closing stores the dismissed flag and the popup stays away', async ({ page }) => {
  await page.goto('/');
  await expect(notice(page)).toBeVisible();
  await notice(page).getByRole('button', { name: 'Close notice' }).click();
  await expect(page.locator('.notice')).toHaveCount(0);
  expect(await page.evaluate((key) => localStorage.getItem(key), NOTICE_DISMISSED_KEY)).toBe('true');

  await page.clock.install();
  await page.goto('/gallery');
  await expect(island(page, 'NoticePopup')).toHaveAttribute('data-island-ready', '');
  await page.clock.runFor(10_000);
  await expect(page.locator('.notice')).toHaveCount(0);

  // Clearing the flag brings it back.
  await page.evaluate((key) => localStorage.removeItem(key), NOTICE_DISMISSED_KEY);
  await page.reload();
  await expect(island(page, 'NoticePopup')).toHaveAttribute('data-island-ready', '');
  await page.clock.runFor(10_000);
  await expect(notice(page)).toBeVisible();
});

test('keyboard users can reach and close it', async ({ page }) => {
  await page.goto('/');
  await expect(notice(page)).toBeVisible();
  const close = notice(page).getByRole('button', { name: 'Close notice' });
  await close.focus();
  await page.keyboard.press('Enter');
  await expect(page.locator('.notice')).toHaveCount(0);
  // Focus is not lost on <body>.
  await expect(page.locator('#main')).toBeFocused();
});
