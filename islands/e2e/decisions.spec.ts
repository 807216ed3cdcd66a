// Decisions in a real browser (issue 21, item 8): an organiser signs in by the mailed link,
// ticks three papers in the filtered list, reviews the selection (its count and references)
// and confirms it, rejects two more the same way, previews the mails and applies them. Each
// author then finds one decision mail whose private link shows the decision. axe checks the
// review, the preview, the status page, the list and a submission's page on the way.
//
// The back office as a person meets it (issue 30, item 6), one check per point:
//   1. a decision from a stale page lands on an organiser page (409) that says so and links
//      back to the submission; reloading it posts nothing;
//   2. applying answers 303 to a page that says what was applied; reloading posts nothing;
//   3. history and dashboard speak an organiser's words and leave out what changed nothing;
//   4. after a selection is staged the whole list comes back with a notice; the menu starts
//      on no choice, and no choice is refused;
//   5. the organiser area has its own header (no visitors' dock over its rows at 1280x900);
//   6. an author's withdrawal asks once, and works without JavaScript;
//   7. the preview shows the status link's form with a stand-in token.
//
// The tests of this file sign in as the same organiser and read the same mail folder, so they
// run one after another (in order, each on its own).
//
// The papers are sent through the public API with a title unique to this run, so the list
// filtered by it holds only this run's rows whatever other specs submitted.
import type { Browser, Page } from '@playwright/test';
import { test, expect } from './fixtures';
import { withoutNotice } from './island-helpers';
import { seriousViolations } from './axe';
import { mailFiles, mailedLink } from './mail';
import { signInAs } from './sign-in';
import { submitPaper } from './papers';

const ORGANISER = 'e2e.programme@example.org';

test.use({ reducedMotion: 'reduce', viewport: { width: 1280, height: 900 } });
test.describe.configure({ timeout: 120_000, mode: 'default' });

/** Signs `page` in as ORGANISER by the mailed link; on the dashboard after. */
const signIn = (page: Page) => signInAs(page, ORGANISER);

/** The organiser area's header. */
const areaNav = (page: Page) => page.getByRole('navigation', { name: 'Organiser area' });

/** The POSTs `page` sends while `action` runs (a reload must send none). */
async function postsDuring(page: Page, action: () => Promise<unknown>): Promise<string[]> {
  const posts: string[] = [];
  const seen = (request: { method(): string; url(): string }) => {
    if (request.method() === 'POST') posts.push(request.url());
  };
  page.on('request', seen);
  await action();
  page.off('request', seen);
  return posts;
}

/** Ticks `references` in the list, chooses `decision`, reviews and confirms the selection. */
async function decide(page: Page, filter: string, references: string[], decision: 'Accept' | 'Reject') {
  await page.goto(`/organiser/submissions?q=${encodeURIComponent(filter)}&state=submitted`);
  for (const reference of references) {
    await page.getByRole('checkbox', { name: `Select ${reference}` }).check();
  }
  const menu = page.getByLabel('Decision for the selected rows');
  // 4. The menu starts on no choice, and the browser asks for one before the form goes.
  await expect(menu).toHaveValue('');
  await expect(menu.locator('option:checked')).toHaveText('Choose a decision');
  await page.getByRole('button', { name: 'Review the selection' }).click();
  expect(await menu.evaluate((el) => (el as HTMLSelectElement).validity.valueMissing)).toBe(true);
  await expect(page).toHaveURL(/\/organiser\/submissions\?q=/);
  await menu.selectOption({ label: decision });
  await page.getByRole('button', { name: 'Review the selection' }).click();
  const noun = references.length === 1 ? 'submission' : 'submissions';
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`${decision} ${references.length} ${noun}?`);
  await expect(page.locator('#selection-count')).toHaveText(
    `${references.length} ${noun} will get the pending decision "${decision}":`,
  );
  expect(await seriousViolations(page), 'axe on the review of a selection').toEqual([]);
  const listed = page.getByRole('list', { name: 'Selected submissions' }).getByRole('listitem');
  await expect(listed).toHaveCount(references.length);
  expect((await listed.allTextContents()).sort(), 'the selection, in the list\'s order').toEqual([...references].sort());
  await page.getByRole('button', { name: `Confirm: ${decision.toLowerCase()} ${references.length} ${noun}` }).click();
  // 4. Back to the whole list (no pending filter), with a notice of what was staged.
  const staged = decision === 'Accept' ? 'accepted' : 'rejected';
  await expect(page).toHaveURL(new RegExp(`/organiser/submissions\\?staged=${staged}&count=${references.length}$`));
  await expect(page.getByRole('status').filter({ hasText: 'pending decision' })).toContainText(
    `${references.length} ${noun} now ${references.length === 1 ? 'has' : 'have'} the pending decision "${decision}". Nobody is mailed until the decisions are applied.`,
  );
  await expect(page.getByLabel('Pending decision', { exact: true })).toHaveValue('');
  await expect(menu).toHaveValue('');
  expect(await seriousViolations(page), 'axe on the list with its notice').toEqual([]);
}

test('an organiser accepts three papers and rejects two in the browser; each author gets one mail with a working link', async ({
  page,
}) => {
  await withoutNotice(page);
  await page.goto('/');
  const run = `Run${Date.now().toString(36)}`;
  const authors = [0, 1, 2, 3, 4].map((n) => `e2e.author${n}.${run.toLowerCase()}@example.org`);
  const references: string[] = [];
  for (const [n, email] of authors.entries()) {
    references.push(await submitPaper(page, email, `${run} tide paper ${n}`));
  }

  await signIn(page);

  // 5. The organiser area's own header: the site's name, the lists and "Sign out"; no dock.
  const nav = areaNav(page);
  await expect(nav.getByRole('link')).toHaveText(['Dashboard', 'Settings', 'Submissions', 'Reviewers', 'Assignments', 'Review', 'Programme', 'Streams', 'Orders', 'Check-in', 'Certificates', 'Messages', 'Subscribers', 'Outbox', 'Audit']);
  await expect(nav.getByRole('link', { name: 'Dashboard' })).toHaveAttribute('aria-current', 'page');
  await expect(nav.getByRole('button', { name: 'Sign out', exact: true })).toBeVisible();
  await expect(page.locator('.dock')).toHaveCount(0);
  await expect(page.getByRole('navigation', { name: 'Quick navigation' })).toHaveCount(0);
  // Keyboard: the skip link, then the header's first link.
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  await expect(nav.getByRole('link', { name: 'Dashboard' })).toBeFocused();

  // 4. A selection sent without a choice (past the browser's check) is a 400 that says so.
  const unchosen = await page.request.post('/organiser/submissions/decide', {
    headers: { origin: new URL(page.url()).origin },
    form: { decision: '', item: `${references[0]}:1` },
  });
  expect(unchosen.status()).toBe(400);
  expect(await unchosen.text()).toContain('No decision was chosen. Choose Accept, Reject or');

  // Accept three, reject two: each selection reviewed before it is confirmed.
  await decide(page, run, references.slice(0, 3), 'Accept');
  await decide(page, run, references.slice(3), 'Reject');

  // 5. At 1280x900 the list's last row is not covered: what is drawn at its middle is the row.
  await page.goto(`/organiser/submissions?q=${encodeURIComponent(run)}`);
  await expect(nav.getByRole('link', { name: 'Submissions' })).toHaveAttribute('aria-current', 'page');
  const lastRow = page.getByRole('region', { name: 'Submissions' }).locator('tbody tr').last();
  await lastRow.scrollIntoViewIfNeeded();
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  const box = (await lastRow.boundingBox())!;
  expect(box.y + box.height, 'the last row is inside the window').toBeLessThanOrEqual(900);
  expect(
    await lastRow.evaluate((row) => {
      const r = row.getBoundingClientRect();
      const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
      return !!hit && row.contains(hit);
    }),
    'nothing is drawn over the last row',
  ).toBe(true);

  // The preview: counts, every address, one mail in full; then apply.
  await nav.getByRole('link', { name: 'Dashboard' }).click();
  await page.getByRole('link', { name: 'Apply decisions' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Apply decisions' })).toBeVisible();
  const table = page.getByRole('table', { name: 'Mails to send' });
  for (const email of authors) await expect(table.getByRole('cell', { name: email, exact: true })).toBeVisible();
  await expect(page.locator('#count-accepted')).toHaveText(/^\d+$/);
  await expect(page.getByRole('heading', { level: 2, name: 'The first mail in full' })).toBeVisible();
  // 7. The status link as the author will get it, with a stand-in for the private token.
  const origin = new URL(page.url()).origin;
  await expect(page.locator('pre.organiser__mail')).toContainText(`${origin}/submission/status/<token>`);
  await expect(page.locator('pre.organiser__mail')).not.toContainText('(a private link');
  await expect(page.locator('#stand-in')).toContainText("stands for each author's own private token");
  expect(await seriousViolations(page), 'axe on the preview').toEqual([]);
  const mailsBefore = new Set(mailFiles());
  await page.getByRole('button', { name: /^Apply \d+ decisions and send \d+ mails$/ }).click();

  // 2. The answer is a page of its own (after a 303) that says what was applied.
  await expect(page).toHaveURL(/\/organiser\/decisions\/applied\?accepted=\d+&rejected=\d+&mails=\d+$/);
  const notice = page.getByRole('status').filter({ hasText: 'applied' });
  await expect(notice).toHaveText(/^\d+ decisions applied \(\d+ accepted, \d+ rejected\); \d+ mails queued\.$/);
  expect(await seriousViolations(page), 'axe on the answer of an apply').toEqual([]);
  const applied = await notice.textContent();
  // Reloading it posts nothing and applies nothing again.
  const posts = await postsDuring(page, () => page.reload());
  expect(posts, 'a reload sends no POST').toEqual([]);
  await expect(notice).toHaveText(applied!);

  // Each author: one decision mail, whose link shows the decision.
  for (const [n, email] of authors.entries()) {
    const accepted = n < 3;
    const subject = accepted ? /acceptance of/ : /decision on/;
    const status = await mailedLink(email, subject, /https?:\/\/[^\s"<>]+\/submission\/status\/[A-Za-z0-9_-]{43}/, mailsBefore);
    const response = await page.goto(status);
    expect(response?.headers()['referrer-policy']).toBe('no-referrer');
    await expect(page.locator('#submission-state')).toHaveText(accepted ? 'Accepted' : 'Rejected');
    await expect(page.getByText(references[n], { exact: true })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Withdraw my submission' })).toHaveCount(0);
  }
  expect(await seriousViolations(page), 'axe on the status page').toEqual([]);

  // The list with its selection boxes, and a submission's page with its history.
  await page.goto(`/organiser/submissions?q=${encodeURIComponent(run)}`);
  expect(await seriousViolations(page), 'axe on the list with its selection form').toEqual([]);
  await page.getByRole('link', { name: references[0], exact: true }).click();
  await expect(page.getByRole('heading', { level: 2, name: 'History' })).toBeVisible();
  // 3. The history in an organiser's words, only what changed.
  const history = page.locator('div[role=region][aria-label="History"]');
  await expect(history.locator('tbody tr td:nth-child(3)')).toHaveText(['Pending decision set', 'Decision applied and mailed']);
  await expect(history.locator('tbody tr').first().locator('td').nth(3)).toHaveText('Pending decision: None → Accept');
  await expect(history.locator('tbody tr').last().locator('td').nth(3)).toContainText('State: Submitted → Accepted');
  await expect(history).not.toContainText('submission.');
  await expect(history).not.toContainText('None → None');
  await expect(history).not.toContainText('(none)');
  expect(await seriousViolations(page), 'axe on the submission page').toEqual([]);
  // 3. The dashboard too: states in words, the latest actions named as organisers say them.
  await areaNav(page).getByRole('link', { name: 'Dashboard' }).click();
  await expect(page.getByRole('link', { name: /^Accepted: \d+$/ })).toBeVisible();
  const latest = page.locator('div[role=region][aria-label="Latest actions"]');
  await expect(latest.getByRole('cell', { name: 'Decision applied and mailed' }).first()).toBeVisible();
  await expect(latest).not.toContainText('submission.');
  await expect(latest.getByRole('link', { name: /^Submission / }).first()).toBeVisible();
});

test('a decision from a stale page lands on an organiser page that says so; reloading it posts nothing', async ({
  page,
  problems,
}) => {
  problems.allow(/409/);
  await withoutNotice(page);
  await page.goto('/');
  const run = `Stale${Date.now().toString(36)}`;
  const reference = await submitPaper(page, `e2e.stale.${run.toLowerCase()}@example.org`, `${run} lantern paper`);
  await signIn(page);

  // Two tabs draw the submission's page; the second saves first.
  const path = `/organiser/submissions/${reference}`;
  await page.goto(path);
  const other = await page.context().newPage();
  await other.goto(path);
  await other.getByRole('combobox', { name: 'Decision', exact: true }).selectOption({ label: 'Reject' });
  await other.getByRole('button', { name: 'Save the pending decision' }).click();
  await expect(other.getByRole('region', { name: 'Decision', exact: true })).toContainText(/Pending decision\s*Reject/);
  await other.close();

  // 1. The first tab's decision: an organiser page (409), with the message and the way back.
  await page.getByRole('combobox', { name: 'Decision', exact: true }).selectOption({ label: 'Accept' });
  const answered = page.waitForResponse((r) => r.url().includes('/conflict?'));
  await page.getByRole('button', { name: 'Save the pending decision' }).click();
  expect((await answered).status()).toBe(409);
  await expect(page).toHaveURL(new RegExp(`${path}/conflict\\?why=changed$`));
  await expect(page.getByRole('heading', { level: 1, name: 'Nothing was changed' })).toBeVisible();
  const alert = page.getByRole('alert');
  await expect(alert).toHaveText(
    `Submission ${reference} was changed by someone else since this page was loaded, so nothing was changed. Open it as it is now and decide again.`,
  );
  await expect(areaNav(page)).toBeVisible();
  await expect(page.getByRole('link', { name: 'Go back home' })).toHaveCount(0);
  await expect(page.locator('.dock')).toHaveCount(0);
  expect(await seriousViolations(page), 'axe on the page of a refused decision').toEqual([]);

  // Reloading it posts nothing, and says the same.
  const posts = await postsDuring(page, () => page.reload());
  expect(posts, 'a reload sends no POST').toEqual([]);
  await expect(alert).toContainText(`Submission ${reference} was changed by someone else`);

  // The link goes back to the submission as it is now, where the other decision stands.
  await page.getByRole('link', { name: `Open submission ${reference} as it is now` }).click();
  await expect(page).toHaveURL(new RegExp(`${path}$`));
  await expect(page.getByRole('combobox', { name: 'Decision', exact: true })).toHaveValue('rejected');

  // Leave nothing pending for the other tests' apply.
  await page.getByRole('combobox', { name: 'Decision', exact: true }).selectOption({ label: 'None' });
  await page.getByRole('button', { name: 'Save the pending decision' }).click();
  await expect(page.getByRole('combobox', { name: 'Decision', exact: true })).toHaveValue('none');
  // 3. Clearing it shows as a change of the pending decision, without an empty note.
  const history = page.locator('div[role=region][aria-label="History"]');
  await expect(history.locator('tbody tr').last().locator('td').nth(3)).toHaveText('Pending decision: Reject → None');
});

/** The author's status link from the acknowledgement mail to `email`. */
async function statusLink(email: string, before: Set<string>): Promise<string> {
  return mailedLink(email, /We received your paper/, /https?:\/\/[^\s"<>]+\/submission\/status\/[A-Za-z0-9_-]{43}/, before);
}

/** Withdraws on the status page at `link`: asked once, then confirmed. */
async function withdrawAfterTheQuestion(page: Page, link: string) {
  await page.goto(link);
  await expect(page.locator('#submission-state')).toHaveText('Submitted');
  await page.getByRole('button', { name: 'Withdraw my submission' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Withdraw this paper?' })).toBeVisible();
  await expect(page.locator('#withdraw-question')).toContainText('Withdraw this paper? This cannot be undone.');
  await expect(page.locator('#submission-state')).toHaveText('Submitted');
  await page.getByRole('button', { name: 'Withdraw this paper' }).click();
  await expect(page).toHaveURL(link);
  await expect(page.locator('#submission-state')).toHaveText('Withdrawn');
  await expect(page.getByRole('button', { name: /Withdraw/ })).toHaveCount(0);
}

async function noScriptPage(browser: Browser, baseURL: string | undefined) {
  const context = await browser.newContext({ javaScriptEnabled: false, baseURL });
  return { context, page: await context.newPage() };
}

test('an author withdraws a paper only after answering the question, with or without JavaScript', async ({
  page,
  browser,
  baseURL,
}) => {
  await withoutNotice(page);
  await page.goto('/');
  const run = `Withdraw${Date.now().toString(36)}`;
  const emails = [0, 1].map((n) => `e2e.withdraw${n}.${run.toLowerCase()}@example.org`);
  const before = new Set(mailFiles());
  for (const [n, email] of emails.entries()) await submitPaper(page, email, `${run} harbour paper ${n}`);

  // 6. The first click asks; "No" keeps the paper; the question page passes axe.
  const link = await statusLink(emails[0], before);
  await page.goto(link);
  await page.getByRole('button', { name: 'Withdraw my submission' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Withdraw this paper?' })).toBeVisible();
  expect(await seriousViolations(page), 'axe on the question').toEqual([]);
  await page.getByRole('link', { name: 'No, keep my submission' }).click();
  await expect(page).toHaveURL(link);
  await expect(page.locator('#submission-state')).toHaveText('Submitted');
  // Asked once, then withdrawn by the answer, with the keyboard.
  await page.getByRole('button', { name: 'Withdraw my submission' }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { level: 1, name: 'Withdraw this paper?' })).toBeVisible();
  await page.getByRole('button', { name: 'Withdraw this paper' }).focus();
  await page.keyboard.press('Enter');
  await expect(page.locator('#submission-state')).toHaveText('Withdrawn');

  // 6. Without JavaScript: the same two steps, the same result.
  const { context, page: plain } = await noScriptPage(browser, baseURL);
  await withdrawAfterTheQuestion(plain, await statusLink(emails[1], before));
  await context.close();
});
