// Downloads in a real browser (issue 30): Chromium asks with `Accept-Encoding: gzip, deflate,
// br, zstd`, and every organiser CSV and paper arrived cut off that way. An organiser
// downloads a paper from its submission's page and the CSV of a filtered list by clicking
// their links, as a person does; the saved files must be what was submitted, byte for byte,
// and the CSV the same as the server's identity answer.
import { readFileSync } from 'node:fs';
import { test, expect } from './fixtures';
import { signInAs } from './sign-in';
import { submitPaper } from './papers';

/** The organiser of this spec (playwright.config.ts, ORGANISER_EMAIL). */
const ORGANISER = 'e2e.downloads@example.org';

test.use({ viewport: { width: 1280, height: 900 } });
test.describe.configure({ timeout: 90_000 });

/** A PDF of about 300 KiB: several of the server's 64 KiB chunks, bytes that do not repeat. */
function paper(title: string): Buffer {
  const head = Buffer.from(`%PDF-1.4\n% ${title}\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n2 0 obj\n<< /Type /Pages /Kids [] /Count 0 >>\nendobj\n`);
  const lines: string[] = [];
  let x = 2463534242;
  for (let i = 0; i < 4800; i++) {
    // xorshift32: a fixed, non-repeating padding that compresses badly, like a real PDF's streams.
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    lines.push(`% ${(x >>> 0).toString(16).padStart(8, '0')}${i.toString(36).padStart(4, '0')}${'0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJ'.slice(i % 7)}`);
  }
  return Buffer.concat([head, Buffer.from(lines.join('\n')), Buffer.from('\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n')]);
}

test('an organiser downloads a paper and a filtered CSV whole, as submitted', async ({ page }) => {
  const title = `Tide tables by lantern light ${Date.now()}`;
  const pdf = paper(title);
  const reference = await submitPaper(page, 'dara.lim@example.org', title, pdf);

  await signInAs(page, ORGANISER);

  // The filtered list, its CSV by its link.
  await page.goto(`/organiser/submissions?q=${encodeURIComponent(reference)}`);
  await expect(page.getByRole('status').filter({ hasText: 'found' })).toContainText('1 found');
  const csvLink = page.getByRole('link', { name: 'Download these as CSV' });
  const [csv] = await Promise.all([page.waitForEvent('download'), csvLink.click()]);
  expect(csv.suggestedFilename()).toBe('submissions.csv');
  expect(await csv.failure(), 'the CSV download completes').toBeNull();
  const saved = readFileSync((await csv.path())!);
  const text = saved.toString('utf8');
  expect(text.split('\r\n')[0] || text.split('\n')[0], 'the header row').toContain('reference');
  expect(text).toContain(reference);
  expect(text).toContain(title);
  expect(text).toContain('dara.lim@example.org');
  // The same view as the server sends it uncompressed: not one byte lost on the way.
  const identity = await page.request.get((await csvLink.getAttribute('href'))!, { headers: { 'accept-encoding': 'identity' } });
  expect(identity.status()).toBe(200);
  expect(saved.equals(await identity.body()), 'the saved CSV is the whole answer').toBe(true);

  // The submission's page, its paper by its link.
  await page.getByRole('link', { name: reference }).click();
  await expect(page.getByRole('heading', { level: 1, name: `Submission ${reference}` })).toBeVisible();
  const [file] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('link', { name: 'Download the paper (pdf)' }).click(),
  ]);
  expect(file.suggestedFilename()).toBe(`${reference}.pdf`);
  expect(await file.failure(), 'the paper download completes').toBeNull();
  const downloaded = readFileSync((await file.path())!);
  expect(downloaded.length).toBe(pdf.length);
  expect(downloaded.equals(pdf), 'the paper is the submitted file, byte for byte').toBe(true);
});
