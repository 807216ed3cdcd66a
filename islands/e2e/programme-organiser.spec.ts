// The organisers' programme in a real browser (issue 31, "Done when"): an organiser places ten
// accepted papers into the fixture's two technical sessions and publishes; visitors then find
// the ten talks on /schedule. On the way: the sessions' time left, the talks' order and times,
// a talk's minutes changed with the keyboard alone, and axe (0 serious) on /organiser/programme
// and on a paper's public abstract and presenter.
import { test, expect } from './fixtures';
import { seriousViolations } from './axe';
import { withoutNotice } from './island-helpers';
import { publishProgramme } from './programme';

const ORGANISER = 'e2e.timetable@example.org';

test.use({ reducedMotion: 'reduce', viewport: { width: 1280, height: 900 } });
test.describe.configure({ timeout: 180_000 });

test('an organiser places ten accepted papers into two sessions and publishes; /schedule shows them', async ({
  page,
  problems,
}) => {
  await withoutNotice(page);
  const programme = await publishProgramme(page, { organiser: ORGANISER, problems });
  expect(programme.references).toHaveLength(10);

  // The organisers' page: both sessions hold this run's five talks each, in order, 15 minutes
  // apart; nothing is in conflict.
  await page.goto('/organiser/programme');
  await expect(page.getByRole('navigation', { name: 'Organiser area' }).getByRole('link', { name: 'Programme' })).toHaveAttribute(
    'aria-current',
    'page',
  );
  await expect(page.locator('#conflicts')).toHaveText('No conflicts: the programme can be published.');
  for (const [index, slug] of ['session-a', 'session-b'].entries()) {
    const mine = page.locator(`#session-${slug} .programme-talk`).filter({ hasText: programme.run });
    await expect(mine.locator('.programme-talk__title')).toHaveText(programme.titles.slice(index * 5, index * 5 + 5));
    await expect(page.locator(`#left-${slug}`)).toHaveText(/^\d+ min left$/);
  }
  expect(await seriousViolations(page), 'axe on /organiser/programme').toEqual([]);

  // Keyboard only: a talk's minutes typed and saved with Enter (the form's first button).
  const last = programme.references[4];
  const minutes = page.getByRole('spinbutton', { name: `Minutes of “${programme.titles[4]}”` });
  await minutes.focus();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.type('20');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('status')).toHaveText(`“${programme.titles[4]}” is placed; the session below shows it.`);
  await expect(page.locator(`#talk-${last}`)).toContainText('20 min');
  await expect(page.locator('#changes')).toContainText(`Talk moved: “${programme.titles[4]}”`);

  // A paper's public abstract and presenter.
  await page.getByRole('link', { name: `Abstract and presenter of “${programme.titles[0]}”` }).click();
  await expect(page.getByRole('heading', { level: 1, name: programme.titles[0] })).toBeVisible();
  await expect(page.getByLabel('Presenter')).toHaveValue('Ana Cruz');
  expect(await seriousViolations(page), 'axe on a paper’s public abstract and presenter').toEqual([]);

  // Visitors: the published version on /schedule, with every talk.
  await page.goto('/schedule');
  for (const title of programme.titles) {
    await expect(page.getByText(title, { exact: true }).first()).toBeVisible();
  }
});
