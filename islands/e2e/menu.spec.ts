// The header's mobile menu and the bottom dock (spec section 2: "A mobile menu toggles open
// and closed"; all pages have the dock; issue 3, item 10). The menu is the phone layout's;
// wide screens show the header navigation instead.
import { test, expect } from './fixtures';
import type { Page } from '@playwright/test';
import { mounted, withoutNotice } from './island-helpers';

const DOCK = ['Home', 'Committee', 'Gallery', 'AboutUs', 'Schedule', 'Registration', 'Submission'];

async function menu(page: Page, path = '/committee') {
  await withoutNotice(page);
  await page.goto(path);
  const island = await mounted(page, 'MobileMenu');
  return { toggle: island.getByRole('button', { name: 'Menu' }), panel: island.getByRole('navigation', { name: 'Mobile' }) };
}

test.describe('on a phone', { tag: '@phone' }, () => {
  test.skip(({ isMobile }) => !isMobile, 'the mobile menu is only shown on narrow screens');

  test('the toggle opens and closes the menu and says so with aria-expanded', async ({ page }) => {
    const { toggle, panel } = await menu(page);
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await expect(toggle).toHaveAttribute('aria-controls', 'mobile-menu-panel');
    await expect(panel).toBeHidden();
    await toggle.click();
    await expect(toggle).toHaveAttribute('aria-expanded', 'true');
    await expect(panel).toBeVisible();
    await expect(panel.getByRole('link')).toHaveText([...DOCK, 'About Conference', 'Awards', 'Sponsorship', 'Venue']);
    await expect(panel.getByRole('link', { name: 'Committee' })).toHaveAttribute('aria-current', 'page');
    await toggle.click();
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await expect(panel).toBeHidden();
  });

  test('Esc closes it and puts focus back on the toggle', async ({ page }) => {
    const { toggle, panel } = await menu(page);
    await toggle.click();
    await panel.getByRole('link').nth(2).focus();
    await page.keyboard.press('Escape');
    await expect(panel).toBeHidden();
    await expect(toggle).toBeFocused();
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  });

  test('a click outside closes it', async ({ page }) => {
    const { toggle, panel } = await menu(page);
    await toggle.click();
    await expect(panel).toBeVisible();
    const box = (await panel.boundingBox())!;
    await page.mouse.click(10, box.y + box.height + 40);
    await expect(panel).toBeHidden();
  });

  test('following a link closes it', async ({ page }) => {
    const { toggle, panel } = await menu(page);
    await toggle.click();
    // Keep this page (the link's default action is cancelled after the menu has seen the
    // click), as a same-page link or a slow navigation would.
    await page.evaluate(() => document.addEventListener('click', (e) => e.preventDefault()));
    await panel.getByRole('link', { name: 'Gallery' }).click();
    await expect(panel).toBeHidden();
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  });

  test('tabbing out of the open menu closes it', async ({ page }) => {
    const { toggle, panel } = await menu(page);
    await toggle.click();
    await panel.getByRole('link', { name: 'Venue' }).focus();
    await page.keyboard.press('Tab');
    await expect(panel).toBeHidden();
  });

  test('the open menu does not cover the dock', async ({ page }) => {
    const { toggle, panel } = await menu(page);
    await toggle.click();
    const menuBox = (await panel.boundingBox())!;
    const dockBox = (await page.locator('.dock').boundingBox())!;
    expect(menuBox.y + menuBox.height).toBeLessThanOrEqual(dockBox.y + 1);
    await page.locator('.dock').getByRole('link', { name: 'Schedule' }).click();
    await expect(page).toHaveURL(/\/schedule$/);
  });
});

test('wide screens show the header navigation instead of the menu', { tag: '@phone' }, async ({ page, isMobile }) => {
  test.skip(isMobile, 'phones show the mobile menu');
  await withoutNotice(page);
  await page.goto('/gallery');
  await expect(page.locator('[data-island="MobileMenu"]')).toHaveAttribute('data-island-ready', '');
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link')).toHaveText(DOCK);
  await expect(page.getByRole('button', { name: 'Menu' })).toBeHidden();
});

test('the dock is on every page with its seven entries, the current one marked', { tag: '@phone' }, async ({ page }) => {
  await withoutNotice(page);
  for (const [path, current] of [
    ['/', 'Home'],
    ['/gallery', 'Gallery'],
    ['/pricing', 'Registration'],
  ]) {
    await page.goto(path);
    const dock = page.getByRole('navigation', { name: 'Quick navigation' });
    await expect(dock).toBeVisible();
    await expect(dock.getByRole('link')).toHaveText(DOCK);
    await expect(dock.getByRole('link', { name: current })).toHaveAttribute('aria-current', 'page');
  }
});
