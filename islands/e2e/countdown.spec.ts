// The countdown (spec section 3 and 4: updates every second toward 21 March 2025 00:00 in
// Manila; after that it stops and shows zeros). The browser clock is set before the target.
import { test, expect } from './fixtures';
import type { Page } from '@playwright/test';
import { island, withoutNotice } from './island-helpers';

const values = (page: Page) => island(page, 'Countdown').locator('.countdown__value');

async function start(page: Page, time: string) {
  await page.clock.install({ time: new Date(time) });
  await withoutNotice(page);
  await page.goto('/');
  await expect(island(page, 'Countdown')).toHaveAttribute('data-island-ready', '');
}

test('ticks every second, and reaching zero stops it', async ({ page }) => {
  await start(page, '2025-03-20T23:59:00+08:00');
  // Hold the clock at a known moment: 20 s before the target.
  await page.clock.pauseAt(new Date('2025-03-20T23:59:40+08:00'));
  await expect(values(page)).toHaveText(['00', '00', '00', '20']);
  await page.clock.runFor(1000);
  await expect(values(page)).toHaveText(['00', '00', '00', '19']);
  await page.clock.runFor(3000);
  await expect(values(page)).toHaveText(['00', '00', '00', '16']);
  await page.clock.runFor(16_000);
  await expect(values(page)).toHaveText(['00', '00', '00', '00']);
  // Stopped: time goes on, the zeros stay.
  await page.clock.runFor(60_000);
  await expect(values(page)).toHaveText(['00', '00', '00', '00']);
  await expect(island(page, 'Countdown').locator('.countdown__label')).toHaveText(['Days', 'Hours', 'Minutes', 'Seconds']);
});

test('shows days, hours and minutes and rolls them over', async ({ page }) => {
  await start(page, '2025-03-18T23:00:00+08:00');
  await page.clock.pauseAt(new Date('2025-03-19T22:58:59+08:00'));
  // 1 day, 1 hour, 1 minute and 1 second to go.
  await expect(values(page)).toHaveText(['01', '01', '01', '01']);
  await page.clock.runFor(2000);
  await expect(values(page)).toHaveText(['01', '01', '00', '59']);
});

test('keeps ticking beside the timeline island', async ({ page }) => {
  await start(page, '2025-03-20T23:00:00+08:00');
  await page.clock.pauseAt(new Date('2025-03-20T23:30:00+08:00'));
  await page.locator('[data-island="Timeline"]').scrollIntoViewIfNeeded();
  await expect(island(page, 'Timeline')).toHaveAttribute('data-island-ready', '');
  await page.clock.runFor(5000);
  await expect(values(page)).toHaveText(['00', '00', '29', '55']);
});
