// A published programme's talks in the visitor's browser (issue 31 items 4, 6 and 8): stars
// and "My agenda" with its calendar, the talks in the visitor's time zone on /schedule and on a
// talk page, the author's own time on the status page, and axe (0 serious) on the programme's
// pages once they list talks.
//
// One programme for the whole file, published in `beforeAll` by this file's organiser: two
// papers of 10 minutes, the first in Fixture session A and the second in Fixture session B
// (both 09:00–12:00 on Saturday 22 March 2025 in Singapore time, UTC+08:00). Every spec that
// publishes shares the server's one draft, and both sessions must hold every spec's talks (see
// e2e/programme.ts), so this file keeps to two short talks and its tests run in order in one
// worker, publishing once.
import type { Page } from '@playwright/test';
import { test, expect, type Problems } from './fixtures';
import { seriousViolations } from './axe';
import { PROGRAMME } from './content';
import { mounted, withoutNotice } from './island-helpers';
import { mailFiles, mailedLink } from './mail';
import { publishProgramme, type PublishedProgramme } from './programme';

const ORGANISER = 'e2e.stars@example.org';
const LOS_ANGELES = 'America/Los_Angeles';
const EVENT_SENTENCE = `Times are in ${PROGRAMME.zone}.`;

test.use({ reducedMotion: 'reduce', viewport: { width: 1280, height: 900 } });
test.describe.configure({ mode: 'default', timeout: 180_000 });

let programme: PublishedProgramme;
/** The status page of the first paper (in Fixture session A), from its acknowledgement. */
let statusLink: string;

test.beforeAll(async ({ browser }) => {
  const page = await browser.newPage();
  // A version another spec publishes between drawing the organiser's page and pressing its
  // button is a 409 there; publishDraft then publishes again. Nothing watches this page.
  const problems: Problems = { seen: [], allow: () => {} };
  const before = new Set(mailFiles());
  programme = await publishProgramme(page, { organiser: ORGANISER, papers: 2, minutes: 10, problems });
  const author = `e2e.speaker0.${programme.run.toLowerCase()}@example.org`;
  statusLink = await mailedLink(author, /We received your paper/, /https?:\/\/[^\s"<>]+\/submission\/status\/[A-Za-z0-9_-]{43}/, before);
  await page.close();
});

/** A talk of /schedule or a session page, by its title. */
const talk = (page: Page, title: string) =>
  page.locator('.schedule-talk').filter({ has: page.locator('[data-talk-title]', { hasText: title }) });

/** The talk's slug as the page names it. */
async function slugOf(page: Page, title: string): Promise<string> {
  return (await talk(page, title).getAttribute('data-talk'))!;
}

/** Opens `path` with the programme's islands mounted. */
async function open(page: Page, path: string, islands: string[] = ['ZoneSwitch', 'Agenda']) {
  await withoutNotice(page);
  await page.goto(path);
  for (const name of islands) await mounted(page, name);
}

/**
 * `HH:MM` of a time in Singapore (UTC+08:00) as read in Los Angeles in March 2025 (summer
 * time, UTC−07:00): fifteen hours earlier, with ` −1 day` when that is the evening before
 * (`marked`; a time after a date names its day itself).
 */
function inLosAngeles(clock: string, marked = true): string {
  const [hours, minutes] = clock.split(':').map(Number);
  const at = hours * 60 + minutes - 15 * 60;
  const shown = (at + 24 * 60) % (24 * 60);
  const text = `${String(Math.floor(shown / 60)).padStart(2, '0')}:${String(shown % 60).padStart(2, '0')}`;
  return marked && at < 0 ? `${text} −1 day` : text;
}

/** `09:00–09:10` → both clocks in Los Angeles, as the island writes them. */
function spanInLosAngeles(span: string, marked = true): string {
  const [start, end] = span.split('–');
  return `${inLosAngeles(start, marked)}–${inLosAngeles(end, marked)}`;
}

test('a visitor stars two talks, keeps them across a reload, lists them alone in My agenda and gets their calendar', async ({
  page,
}) => {
  await open(page, '/schedule', ['Agenda']);
  const [first, second] = programme.titles;
  const slugs = [await slugOf(page, first), await slugOf(page, second)];
  const starFirst = page.getByRole('button', { name: `Star ${first}`, exact: true });
  const starSecond = page.getByRole('button', { name: `Star ${second}`, exact: true });
  const myAgenda = page.getByRole('button', { name: /^My agenda \(\d+\)$/ });
  await expect(starFirst).toHaveAttribute('aria-pressed', 'false');
  await expect(myAgenda).toHaveText('My agenda (0)');

  // The second talk first, from the keyboard; then the first, with the mouse.
  await starSecond.focus();
  await page.keyboard.press('Space');
  await expect(starSecond).toHaveAttribute('aria-pressed', 'true');
  await expect(myAgenda).toHaveText('My agenda (1)');
  await starFirst.click();
  await expect(starFirst).toHaveAttribute('aria-pressed', 'true');
  await expect(myAgenda).toHaveText('My agenda (2)');

  await page.reload();
  await mounted(page, 'Agenda');
  await expect(starFirst).toHaveAttribute('aria-pressed', 'true');
  await expect(starSecond).toHaveAttribute('aria-pressed', 'true');
  await expect(myAgenda).toHaveText('My agenda (2)');
  await expect(myAgenda).toHaveAttribute('aria-pressed', 'false');

  // My agenda: the two talks and their sessions and day; every other talk, session and day
  // is hidden. Its calendar names the talks in the page's order, whatever order they were
  // starred in.
  await myAgenda.click();
  await expect(myAgenda).toHaveAttribute('aria-pressed', 'true');
  await expect(page.locator('.schedule-talk:visible [data-talk-title]')).toHaveText([first, second]);
  await expect(page.locator('.schedule-session:visible .schedule-session__title')).toHaveText([
    'Fixture session A',
    'Fixture session B',
  ]);
  await expect(page.locator('.schedule-day:visible .schedule-day__title')).toHaveText([PROGRAMME.days[1]]);
  await expect(page.locator('.schedule-session', { hasText: PROGRAMME.sessions[0] })).toBeHidden();
  const ics = page.getByRole('link', { name: 'Add my agenda to your calendar (.ics)' });
  await expect(ics).toHaveAttribute('href', `/schedule/agenda.ics?talks=${slugs.join(',')}`);

  const calendar = await page.request.get((await ics.getAttribute('href'))!);
  expect(calendar.status()).toBe(200);
  expect(calendar.headers()['content-type']).toMatch(/^text\/calendar\b/);
  // RFC 5545 folds long lines; unfolded, each property is one line.
  const text = (await calendar.text()).replace(/\r\n[ \t]/g, '');
  const lines = text.split('\r\n');
  expect(lines.filter((line) => line.startsWith('SUMMARY:'))).toEqual([`SUMMARY:${first}`, `SUMMARY:${second}`]);
  expect(lines.filter((line) => line.startsWith('UID:')).map((line) => line.replace(/@.*/, '@'))).toEqual(
    slugs.map((slug) => `UID:talk-${slug}@`),
  );

  // Unstarring, in My agenda: the talk leaves the list (its star with it), the count and the
  // calendar.
  await starFirst.click();
  await expect(talk(page, first)).toBeHidden();
  await expect(page.getByRole('button', { name: `Star ${first}`, exact: true, includeHidden: true })).toHaveAttribute(
    'aria-pressed',
    'false',
  );
  await expect(myAgenda).toHaveText('My agenda (1)');
  await expect(page.locator('.schedule-talk:visible [data-talk-title]')).toHaveText([second]);
  await expect(page.locator('.schedule-session:visible .schedule-session__title')).toHaveText(['Fixture session B']);
  await expect(ics).toHaveAttribute('href', `/schedule/agenda.ics?talks=${slugs[1]}`);
  await starSecond.click();
  await expect(myAgenda).toHaveText('My agenda (0)');
  await expect(ics).toHaveCount(0);
  await expect(page.getByRole('status').filter({ hasText: 'No talk is starred yet.' })).toHaveText(
    'No talk is starred yet. Star talks to list them here.',
  );

  // Off again: the whole programme, and nothing starred after a reload.
  await myAgenda.click();
  await expect(page.locator('.schedule-session', { hasText: PROGRAMME.sessions[0] })).toBeVisible();
  await page.reload();
  await mounted(page, 'Agenda');
  await expect(starSecond).toHaveAttribute('aria-pressed', 'false');
  await expect(myAgenda).toHaveText('My agenda (0)');
});

test.describe('in Los Angeles (UTC−07:00 in March, a day behind Singapore in the morning)', () => {
  test.use({ timezoneId: LOS_ANGELES });

  test('/schedule shows the talks at the local clock with the day they fall on', async ({ page }) => {
    await open(page, '/schedule');
    const times = (title: string) => talk(page, title).locator('p').first();
    // The first talk of Fixture session A, whoever placed it, opens the session at 09:00 in
    // Singapore: 18:00 the evening before in Los Angeles.
    const opening = page.locator('.schedule-session', { hasText: 'Fixture session A' }).locator('.schedule-talk').first();
    await expect(opening.locator('p').first()).toHaveText(/^09:00–\d\d:\d\d$/);
    const served = new Map<string, string>();
    for (const title of programme.titles) served.set(title, (await times(title).textContent())!);
    const openingServed = (await opening.locator('p').first().textContent())!;

    await page.getByRole('radio', { name: `Your time (${LOS_ANGELES})` }).check();
    await expect(opening.locator('p').first()).toHaveText(spanInLosAngeles(openingServed));
    await expect(opening.locator('p').first()).toContainText('18:00 −1 day');
    for (const title of programme.titles) {
      await expect(times(title)).toHaveText(spanInLosAngeles(served.get(title)!));
      await expect(times(title).locator('.zone-day-shift').first()).toHaveText('−1 day');
    }
    // Under the event's day heading still.
    const day = page.locator('.schedule-day').filter({ has: talk(page, programme.titles[0]) });
    await expect(day.locator('.schedule-day__title')).toHaveText(PROGRAMME.days[1]);
    await expect(page.locator('.schedule-zone')).toHaveText(`Times are in your time, ${LOS_ANGELES} (UTC−07:00).`);
  });

  test('a talk page shows its date and times in the visitor\'s zone', async ({ page }) => {
    await open(page, '/schedule', []);
    const slug = await slugOf(page, programme.titles[0]);
    await open(page, `/schedule/talks/${slug}`, ['ZoneSwitch']);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(programme.titles[0]);
    const times = page.locator('.session-page__time');
    const served = (await times.textContent())!;
    const [, clocks] = /^Saturday, 22 March 2025, (\d\d:\d\d–\d\d:\d\d)$/.exec(served) ?? [];
    expect(clocks, `the talk's time in event time: ${served}`).toBeTruthy();
    await expect(page.locator('.schedule-zone')).toHaveText(EVENT_SENTENCE);

    await page.getByRole('radio', { name: `Your time (${LOS_ANGELES})` }).check();
    // The date names the day; the end is read against it.
    await expect(times).toHaveText(`Friday, 21 March 2025, ${spanInLosAngeles(clocks, false)}`);
    await expect(page.locator('.schedule-zone')).toHaveText(`Times are in your time, ${LOS_ANGELES} (UTC−07:00).`);
  });

  test('the author\'s status page shows the talk in event time and in the author\'s own', async ({ page }) => {
    await open(page, statusLink, ['ZoneSwitch']);
    const place = page.locator('#talk-place');
    await expect(place).toContainText(programme.titles[0]);
    await expect(page.locator('.schedule-zone')).toHaveText(EVENT_SENTENCE);
    const when = place.locator('dd').filter({ has: page.locator('time') });
    const event = when.locator('time');
    const served = `${await event.nth(0).textContent()}–${await event.nth(1).textContent()}`;
    const [, clocks] = /^Saturday, 22 March 2025, (\d\d:\d\d–\d\d:\d\d)$/.exec(served) ?? [];
    expect(clocks, `the talk's time in event time: ${served}`).toBeTruthy();
    await expect(when.locator('.zone-local')).toHaveText(
      `Your time (${LOS_ANGELES}): Friday, 21 March 2025, ${spanInLosAngeles(clocks, false)}`,
    );
    // Both stay: the event time as served, and no switch that would rewrite it.
    await expect(event).toHaveText([`Saturday, 22 March 2025, ${clocks.split('–')[0]}`, clocks.split('–')[1]]);
    await expect(page.getByRole('group', { name: 'Show times in' })).toHaveCount(0);
    expect(await seriousViolations(page), 'axe on the status page').toEqual([]);
  });
});

test.describe('in Manila (the event\'s offset)', () => {
  test.use({ timezoneId: 'Asia/Manila' });

  test('the status page shows the event time alone', async ({ page }) => {
    await open(page, statusLink, ['ZoneSwitch']);
    await expect(page.locator('#talk-place')).toContainText(/Saturday, 22 March 2025, \d\d:\d\d–\d\d:\d\d/);
    await expect(page.locator('.zone-local')).toHaveCount(0);
  });
});

test.describe('without JavaScript', () => {
  test.use({ timezoneId: LOS_ANGELES, javaScriptEnabled: false });

  test('the status page reads in event time', async ({ page }) => {
    await page.goto(statusLink);
    await expect(page.locator('#talk-place')).toContainText(/Saturday, 22 March 2025, \d\d:\d\d–\d\d:\d\d/);
    await expect(page.locator('.schedule-zone')).toHaveText(EVENT_SENTENCE);
    await expect(page.locator('.zone-local')).toHaveCount(0);
  });
});

test('the programme\'s pages with talks have no serious accessibility violation', async ({ page }) => {
  await open(page, '/schedule');
  await expect(talk(page, programme.titles[0])).toBeVisible();
  await page.getByRole('button', { name: `Star ${programme.titles[0]}`, exact: true }).click();
  expect(await seriousViolations(page), 'axe on /schedule with talks').toEqual([]);
  const slug = await slugOf(page, programme.titles[0]);

  await open(page, `/schedule/talks/${slug}`, ['ZoneSwitch']);
  expect(await seriousViolations(page), 'axe on a talk page').toEqual([]);

  await open(page, PROGRAMME.session.path);
  await expect(talk(page, programme.titles[0])).toBeVisible();
  expect(await seriousViolations(page), 'axe on a session page with talks').toEqual([]);

  await withoutNotice(page);
  await page.goto('/schedule/changes');
  await expect(page.getByRole('heading', { level: 2, name: `Version ${programme.version}: ${programme.name}` })).toBeVisible();
  expect(await seriousViolations(page), 'axe on /schedule/changes').toEqual([]);
});
