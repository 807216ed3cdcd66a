// Decisions in a real browser (issue 21, item 8): an organiser signs in by the mailed link,
// ticks three papers in the filtered list, reviews the selection (its count and references)
// and confirms it, rejects two more the same way, previews the mails and applies them. Each
// author then finds one decision mail whose private link shows the decision. axe checks the
// review, the preview, the status page, the list and a submission's page on the way.
//
// The papers are sent through the public API with a title unique to this run, so the list
// filtered by it holds only this run's rows whatever other specs submitted.
import type { Page } from '@playwright/test';
import { test, expect } from './fixtures';
import { withoutNotice } from './island-helpers';
import { seriousViolations } from './axe';
import { mailFiles, mailedLink } from './mail';

const ORGANISER = 'e2e.programme@example.org';
const PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n2 0 obj\n<< /Type /Pages /Kids [] /Count 0 >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n',
);

test.use({ reducedMotion: 'reduce', viewport: { width: 1280, height: 900 } });
test.describe.configure({ timeout: 120_000 });

/** Sends a paper through the public form's API; its reference. */
async function submitPaper(page: Page, email: string, title: string): Promise<string> {
  const response = await page.request.post('/api/paper-submission', {
    headers: { origin: new URL(page.url()).origin },
    multipart: {
      authorName: 'Ana Cruz',
      coAuthorName: 'Ben Reyes',
      number: '+639171234567',
      email,
      country: 'Philippines',
      paperTitle: title,
      department: 'Electrical Engineering',
      universityOrganization: 'University of Manila',
      paperType: 'Full Paper',
      presentationType: 'Oral',
      conferenceSource: 'linkedin',
      message: 'Keywords: tides.',
      file: { name: 'paper.pdf', mimeType: 'application/pdf', buffer: PDF },
    },
  });
  expect(response.status(), await response.text()).toBe(201);
  return (await response.json()).reference as string;
}

/** Ticks `references` in the list, chooses `decision`, reviews and confirms the selection. */
async function decide(page: Page, filter: string, references: string[], decision: 'Accept' | 'Reject') {
  await page.goto(`/organiser/submissions?q=${encodeURIComponent(filter)}&state=submitted`);
  for (const reference of references) {
    await page.getByRole('checkbox', { name: `Select ${reference}` }).check();
  }
  await page.getByLabel('Decision for the selected rows').selectOption({ label: decision });
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
  await expect(page).toHaveURL(/\/organiser\/submissions\?pending=any$/);
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

  // Sign in by the mailed link.
  await page.goto('/organiser');
  const before = new Set(mailFiles());
  await page.getByLabel('E-mail address').fill(ORGANISER);
  await page.getByRole('button', { name: /sign-in link/i }).click();
  const link = await mailedLink(ORGANISER, /sign-in link/i, /https?:\/\/[^\s"<>]+\/organiser\/sign-in\/[A-Za-z0-9_-]+/, before);
  await page.goto(link);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByText(`Signed in as ${ORGANISER}.`)).toBeVisible();

  // Accept three, reject two: each selection reviewed before it is confirmed.
  await decide(page, run, references.slice(0, 3), 'Accept');
  await decide(page, run, references.slice(3), 'Reject');

  // The preview: counts, every address, one mail in full; then apply.
  await page.getByRole('link', { name: 'Dashboard' }).click();
  await page.getByRole('link', { name: 'Apply decisions' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Apply decisions' })).toBeVisible();
  const table = page.getByRole('table', { name: 'Mails to send' });
  for (const email of authors) await expect(table.getByRole('cell', { name: email, exact: true })).toBeVisible();
  await expect(page.locator('#count-accepted')).toHaveText(/^\d+$/);
  await expect(page.getByRole('heading', { level: 2, name: 'The first mail in full' })).toBeVisible();
  expect(await seriousViolations(page), 'axe on the preview').toEqual([]);
  const mailsBefore = new Set(mailFiles());
  await page.getByRole('button', { name: /^Apply \d+ decisions and send \d+ mails$/ }).click();
  await expect(page.locator('.organiser__notice')).toHaveText(/^\d+ decisions applied; \d+ mails queued\.$/);

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
  await expect(page.getByRole('cell', { name: 'submission.decision_applied' })).toBeVisible();
  expect(await seriousViolations(page), 'axe on the submission page').toEqual([]);
});
