// The paper submission page (spec sections 2, 5 and 8; DESIGN.md sections 5 and 7): the
// PaperForm island over the server form, its drop zone, its checks in the spec's order, the
// upload progress bar and the toasts, against the real server.
import type { Locator, Page } from '@playwright/test';
import { test, expect } from './fixtures';
import { chunkRequests, mounted } from './island-helpers';

const PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n2 0 obj\n<< /Type /Pages /Kids [] /Count 0 >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n',
);
const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6360000002000001e221bc330000000049454e44ae426082',
  'hex',
);
const API = '**/api/paper-submission';

/** Opens the page and reaches for the form, which loads its island (`data-hydrate="intent"`). */
async function openForm(page: Page): Promise<Locator> {
  await page.goto('/submission');
  return mounted(page, 'PaperForm');
}

/** The paper form (labels such as "Email address" also exist elsewhere on the page). */
const inForm = (page: Page) => page.locator('[data-island="PaperForm"] form');

/** The file input the drop zone owns (hidden; Playwright sets its files directly). */
const fileInput = (page: Page) => page.locator('#paper-file');

async function chooseFile(page: Page, name: string, buffer: Buffer, mimeType: string) {
  await fileInput(page).setInputFiles({ name, mimeType, buffer });
}

async function fillFields(page: Page) {
  await inForm(page).getByLabel('Author name', { exact: true }).fill('Ana Cruz');
  await inForm(page).getByLabel('Co-author name(s)', { exact: true }).fill('Ben Reyes');
  await inForm(page).getByLabel('Phone', { exact: true }).fill('4155550123');
  await inForm(page).getByLabel('Email address', { exact: true }).fill('ana.cruz@example.org');
  await inForm(page).getByLabel('Country', { exact: true }).fill('Philippines');
  await inForm(page).getByLabel('Paper title', { exact: true }).fill('Solar microgrids for island communities');
  await inForm(page).getByLabel('Department', { exact: true }).fill('Electrical Engineering');
  await inForm(page).getByLabel('University / Organization', { exact: true }).fill('University of Manila');
  await inForm(page).getByLabel('Full Paper', { exact: true }).check();
  await inForm(page).getByLabel('Oral', { exact: true }).check();
  await inForm(page).getByLabel('How did you hear about the conference?', { exact: true }).selectOption('linkedin');
  await inForm(page).getByLabel('Message', { exact: true }).fill('Corresponding author: Ana Cruz.');
}

const submit = (page: Page) => page.getByRole('button', { name: 'Submit paper' }).click();
const status = (page: Page) => page.locator('.paper-form__status');
const chosen = (page: Page) => page.locator('.paper-drop__file');

test('the form loads its island only when reached for, keeping the file and text chosen before', async ({ page }) => {
  const chunks = chunkRequests(page);
  await page.goto('/submission');
  const island = page.locator('[data-island="PaperForm"]');
  await page.waitForLoadState('networkidle');
  expect(chunks).not.toContain('PaperForm');
  await expect(island).not.toHaveAttribute('data-island-ready', '');
  // A file chosen and a name typed into the server's form: typing is the intent that loads it.
  await chooseFile(page, 'early.pdf', PDF, 'application/pdf');
  await inForm(page).getByLabel('Author name', { exact: true }).fill('Ana Cruz');
  await expect(island).toHaveAttribute('data-island-ready', '');
  expect(chunks).toContain('PaperForm');
  await expect(inForm(page).getByLabel('Author name', { exact: true })).toHaveValue('Ana Cruz');
  await expect(chosen(page)).toHaveText(`Selected: early.pdf (${PDF.length} bytes)`);
});

test('a paper is submitted with upload progress, both toasts, and the form resets', async ({ page }) => {
  await openForm(page);
  // The drop zone takes one file; a second choice replaces the first.
  await chooseFile(page, 'draft.docx', PDF, 'application/vnd.openxmlformats-officedocument.wordprocessingml.document');
  await expect(chosen(page)).toHaveText(/Selected: draft\.docx/);
  await chooseFile(page, 'paper.pdf', PDF, 'application/pdf');
  await expect(chosen(page)).toHaveText(`Selected: paper.pdf (${PDF.length} bytes)`);
  await fillFields(page);

  // Hold the request until the progress bar has been seen.
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(API, async (route) => {
    await held;
    await route.continue();
  });
  const answer = page.waitForResponse((r) => r.url().endsWith('/api/paper-submission'));
  await submit(page);
  // Either the upload starts or the form says what it refused: a refusal fails here with the
  // form's own words rather than as a missing progress bar.
  const progress = inForm(page).getByRole('progressbar', { name: /Uploading your paper/ });
  await expect(progress.or(status(page))).toBeVisible();
  await expect(status(page), 'the form refused the filled-in submission').toHaveCount(0);
  await expect(progress).toBeVisible();
  await expect(page.getByRole('button', { name: 'Submitting…' })).toBeDisabled();
  release();

  const response = await answer;
  expect(response.status()).toBe(201);
  expect((await response.json()).reference).toMatch(/^P-\d{4}-[A-Z2-9]{6}$/);
  const request = response.request();
  expect(request.headers()['content-type']).toMatch(/^multipart\/form-data; boundary=/);

  const toasts = page.locator('.Toastify');
  await expect(toasts.getByText('Paper submitted successfully!')).toBeVisible();
  await expect(toasts.getByText('Our coordinator will contact you within 24-48 hours')).toBeVisible();
  await expect(inForm(page).getByRole('progressbar')).toHaveCount(0);

  // The form is reset and the file cleared.
  for (const label of ['Author name', 'Email address', 'Paper title', 'Message']) {
    await expect(inForm(page).getByLabel(label, { exact: true })).toHaveValue('');
  }
  await expect(inForm(page).getByLabel('Phone', { exact: true })).toHaveValue('');
  await expect(inForm(page).getByLabel('Full Paper', { exact: true })).not.toBeChecked();
  await expect(inForm(page).getByLabel('How did you hear about the conference?', { exact: true })).toHaveValue('');
  await expect(chosen(page)).toHaveText('No file chosen');
  await expect(page.getByRole('button', { name: 'Submit paper' })).toBeEnabled();
});

test('the checks come in the spec order: file, then paper type, then the fields', async ({ page }) => {
  await openForm(page);
  let posts = 0;
  page.on('request', (r) => {
    if (r.method() === 'POST' && r.url().endsWith('/api/paper-submission')) posts++;
  });

  await submit(page);
  await expect(status(page)).toHaveText('Please upload your paper file');
  await expect(page.getByRole('button', { name: 'Choose file' })).toBeFocused();

  await chooseFile(page, 'paper.pdf', PDF, 'application/pdf');
  await submit(page);
  await expect(status(page)).toHaveText('Please select a paper type');

  await inForm(page).getByLabel('Abstract', { exact: true }).check();
  await submit(page);
  await expect(status(page)).toHaveText('Please enter the author name');
  await expect(inForm(page).getByLabel('Author name', { exact: true })).toBeFocused();
  await expect(inForm(page).getByLabel('Author name', { exact: true })).toHaveAttribute('aria-invalid', 'true');

  await inForm(page).getByLabel('Author name', { exact: true }).fill('Ana Cruz');
  await submit(page);
  await expect(status(page)).toHaveText('Please enter your phone number');
  expect(posts, 'nothing is sent while the form has problems').toBe(0);
});

test('a failed submission shows the error toast and keeps the form', async ({ page, problems }) => {
  problems.allow(/500/);
  await openForm(page);
  await page.route(API, (route) =>
    route.fulfill({
      status: 500,
      contentType: 'application/json',
      body: JSON.stringify({ message: 'Something went wrong on our side. Please try again later.' }),
    }),
  );
  await chooseFile(page, 'paper.pdf', PDF, 'application/pdf');
  await fillFields(page);
  await submit(page);

  await expect(page.locator('.Toastify').getByText('Error submitting form. Please try again.')).toBeVisible();
  await expect(inForm(page).getByLabel('Author name', { exact: true })).toHaveValue('Ana Cruz');
  await expect(inForm(page).getByLabel('Paper title', { exact: true })).toHaveValue('Solar microgrids for island communities');
  await expect(inForm(page).getByLabel('Phone', { exact: true })).not.toHaveValue('');
  await expect(inForm(page).getByLabel('Full Paper', { exact: true })).toBeChecked();
  await expect(chosen(page)).toHaveText(/Selected: paper\.pdf/);
  await expect(page.getByRole('button', { name: 'Submit paper' })).toBeEnabled();
});

test('the server refusing an image renamed .pdf is said plainly', async ({ page, problems }) => {
  problems.allow(/415/);
  await openForm(page);
  await chooseFile(page, 'paper.pdf', PNG, 'application/pdf');
  await fillFields(page);
  await submit(page);
  await expect(page.locator('.Toastify').getByText('Error submitting form. Please try again.')).toBeVisible();
  await expect(status(page)).toHaveText('The paper must be a PDF, DOC or DOCX file');
  await expect(inForm(page).getByLabel('Author name', { exact: true })).toHaveValue('Ana Cruz');
});

test('the drop zone refuses other types and several files in words', async ({ page }) => {
  await openForm(page);
  await chooseFile(page, 'photo.png', PNG, 'image/png');
  const problem = page.locator('.paper-drop + .field__error');
  await expect(problem).toHaveText('File type must be PDF, DOC or DOCX');
  await expect(chosen(page)).toHaveText('No file chosen');

  // Dropping files: two at once are too many; one valid file is taken and clears the message.
  const drop = async (names: string[]) => {
    const dataTransfer = await page.evaluateHandle((names) => {
      const dt = new DataTransfer();
      for (const name of names) dt.items.add(new File(['%PDF-1.4\n%%EOF\n'], name, { type: 'application/pdf' }));
      return dt;
    }, names);
    await page.locator('.paper-drop').dispatchEvent('drop', { dataTransfer });
  };
  await drop(['a.pdf', 'b.pdf']);
  await expect(problem).toHaveText('Too many files');
  await drop(['dropped.pdf']);
  await expect(chosen(page)).toHaveText(/Selected: dropped\.pdf/);
  await expect(problem).toHaveCount(0);
});

test('mounting the island does not move the form', { tag: '@phone' }, async ({ page, browser }) => {
  const measure = async (p: Page) =>
    p.locator('form.paper-form').evaluate((form) => {
      const box = form.getBoundingClientRect();
      const button = form.querySelector('button[type="submit"]')!.getBoundingClientRect();
      return { height: Math.round(box.height), button: Math.round(button.top - box.top) };
    });
  await openForm(page);
  const withIsland = await measure(page);

  const plain = await browser.newContext({ javaScriptEnabled: false, viewport: page.viewportSize() ?? undefined });
  const noJs = await plain.newPage();
  await noJs.goto('/submission');
  const withoutIsland = await measure(noJs);
  await plain.close();
  expect(withIsland).toEqual(withoutIsland);
});
