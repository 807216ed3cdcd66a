// The programme in the visitor's time zone (issue 31 item 4, DESIGN.md section 14): the
// ZoneSwitch island on the test fixture's programme (tests/fixtures/content.sql: sessions on
// 21-23 March 2025 in Asia/Singapore, UTC+08:00), in browsers set to other zones.
import { test, expect } from './fixtures';
import type { Page } from '@playwright/test';
import { seriousViolations } from './axe';
import { PROGRAMME } from './content';
import { island, mounted, withoutNotice } from './island-helpers';

const EVENT_TIME = `Event time (${PROGRAMME.zone.replace(/ \(.*/, '')})`;
const EVENT_SENTENCE = `Times are in ${PROGRAMME.zone}.`;

async function schedule(page: Page, path = '/schedule') {
  await withoutNotice(page);
  await page.goto(path);
  await mounted(page, 'ZoneSwitch');
}

/** A session's line of times, by its title. */
const timesOf = (page: Page, title: string) =>
  page.locator('.schedule-session').filter({ hasText: title }).locator('.schedule-session__time');

test.describe('in Los Angeles (UTC−07:00 in March)', () => {
  test.use({ timezoneId: 'America/Los_Angeles' });

  test('"Your time" shows the local clock and its day, under the same day headings, and is remembered', async ({ page }) => {
    await schedule(page);
    const yours = page.getByRole('radio', { name: 'Your time (America/Los_Angeles)' });
    await expect(page.getByRole('radio', { name: EVENT_TIME })).toBeChecked();
    await expect(timesOf(page, PROGRAMME.sessions[0])).toHaveText('09:00–10:00');

    await yours.check();
    // 09:00 in Singapore is 18:00 the evening before in Los Angeles.
    await expect(timesOf(page, PROGRAMME.sessions[0])).toHaveText('18:00 −1 day–19:00 −1 day');
    await expect(timesOf(page, 'Fixture closing')).toHaveText('23:00 −1 day–00:00');
    await expect(page.locator('.schedule-zone')).toHaveText('Times are in your time, America/Los_Angeles (UTC−07:00).');
    await expect(page.locator('.schedule-day__title')).toHaveText(PROGRAMME.days);
    await expect(page.locator('.schedule-day').first().locator('.schedule-session__title').first()).toHaveText(
      PROGRAMME.sessions[0],
    );

    await page.reload();
    await mounted(page, 'ZoneSwitch');
    await expect(yours).toBeChecked();
    await expect(timesOf(page, PROGRAMME.sessions[0])).toHaveText('18:00 −1 day–19:00 −1 day');

    await page.getByRole('radio', { name: EVENT_TIME }).check();
    await expect(timesOf(page, PROGRAMME.sessions[0])).toHaveText('09:00–10:00');
    await expect(page.locator('.zone-day-shift')).toHaveCount(0);
    await expect(page.locator('.schedule-zone')).toHaveText(EVENT_SENTENCE);
  });

  test('the switch works from the keyboard', async ({ page }) => {
    await schedule(page);
    await page.getByRole('radio', { name: EVENT_TIME }).focus();
    await page.keyboard.press('ArrowDown');
    await expect(page.getByRole('radio', { name: 'Your time (America/Los_Angeles)' })).toBeChecked();
    await expect(page.getByRole('radio', { name: 'Your time (America/Los_Angeles)' })).toBeFocused();
    await expect(timesOf(page, PROGRAMME.sessions[0])).toHaveText('18:00 −1 day–19:00 −1 day');
  });

  test('a session page shows its date and times in the visitor\'s zone', async ({ page }) => {
    await schedule(page, PROGRAMME.session.path);
    const times = page.locator('.session-page__time');
    await expect(times).toHaveText('Saturday, 22 March 2025, 09:00–12:00');
    await page.getByRole('radio', { name: 'Your time (America/Los_Angeles)' }).check();
    await expect(times).toHaveText('Friday, 21 March 2025, 18:00–21:00');
  });

  test('the programme with "Your time" chosen has no serious accessibility violation', async ({ page }) => {
    await schedule(page);
    await page.getByRole('radio', { name: 'Your time (America/Los_Angeles)' }).check();
    await expect(page.locator('.zone-day-shift').first()).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
  });
});

test.describe('without JavaScript', () => {
  test.use({ timezoneId: 'America/Los_Angeles', javaScriptEnabled: false });

  test('the programme reads in event time', async ({ page }) => {
    await page.goto('/schedule');
    await expect(timesOf(page, PROGRAMME.sessions[0])).toHaveText('09:00–10:00');
    await expect(page.locator('.schedule-zone')).toHaveText(EVENT_SENTENCE);
    await expect(page.getByRole('radio')).toHaveCount(0);
  });
});

test.describe('in Manila (the event\'s offset)', () => {
  test.use({ timezoneId: 'Asia/Manila' });

  test('no switch is offered and the times stay as served', async ({ page }) => {
    await schedule(page);
    await expect(island(page, 'ZoneSwitch')).toBeEmpty();
    await expect(page.getByRole('radio')).toHaveCount(0);
    await expect(timesOf(page, PROGRAMME.sessions[0])).toHaveText('09:00–10:00');
    await expect(page.locator('.schedule-zone')).toHaveText(EVENT_SENTENCE);
  });
});

test.describe('in Kiritimati (UTC+14:00)', () => {
  test.use({ timezoneId: 'Pacific/Kiritimati' });

  test('the switch is offered; the fixture\'s sessions stay on their day there', async ({ page }) => {
    await schedule(page);
    await page.getByRole('radio', { name: 'Your time (Pacific/Kiritimati)' }).check();
    await expect(timesOf(page, PROGRAMME.sessions[0])).toHaveText('15:00–16:00');
    await expect(timesOf(page, 'Fixture closing')).toHaveText('20:00–21:00');
    // Every session ends by 15:00 in Singapore, 21:00 in Kiritimati: no "+1 day" is due
    // (the island's unit tests show one on an evening session).
    await expect(page.locator('.zone-day-shift')).toHaveCount(0);
    await expect(page.locator('.schedule-zone')).toHaveText('Times are in your time, Pacific/Kiritimati (UTC+14:00).');
  });
});
