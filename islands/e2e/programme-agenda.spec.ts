// "Now" and "Next" on the programme (issue 31 item 4): the Agenda island marks the running
// session(s) and the next, and the page opens at them. The test fixture's sessions
// (tests/fixtures/content.sql, 21-23 March 2025 at UTC+08:00); the visitor's clock is set
// with page.clock. The fixture has no talks: the stars and My agenda, on a programme published
// with talks, are in programme-stars.spec.ts.
import { test, expect } from './fixtures';
import type { Page } from '@playwright/test';
import { island, withoutNotice } from './island-helpers';

async function scheduleAt(page: Page, time: string, path = '/schedule') {
  await page.clock.install({ time: new Date(time) });
  await withoutNotice(page);
  await page.goto(path);
  // Not `mounted()`: it scrolls to the island, and where the page opens is under test here.
  await expect(island(page, 'Agenda')).toHaveAttribute('data-island-ready', '');
}

const session = (page: Page, title: string) => page.locator('.schedule-session').filter({ hasText: title });
const badges = (page: Page) => page.locator('.schedule-badge');
const current = (page: Page) => page.locator('.schedule-session[aria-current]');

test('the parallel sessions running now are marked Now, the next one Next, and the page opens at them', async ({ page }) => {
  await scheduleAt(page, '2025-03-22T10:00:00+08:00');
  for (const title of ['Fixture session A', 'Fixture session B']) {
    await expect(session(page, title)).toHaveAttribute('aria-current', 'true');
    await expect(session(page, title).locator('.schedule-badge')).toHaveText('Now');
  }
  await expect(session(page, 'Lantern posters online').locator('.schedule-badge')).toHaveText('Next');
  await expect(badges(page)).toHaveText(['Now', 'Now', 'Next']);
  await expect(current(page)).toHaveCount(2);

  await expect(session(page, 'Fixture session A')).toBeInViewport();
  expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(0);
});

test.describe('in a zone where the switch appears above the programme', () => {
  // The zone switch mounts at idle above the programme; the place the address names stays put
  // (ZoneSwitch's layout effect, base.css's smooth scrolling for the page's own links only).
  test.use({ timezoneId: 'America/Los_Angeles' });

  test('an address with a place in the page keeps that place', async ({ page }) => {
    await scheduleAt(page, '2025-03-22T10:00:00+08:00', '/schedule#day-2025-03-23');
    await expect(page.locator('.zone-switch')).toBeVisible();
    await expect(session(page, 'Fixture session A').locator('.schedule-badge')).toHaveText('Now');
    await expect(page.locator('#day-2025-03-23')).toBeInViewport();
    await expect(session(page, 'Fixture session A')).not.toBeInViewport();
  });
});

test('the marks move on when a session ends', async ({ page }) => {
  await scheduleAt(page, '2025-03-21T09:59:00+08:00');
  await expect(badges(page)).toHaveText(['Now', 'Next']);
  await expect(session(page, 'Opening of the fixture symposium')).toHaveAttribute('aria-current', 'true');

  await page.clock.fastForward('01:30');
  await expect(badges(page)).toHaveText(['Next']);
  await expect(session(page, 'Keynote: Computing with tides').locator('.schedule-badge')).toHaveText('Next');
  await expect(current(page)).toHaveCount(0);
});

for (const [when, time] of [
  ['the day before the conference', '2025-03-20T12:00:00+08:00'],
  ['once the last session has ended', '2025-03-23T15:00:00+08:00'],
]) {
  test(`${when} nothing is marked`, async ({ page }) => {
    await scheduleAt(page, time);
    await expect(badges(page)).toHaveCount(0);
    await expect(current(page)).toHaveCount(0);
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
  });
}
