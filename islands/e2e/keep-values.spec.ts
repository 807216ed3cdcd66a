// What a visitor enters is never lost when an island takes over (issue 24): one row per
// intent-loaded form island, each on a fresh page, values entered with fill() (and
// setInputFiles) right as the island starts loading, then checked after it mounted, with
// what the island derives from them. src/form-islands.test.ts fails when an intent-loaded
// island with form controls has no row in FORM_ISLANDS.
//
// Each row runs twice: with the island's chunk held back until every value is in (the values
// are certainly entered into the server's fallback, the case that lost the custom amount),
// and with the chunk arriving when it does (the swap may fall between two fills).
import type { Locator, Page } from '@playwright/test';
import { test, expect } from './fixtures';
import { island, withoutNotice } from './island-helpers';
import { GOLD_PACKAGE, PRESENTER_VIRTUAL } from './content';

const PDF = Buffer.from('%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n');

interface FormIslandRow {
  /** What the row covers. */
  title: string;
  /** The `data-island` name; more than one row may cover one island. */
  island: string;
  path: string;
  /** Narrows down to one of several islands of that name (a ticket card). */
  within?: string;
  /**
   * Enters values into the server's fallback; its first action is the intent that starts
   * the loading. Runs while the chunk is held back, in the first run.
   */
  enter(page: Page, el: Locator): Promise<void>;
  /** For an island whose form opens once it is there (the checkout modal): fills it. */
  thenEnter?(page: Page, el: Locator): Promise<void>;
  /** After mount: every value is still there, derived displays are right, focus kept. */
  check(page: Page, el: Locator): Promise<void>;
}

/** A US number NXX-555-0123 as the phone input shows it, national or international. */
const US_NUMBER = (area: string) => new RegExp(`^(\\+1 )?\\(?${area}\\)? ?555[- ]0123$`);
const byLabel = (scope: Locator, label: string) => scope.getByLabel(label, { exact: true });
const dialogField = (dialog: Locator, name: string) => dialog.getByRole('textbox', { name, exact: true });

/** The registration modal's fields and what each row fills in. */
const REGISTRATION: Array<[string, string]> = [
  ['Name', 'Ada Lovelace'],
  ['Email', 'ada@example.org'],
  ['Address', '1 Main Street'],
  ['City', 'Springfield'],
  ['State', 'Illinois'],
  ['ZIP Code', '62701'],
  ['Country', 'United States'],
];

/** The table: every intent-loaded island with form controls has at least one row. */
const FORM_ISLANDS: FormIslandRow[] = [
  {
    title: 'newsletter: the address',
    island: 'Newsletter',
    path: '/',
    async enter(_page, el) {
      await byLabel(el, 'Email address').fill('ana.cruz@example.org');
    },
    async check(_page, el) {
      const email = byLabel(el, 'Email address');
      await expect(email).toHaveValue('ana.cruz@example.org');
      await expect(email).toBeFocused();
      // The island's state has it too: subscribing sends it, no "required" complaint.
      await expect(el.locator('#newsletter-status')).toHaveText('');
    },
  },
  {
    title: 'contact form: every field',
    island: 'ContactForm',
    path: '/',
    async enter(_page, el) {
      await byLabel(el, 'Name').fill('Ana Cruz');
      await byLabel(el, 'Phone / Whatsapp.no').fill('2015550123');
      await byLabel(el, 'Email address').fill('ana.cruz@example.org');
      await byLabel(el, 'Country').fill('Philippines');
      await byLabel(el, 'Message').fill('Is there a student rate?\nThank you.');
    },
    async check(_page, el) {
      await expect(byLabel(el, 'Name')).toHaveValue('Ana Cruz');
      // The island's phone input formats the number (US by default): the digits stay.
      await expect(byLabel(el, 'Phone / Whatsapp.no')).toHaveValue(US_NUMBER('201'));
      await expect(byLabel(el, 'Email address')).toHaveValue('ana.cruz@example.org');
      await expect(byLabel(el, 'Country')).toHaveValue('Philippines');
      const message = byLabel(el, 'Message');
      await expect(message).toHaveValue('Is there a student rate?\nThank you.');
      await expect(message).toBeFocused();
      await message.press('End');
      await message.pressSequentially('!');
      await expect(message).toHaveValue('Is there a student rate?\nThank you.!');
    },
  },
  {
    title: 'paper form: text, phone, radios, select, file',
    island: 'PaperForm',
    path: '/submission',
    async enter(page, el) {
      const form = el.locator('form');
      await byLabel(form, 'Author name').fill('Ana Cruz');
      await byLabel(form, 'Co-author name(s)').fill('Ben Reyes');
      await byLabel(form, 'Phone').fill('4155550123');
      await byLabel(form, 'Email address').fill('ana.cruz@example.org');
      await byLabel(form, 'Country').fill('Philippines');
      await byLabel(form, 'Paper title').fill('Tidal lanterns');
      await byLabel(form, 'Department').fill('Harbour Studies');
      await byLabel(form, 'University / Organization').fill('Quillmouth Institute');
      await byLabel(form, 'Full Paper').check();
      await byLabel(form, 'Oral').check();
      await byLabel(form, 'How did you hear about the conference?').selectOption('linkedin');
      await page.locator('#paper-file').setInputFiles({ name: 'lanterns.pdf', mimeType: 'application/pdf', buffer: PDF });
      await byLabel(form, 'Message').fill('Corresponding author: Ana Cruz.');
    },
    async check(_page, el) {
      const form = el.locator('form');
      await expect(byLabel(form, 'Author name')).toHaveValue('Ana Cruz');
      await expect(byLabel(form, 'Co-author name(s)')).toHaveValue('Ben Reyes');
      await expect(byLabel(form, 'Phone')).toHaveValue(US_NUMBER('415'));
      await expect(byLabel(form, 'Email address')).toHaveValue('ana.cruz@example.org');
      await expect(byLabel(form, 'Country')).toHaveValue('Philippines');
      await expect(byLabel(form, 'Paper title')).toHaveValue('Tidal lanterns');
      await expect(byLabel(form, 'Department')).toHaveValue('Harbour Studies');
      await expect(byLabel(form, 'University / Organization')).toHaveValue('Quillmouth Institute');
      await expect(byLabel(form, 'Full Paper')).toBeChecked();
      await expect(byLabel(form, 'Abstract')).not.toBeChecked();
      await expect(byLabel(form, 'Oral')).toBeChecked();
      await expect(byLabel(form, 'How did you hear about the conference?')).toHaveValue('linkedin');
      await expect(form.locator('.paper-drop__file')).toHaveText(/^Selected: lanterns\.pdf \(/);
      await expect(form.locator('.field__error, [role="alert"]')).toHaveCount(0);
      await expect(byLabel(form, 'Message')).toHaveValue('Corresponding author: Ana Cruz.');
      await expect(byLabel(form, 'Message')).toBeFocused();
    },
  },
  {
    title: 'custom amount: the amount, its tax and total',
    island: 'CustomPayment',
    path: '/pricing',
    async enter(_page, el) {
      await byLabel(el, 'Amount (USD)').fill('100');
    },
    async check(_page, el) {
      const amount = byLabel(el, 'Amount (USD)');
      await expect(amount).toHaveValue('100');
      const rows = el.locator('.custom-payment__breakdown dd');
      await expect(rows).toHaveText(['USD 100.00', 'USD 6.00', 'USD 106.00']);
      await expect(amount).toBeFocused();
      // Typing on goes on after what is there (the issue saw "5", not "1005").
      await amount.press('End');
      await amount.pressSequentially('5');
      await expect(amount).toHaveValue('1005');
      await expect(rows).toHaveText(['USD 1,005.00', 'USD 60.30', 'USD 1,065.30']);
    },
  },
  {
    title: "ticket card: Register Now opens the checkout modal, whose fields keep what is typed as it opens",
    island: 'TicketCheckout',
    path: '/pricing',
    within: `#plan-${PRESENTER_VIRTUAL.id}`,
    async enter(_page, el) {
      await el.getByRole('link', { name: `Register Now for ${PRESENTER_VIRTUAL.title}` }).click();
    },
    async thenEnter(page) {
      const dialog = page.getByRole('dialog', { name: `Register: ${PRESENTER_VIRTUAL.title}` });
      await dialogField(dialog, 'Phone').fill('2015550123');
      for (const [name, value] of REGISTRATION) await dialogField(dialog, name).fill(value);
    },
    async check(page) {
      const dialog = page.getByRole('dialog', { name: `Register: ${PRESENTER_VIRTUAL.title}` });
      for (const [name, value] of REGISTRATION) await expect(dialogField(dialog, name)).toHaveValue(value);
      await expect(dialogField(dialog, 'Phone')).toHaveValue(US_NUMBER('201'));
      await expect(dialogField(dialog, 'Country')).toBeFocused();
      await expect(dialog.getByRole('button', { name: /^Pay Now/ })).toHaveText(`Pay Now USD ${PRESENTER_VIRTUAL.amount}`);
      await expect(dialog.locator('.field__error')).toHaveCount(0);
    },
  },
  {
    title: 'sponsor package: Sponsor now opens the checkout modal, whose fields keep what is typed as it opens',
    island: 'SponsorCheckout',
    path: '/sponsorship',
    within: `#package-${GOLD_PACKAGE.id}`,
    async enter(_page, el) {
      await el.getByRole('link', { name: `Sponsor now for ${GOLD_PACKAGE.title}` }).click();
    },
    async thenEnter(page) {
      const dialog = page.getByRole('dialog', { name: `Sponsor: ${GOLD_PACKAGE.title}` });
      await dialogField(dialog, 'Name').fill('Harbour Lights Ltd');
      await dialogField(dialog, 'Email').fill('lights@example.org');
    },
    async check(page) {
      const dialog = page.getByRole('dialog', { name: `Sponsor: ${GOLD_PACKAGE.title}` });
      await expect(dialogField(dialog, 'Name')).toHaveValue('Harbour Lights Ltd');
      await expect(dialogField(dialog, 'Email')).toHaveValue('lights@example.org');
      await expect(dialogField(dialog, 'Email')).toBeFocused();
      await expect(dialog.getByRole('button', { name: /^Pay Now/ })).toHaveText(`Pay Now USD ${GOLD_PACKAGE.shown}`);
    },
  },
];

/** Holds the island's chunk back until `release()`; `requested` resolves once it was asked for. */
async function holdChunk(page: Page, name: string) {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let requested!: () => void;
  const asked = new Promise<void>((resolve) => (requested = resolve));
  await page.route(new RegExp(`/assets/${name}-[\\w-]+\\.js$`), async (route) => {
    requested();
    await released;
    await route.continue();
  });
  return { release, requested: asked };
}

test.beforeEach(async ({ page }) => withoutNotice(page));

for (const row of FORM_ISLANDS) {
  test.describe(row.title, () => {
    test('values entered while the chunk is held back are all there after mount', async ({ page }) => {
      const chunk = await holdChunk(page, row.island);
      await page.goto(row.path);
      const el = island(page, row.island, row.within ? page.locator(row.within) : undefined);
      await row.enter(page, el);
      await chunk.requested;
      await expect(el).not.toHaveAttribute('data-island-ready', '');
      chunk.release();
      await expect(el).toHaveAttribute('data-island-ready', '');
      await row.thenEnter?.(page, el);
      await row.check(page, el);
    });

    test('values entered as the island loads, whenever its chunk arrives, are all there after mount', async ({ page }) => {
      await page.goto(row.path);
      const el = island(page, row.island, row.within ? page.locator(row.within) : undefined);
      await row.enter(page, el);
      await expect(el).toHaveAttribute('data-island-ready', '');
      await row.thenEnter?.(page, el);
      await row.check(page, el);
    });
  });
}

test('a value set in the same task as the focus that starts the loading is kept (a paste, autofill)', async ({ page }) => {
  await page.goto('/pricing');
  const el = island(page, 'CustomPayment');
  const amount = byLabel(el, 'Amount (USD)');
  await amount.evaluate((input: HTMLInputElement) => {
    input.focus();
    input.value = '250';
    input.dispatchEvent(new Event('input', { bubbles: true }));
  });
  await expect(el).toHaveAttribute('data-island-ready', '');
  await expect(amount).toHaveValue('250');
  await expect(el.locator('.custom-payment__total dd')).toHaveText('USD 265.00');
  await expect(amount).toBeFocused();
});
