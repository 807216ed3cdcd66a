// The countdown (spec section 3 and 4: updates every second toward its target, midnight at
// the venue; after that it stops and shows zeros). The browser clock is set before the
// target, which the suite's server has 30 days ahead of the real clock (e2e/content.ts).
import { test, expect } from './fixtures';
import type { Page } from '@playwright/test';
import { COUNTDOWN_TARGET } from './content';
import { island, withoutNotice } from './island-helpers';

const values = (page: Page) => island(page, 'Countdown').locator('.countdown__value');

/** The moment `days`, `hours`, `minutes` and `seconds` before the countdown's target. */
function before(days: number, hours: number, minutes: number, seconds: number): Date {
  return new Date(COUNTDOWN_TARGET - (((days * 24 + hours) * 60 + minutes) * 60 + seconds) * 1000);
}

async function start(page: Page, time: Date) {
  expect(COUNTDOWN_TARGET, 'E2E_COUNTDOWN_TARGET is set by playwright.config.ts').not.toBeNaN();
  await page.clock.install({ time });
  await withoutNotice(page);
  await page.goto('/');
  await expect(island(page, 'Countdown')).toHaveAttribute('data-island-ready', '');
}

test('ticks every second, and reaching zero stops it', async ({ page }) => {
  await start(page, before(0, 0, 1, 0));
  // Hold the clock at a known moment: 20 s before the target.
  await page.clock.pauseAt(before(0, 0, 0, 20));
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
  await start(page, before(2, 1, 0, 0));
  await page.clock.pauseAt(before(1, 1, 1, 1));
  // 1 day, 1 hour, 1 minute and 1 second to go.
  await expect(values(page)).toHaveText(['01', '01', '01', '01']);
  await page.clock.runFor(2000);
  await expect(values(page)).toHaveText(['01', '01', '00', '59']);
});

test('keeps ticking beside the timeline island', async ({ page }) => {
  await start(page, before(0, 1, 0, 0));
  await page.clock.pauseAt(before(0, 0, 30, 0));
  await page.locator('[data-island="Timeline"]').scrollIntoViewIfNeeded();
  await expect(island(page, 'Timeline')).toHaveAttribute('data-island-ready', '');
  await page.clock.runFor(5000);
  await expect(values(page)).toHaveText(['00', '00', '29', '55']);
});
