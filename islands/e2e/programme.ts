// A published programme, made as an organiser makes one (issue 31 items 2 and 3): papers sent
// through the public API, accepted on the submissions list, placed into sessions on
// /organiser/programme and published there under a name. For the specs that need talks on
// /schedule (the organisers' own flow, the stars and My agenda).
//
// The e2e server is shared by every spec, and so is its one draft programme: the papers and
// titles carry a run id, only this run's decisions are applied (another spec's pending ones
// stay pending), and a version someone published in between (409) is answered as an organiser
// would, by publishing again from the page as it is now.
//
// The draft's sessions hold every spec's talks at once (specs run side by side, and a talk
// running past its session's end is a conflict that stops every publish): Fixture session A
// and B have 180 minutes each. programme-organiser.spec.ts takes 80 (A) and 75 (B),
// programme-stars.spec.ts 10 and 10 (20 and 20 when a failed test restarts its worker, which
// publishes again). A new spec adds its minutes here and keeps the sums within 180.
import type { Page } from '@playwright/test';
import { expect, type Problems } from './fixtures';
import { submitPaper } from './papers';
import { signInAs } from './sign-in';

export interface ProgrammeOptions {
  /** An address in ORGANISER_EMAIL (playwright.config.ts) that no other spec signs in as. */
  organiser: string;
  /** How many papers (default 10), placed in turn: the first half in the first session. */
  papers?: number;
  /** Technical or poster session slugs of the fixture (default session-a and session-b). */
  sessions?: string[];
  /** Each talk's minutes (default 15). */
  minutes?: number;
  /** The version's name (default "Programme <run>"). */
  name?: string;
  /** The test's problems: given, a 409 from a version published in between is expected. */
  problems?: Problems;
}

export interface PublishedProgramme {
  /** The run id in every title and author address. */
  run: string;
  references: string[];
  /** `<run> tide talk <n>`, in the order of `references`. */
  titles: string[];
  /** Each paper's session slug, in the same order. */
  sessions: string[];
  /** The version published and its name. */
  version: number;
  name: string;
}

/** A name for this run's papers, unique among the specs sharing the server. */
function runId(): string {
  return `Prog${Date.now().toString(36)}${Math.floor(Math.random() * 1296).toString(36)}`;
}

/** Accepts `references` (found by `run` on the list) as an organiser does, applying only them. */
async function accept(page: Page, run: string, references: string[]): Promise<void> {
  await page.goto(`/organiser/submissions?q=${encodeURIComponent(run)}&state=submitted`);
  for (const reference of references) {
    await page.getByRole('checkbox', { name: `Select ${reference}` }).check();
  }
  await page.getByLabel('Decision for the selected rows').selectOption({ label: 'Accept' });
  await page.getByRole('button', { name: 'Review the selection' }).click();
  await page.getByRole('button', { name: /^Confirm: accept \d+ submissions?$/ }).click();
  await expect(page.getByRole('status').filter({ hasText: 'pending decision' })).toBeVisible();
  // The preview's button would apply every spec's pending decisions; post this run's only.
  await page.goto('/organiser/decisions');
  const items = (await page.locator("form[action='/organiser/decisions/apply'] input[name=item]").evaluateAll(
    (inputs) => inputs.map((input) => (input as HTMLInputElement).value),
  )).filter((item) => references.some((reference) => item.startsWith(`${reference}:`)));
  const response = await page.request.post('/organiser/decisions/apply', {
    headers: { origin: new URL(page.url()).origin, 'content-type': 'application/x-www-form-urlencoded' },
    data: items.map((item) => `item=${encodeURIComponent(item)}`).join('&'),
  });
  expect(response.status(), await response.text()).toBe(200);
  await page.goto(`/organiser/submissions?q=${encodeURIComponent(run)}&state=accepted`);
  await expect(page.getByRole('region', { name: 'Submissions' }).locator('tbody tr')).toHaveCount(references.length);
}

/** Places `reference` in `session` for `minutes` with the session's "Place a paper" form. */
export async function placePaper(page: Page, reference: string, title: string, session: string, minutes: number) {
  if (!page.url().endsWith('/organiser/programme') && !page.url().includes('/organiser/programme?')) {
    await page.goto('/organiser/programme');
  }
  const form = page.locator(`#session-${session} form.programme-place`);
  await form.getByLabel('Paper', { exact: true }).selectOption(reference);
  await form.getByLabel('Minutes', { exact: true }).fill(String(minutes));
  await form.getByRole('button', { name: /^Place the paper in / }).click();
  await expect(page.getByRole('status')).toHaveText(`“${title}” is placed; the session below shows it.`);
  await expect(page.locator(`#session-${session} #talk-${reference}`)).toBeVisible();
}

/** Publishes the draft under `name` from /organiser/programme; the version's number. */
export async function publishDraft(page: Page, name: string, problems?: Problems): Promise<number> {
  await page.goto('/organiser/programme');
  // Someone may publish between drawing the page and pressing the button (409, the page
  // again with the next number): a few attempts, as an organiser would press it again.
  for (let attempt = 1; ; attempt++) {
    const label = page.locator('label[for=version-name]');
    const number = Number((await label.textContent())!.replace('Name of version ', ''));
    await page.getByLabel(`Name of version ${number}`).fill(name);
    await page.getByRole('button', { name: `Publish version ${number}` }).click();
    const done = page.getByRole('status').filter({ hasText: `Version ${number} “${name}” is published.` });
    const taken = page.getByRole('alert').filter({ hasText: 'was just published by someone else' });
    await expect(done.or(taken)).toBeVisible();
    if (await done.isVisible()) {
      // Visitors see a version once the server's content watcher has loaded it (within its
      // one-second poll): wait for /schedule to show this version or a later one, so a spec
      // that opens the page next finds the talks rather than the page of a second before.
      await expect
        .poll(async () => Number((await (await page.request.get('/schedule')).text()).match(/Version (\d+):/)?.[1] ?? 0))
        .toBeGreaterThanOrEqual(number);
      return number;
    }
    if (!problems || attempt >= 3) throw new Error(`version ${number} was published by someone else first`);
    problems.allow(/409/);
  }
}

/**
 * Signs `options.organiser` in, sends `papers` (10) papers, accepts them, places them into
 * `sessions` (session-a, session-b) for `minutes` (15) each and publishes the programme.
 */
export async function publishProgramme(page: Page, options: ProgrammeOptions): Promise<PublishedProgramme> {
  const count = options.papers ?? 10;
  const sessions = options.sessions ?? ['session-a', 'session-b'];
  const minutes = options.minutes ?? 15;
  const run = runId();
  const name = options.name ?? `Programme ${run}`;
  if (!page.url().startsWith('http')) await page.goto('/');
  const titles = Array.from({ length: count }, (_, n) => `${run} tide talk ${n}`);
  const references: string[] = [];
  for (const [n, title] of titles.entries()) {
    references.push(await submitPaper(page, `e2e.speaker${n}.${run.toLowerCase()}@example.org`, title));
  }
  await signInAs(page, options.organiser);
  await accept(page, run, references);
  const perSession = Math.ceil(count / sessions.length);
  const placedIn = references.map((_, n) => sessions[Math.min(sessions.length - 1, Math.floor(n / perSession))]);
  await page.goto('/organiser/programme');
  for (const [n, reference] of references.entries()) {
    await placePaper(page, reference, titles[n], placedIn[n], minutes);
  }
  const version = await publishDraft(page, name, options.problems);
  return { run, references, titles, sessions: placedIn, version, name };
}
