// Peer review from end to end (issue 32, "Done when"), in Chromium on a server of its own
// (playwright.config.ts: automatic assignment takes every submitted paper on its server).
// An organiser invites three reviewers from a pasted list; each accepts from the mail; twelve
// papers are assigned automatically, two reviewers each, and the reviewer from the University
// of Manila never gets a Manila paper; the reviewers sign in and review without ever seeing an
// author; the organiser sorts the papers by score, accepts the better half and rejects the
// rest, and each author's mail carries the reviewers' comments, numbered, never named.
// axe checks every organiser and reviewer page of the path.
import type { Browser, Page } from '@playwright/test';
import { seriousViolations } from './axe';
import { expect, test } from './fixtures';
import { mailFiles, mailedLink, mailedText } from './mail';
import { submitPaper } from './papers';
import { signInAs, signInAsReviewer } from './sign-in';

const base = process.env.E2E_REVIEW_BASE_URL;
const dataDir = process.env.E2E_REVIEW_DATA_DIR;
test.use({ baseURL: base });

const CHAIR = 'e2e.review@example.org';
const REVIEWERS = [
  { name: 'Ada Lovelace', email: 'ada@engines.example', affiliation: 'Analytical Engines' },
  { name: 'Grace Hopper', email: 'grace@compilers.example', affiliation: 'Compiler Works' },
  { name: 'Cy Lim', email: 'cy@manila.example', affiliation: 'The University of Manila' },
];

interface Paper {
  reference: string;
  title: string;
  author: string;
  coAuthor: string;
  email: string;
  university: string;
  department: string;
  /** Reviewed well: accepted at the end. */
  strong: boolean;
}

/** Everything of a paper's authors a reviewer must never see. */
function authorStrings(paper: Paper): string[] {
  return [paper.author, paper.coAuthor, paper.email, paper.department, paper.reference, '+639171234567', 'Philippines'];
}

/** Twelve papers: the first four from the University of Manila; even ones strong. */
async function submitPapers(page: Page): Promise<Paper[]> {
  await page.goto('/');
  const papers: Paper[] = [];
  for (let i = 0; i < 12; i++) {
    const paper = {
      title: `Review path paper ${i} on ${i % 2 === 0 ? 'bright' : 'murky'} tides`,
      author: `Author${i} Tidewell`,
      coAuthor: `Coauthor${i} Shoreham`,
      email: `author${i}@tides${i}.example`,
      university: i < 4 ? 'University of Manila' : `Harbour Institute ${i}`,
      department: `Department of Estuary ${i}`,
      strong: i % 2 === 0,
    };
    const reference = await submitPaper(page, paper.email, paper.title, undefined, {
      authorName: paper.author,
      coAuthorName: paper.coAuthor,
      department: paper.department,
      universityOrganization: paper.university,
    });
    papers.push({ ...paper, reference });
  }
  return papers;
}

async function expectNoSeriousViolations(page: Page) {
  expect(await seriousViolations(page), page.url()).toEqual([]);
}

/** A reviewer's browser, signed in at /review (its sign-in page checked by axe first). */
async function reviewerPage(browser: Browser, email: string): Promise<Page> {
  const context = await browser.newContext({ baseURL: base });
  const page = await context.newPage();
  await page.goto('/review');
  await expect(page.getByRole('heading', { level: 1, name: 'Reviewers' })).toBeVisible();
  await expectNoSeriousViolations(page);
  await signInAsReviewer(page, email, dataDir);
  await expectPlainReviewersHeader(page);
  return page;
}

/**
 * The reviewers' header lists its links as the organisers' header does (class organiser-nav):
 * no bullet or separator drawn before "My papers", and the link at the list's left edge
 * (issue 42 item 4: its list once had no class and showed a stray bullet).
 */
async function expectPlainReviewersHeader(page: Page) {
  const list = page.getByRole('navigation', { name: "Reviewers' area" }).getByRole('list');
  await expect(list).toHaveClass(/\borganiser-nav\b/);
  await expect(list).toHaveCSS('list-style-type', 'none');
  const item = list.getByRole('listitem').first();
  await expect(item).toHaveCSS('list-style-type', 'none');
  const drawn = await item.evaluate((li) =>
    [li, li.parentElement!].flatMap((el) => [getComputedStyle(el, '::before').content, getComputedStyle(el, '::after').content]),
  );
  expect(drawn.filter((content) => content !== 'none' && content !== 'normal'), 'text drawn around the first item').toEqual([]);
  const link = item.getByRole('link', { name: 'My papers' });
  const [listBox, linkBox] = [(await list.boundingBox())!, (await link.boundingBox())!];
  expect(linkBox.x - listBox.x, 'room for a marker before "My papers"').toBeLessThan(2);
}

test('an organiser invites reviewers, assigns papers automatically, and decides from anonymous reviews', async ({
  page,
  browser,
}) => {
  test.setTimeout(300_000);
  expect(base, 'playwright.config.ts sets E2E_REVIEW_BASE_URL').toBeTruthy();
  const papers = await submitPapers(page);
  await signInAs(page, CHAIR, dataDir);

  // Three reviewers from one pasted list; each accepts from the invitation mail.
  await page.goto('/organiser/reviewers');
  await expectNoSeriousViolations(page);
  const before = new Set(mailFiles(dataDir));
  await page
    .getByLabel('Reviewers, one a line (CSV)')
    .fill(REVIEWERS.map((r) => `${r.name},${r.email},${r.affiliation},`).join('\n'));
  await page.getByRole('button', { name: 'Invite everyone on the list' }).click();
  await expect(page.getByRole('status')).toContainText('3');
  for (const reviewer of REVIEWERS) {
    const link = await mailedLink(
      reviewer.email,
      /Invitation to review/,
      /https?:\/\/[^\s"<>]+\/review\/invitation\/[A-Za-z0-9_-]+\?answer=accept/,
      before,
      dataDir,
    );
    const context = await browser.newContext({ baseURL: base });
    const invited = await context.newPage();
    await invited.goto(link);
    await expectNoSeriousViolations(invited);
    await invited.getByRole('button', { name: 'Accept', exact: true }).click();
    await expect(invited.getByRole('link', { name: "Go to the reviewers' sign-in" })).toBeVisible();
    await context.close();
  }
  await page.goto('/organiser/reviewers');
  await expect(page.getByRole('region', { name: 'Reviewers' }).getByRole('cell', { name: 'Accepted', exact: true })).toHaveCount(3);

  // Automatic assignment: staged, previewed, released.
  await page.goto('/organiser/review/assignments');
  await expectNoSeriousViolations(page);
  await page.getByRole('button', { name: 'Stage automatic assignment' }).click();
  await expect(page).toHaveURL(/\/organiser\/review\/assignments\/staged/);
  await expectNoSeriousViolations(page);
  const released = new Set(mailFiles(dataDir));
  await page.getByRole('button', { name: 'Release and mail the reviewers' }).click();
  await expect(page.getByRole('status')).toBeVisible();

  // Each reviewer: eight papers (24 reviews over three), reviewed without an author in sight.
  const manila = papers.filter((p) => p.university === 'University of Manila').map((p) => p.title);
  const forbidden = papers.flatMap(authorStrings);
  let remark = 0;
  const remarks = new Map<string, string[]>();
  for (const reviewer of REVIEWERS) {
    await mailedLink(reviewer.email, /review/i, /https?:\/\/[^\s"<>]+\/review\b/, released, dataDir);
    const reviewing = await reviewerPage(browser, reviewer.email);
    await expectNoSeriousViolations(reviewing);
    const list = reviewing.getByRole('region', { name: 'My papers' });
    await expect(list.locator('tbody tr')).toHaveCount(8);
    const listed = await list.locator('tbody tr td:nth-child(2)').allTextContents();
    if (reviewer.affiliation.includes('Manila')) {
      expect(listed.filter((title) => manila.includes(title)), 'a Manila reviewer gets no Manila paper').toEqual([]);
    }
    const links = await list.getByRole('link').evaluateAll((anchors) =>
      anchors.map((a) => (a as HTMLAnchorElement).getAttribute('href')!),
    );
    for (const [n, href] of links.entries()) {
      await reviewing.goto(href);
      if (n === 0) await expectNoSeriousViolations(reviewing);
      const title = (await reviewing.getByRole('heading', { level: 1 }).textContent())!.replace(/^R-[A-Z0-9]+: /, '');
      const paper = papers.find((p) => p.title === title.trim());
      expect(paper, `a listed paper: ${title}`).toBeDefined();
      const html = await reviewing.content();
      for (const text of forbidden) expect(html, `${href} names no author`).not.toContain(text);
      // Strong papers get the top of every scale, weak ones the bottom.
      const form = reviewing.locator('form').filter({ has: reviewing.getByRole('button', { name: 'Submit review' }) });
      for (const fieldset of await form.locator('fieldset').all()) {
        const legend = (await fieldset.locator('legend').textContent()) ?? '';
        if (legend.startsWith('Recommendation')) {
          await fieldset.getByLabel(paper!.strong ? 'Accept' : 'Reject', { exact: true }).check();
        } else if (legend.startsWith('Your confidence')) {
          await fieldset.getByRole('radio').nth(3).check();
        } else {
          const radios = fieldset.getByRole('radio');
          await (paper!.strong ? radios.last() : radios.first()).check();
        }
      }
      remark += 1;
      const words = `Tidal remark ${remark}`;
      remarks.set(paper!.reference, [...(remarks.get(paper!.reference) ?? []), words]);
      await reviewing.getByLabel('Comments to the authors').fill(`${words}: ${paper!.strong ? 'well argued' : 'needs data'}.`);
      await reviewing.getByLabel('Confidential comments to the committee').fill(`Confidential note ${remark}`);
      await reviewing.getByRole('button', { name: 'Submit review' }).click();
      await expect(reviewing.getByRole('status')).toBeVisible();
    }
    await reviewing.goto('/review');
    await expect(reviewing.getByText('8 of 8 reviews submitted')).toBeVisible();
    await reviewing.context().close();
  }

  // The organiser: progress, then the list sorted by score, the better half accepted.
  await page.goto('/organiser/review');
  await expectNoSeriousViolations(page);
  await page.goto('/organiser/submissions');
  await page.getByLabel('Sort by').selectOption({ label: 'Review score' });
  await page.getByLabel('Order').selectOption({ label: 'Descending' });
  await page.getByRole('button', { name: 'Show' }).click();
  await expectNoSeriousViolations(page);
  const rows = page.getByRole('region', { name: 'Submissions' }).locator('tbody tr');
  await expect(rows).toHaveCount(12);
  const order = await rows.getByRole('link').allTextContents();
  const strong = papers.filter((p) => p.strong).map((p) => p.reference);
  expect(order.slice(0, 6).map((r) => r.trim()).sort()).toEqual([...strong].sort());
  for (const [decision, references] of [
    ['Accept', order.slice(0, 6)],
    ['Reject', order.slice(6)],
  ] as const) {
    for (const reference of references) {
      await page.getByRole('checkbox', { name: `Select ${reference.trim()}` }).check();
    }
    await page.getByLabel('Decision for the selected rows').selectOption({ label: decision });
    await page.getByRole('button', { name: 'Review the selection' }).click();
    await page.getByRole('button', { name: new RegExp(`^Confirm: ${decision.toLowerCase()} 6 submissions$`) }).click();
    await expect(page.getByRole('status').filter({ hasText: 'pending decision' })).toBeVisible();
  }
  const decided = new Set(mailFiles(dataDir));
  await page.goto('/organiser/decisions');
  await page.getByRole('button', { name: 'Apply 12 decisions and send 12 mails' }).click();

  // Each author's mail carries its reviewers' comments under "Reviewer 1/2", never a name or a
  // confidential note.
  for (const paper of papers) {
    const subject = paper.strong ? /acceptance/i : /reject|decision/i;
    const mail = await mailedText(paper.email, subject, decided, /Reviewer 1/, dataDir);
    for (const words of remarks.get(paper.reference)!) expect(mail).toContain(words);
    expect(mail).toContain('Reviewer 2');
    for (const reviewer of REVIEWERS) expect(mail).not.toContain(reviewer.name);
    expect(mail).not.toContain('Confidential note');
  }
});
