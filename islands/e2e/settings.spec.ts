// The conference calendar in Chromium (issue 42 items 1, 3 and 5): on the shared server the
// fixture's review deadline (3 March 2025) lies in the past of the real clock, so assigning
// is refused with a link to /organiser/settings; the organiser moves the deadline there, and
// the reviewer then gets the form and submits a review. axe checks the settings page.
import { seriousViolations } from './axe';
import { expect, test } from './fixtures';
import { mailFiles, mailedLink } from './mail';
import { submitPaper } from './papers';
import { signInAs, signInAsReviewer } from './sign-in';

const CHAIR = 'e2e.settings@example.org';
const REVIEWER = { name: 'Calendar Reviewer', email: 'calendar.reviewer@example.org', affiliation: 'Almanac Works' };

test('an organiser moves the review deadline and a reviewer can then submit a review', async ({ page, browser, problems }) => {
  test.setTimeout(120_000);
  const title = `Calendar paper ${Date.now()}`;
  await page.goto('/');
  const reference = await submitPaper(page, 'calendar.author@example.net', title);
  await signInAs(page, CHAIR);

  // The reviewer accepts the invitation from the mail.
  await page.goto('/organiser/reviewers');
  const before = new Set(mailFiles());
  await page.getByLabel('Reviewers, one a line (CSV)').fill(`${REVIEWER.name},${REVIEWER.email},${REVIEWER.affiliation},`);
  await page.getByRole('button', { name: 'Invite everyone on the list' }).click();
  await expect(page.getByRole('status')).toContainText('1');
  const invitation = await mailedLink(
    REVIEWER.email,
    /Invitation to review/,
    /https?:\/\/[^\s"<>]+\/review\/invitation\/[A-Za-z0-9_-]+\?answer=accept/,
    before,
  );
  const invited = await (await browser.newContext()).newPage();
  await invited.goto(invitation);
  await invited.getByRole('button', { name: 'Accept', exact: true }).click();
  await expect(invited.getByRole('link', { name: "Go to the reviewers' sign-in" })).toBeVisible();

  // The deadline has passed: assigning is refused (409), with a link to the setting.
  problems.allow(/409/);
  await page.goto(`/organiser/review/assignments/${reference}`);
  await page.getByRole('button', { name: `Assign ${REVIEWER.name}` }).click();
  await expect(page.getByText(/The review deadline, .* has passed/)).toBeVisible();

  await page.goto('/organiser/settings');
  await expect(page.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();
  const row = page.locator('#setting-review_deadline');
  await expect(row).toContainText('Monday, 3 March 2025, 18:00 Singapore time (UTC+08:00)');
  await expect(row).toContainText('Passed');
  expect(await seriousViolations(page), page.url()).toEqual([]);
  const next = new Date().getUTCFullYear() + 1;
  await page.getByLabel(/Review deadline/).fill(`${next}-03-01`);
  await page.getByRole('button', { name: 'Save settings' }).click();
  await expect(page.getByRole('status')).toContainText(`review_deadline: 2025-03-03 18:00 → ${next}-03-01`);
  await expect(row).toContainText(`1 March ${next}, 23:59 Singapore time`);
  await expect(row).toContainText('Open: in');
  expect(await seriousViolations(page), page.url()).toEqual([]);

  // Now the paper is assigned, released and mailed with the new deadline.
  await page.goto(`/organiser/review/assignments/${reference}`);
  await page.getByRole('button', { name: `Assign ${REVIEWER.name}` }).click();
  await page.goto('/organiser/review/assignments/staged');
  const released = new Set(mailFiles());
  await page.getByRole('button', { name: 'Release and mail the reviewers' }).click();
  await expect(page.getByRole('status')).toBeVisible();
  await mailedLink(REVIEWER.email, /review/i, new RegExp(`1 March ${next}`), released);

  // The reviewer gets the form and submits a review.
  const reviewing = await (await browser.newContext()).newPage();
  await signInAsReviewer(reviewing, REVIEWER.email);
  await reviewing.getByRole('region', { name: 'My papers' }).getByRole('link').first().click();
  const form = reviewing.locator('form').filter({ has: reviewing.getByRole('button', { name: 'Submit review' }) });
  for (const fieldset of await form.locator('fieldset').all()) {
    await fieldset.getByRole('radio').last().check();
  }
  await reviewing.getByLabel('Comments to the authors').fill('Moved deadline, timely review.');
  await reviewing.getByRole('button', { name: 'Submit review' }).click();
  await expect(reviewing.getByText('Your review is submitted.')).toBeVisible();
});
