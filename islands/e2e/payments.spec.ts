// Registration and payment, end to end: ticket cards and custom payment on /pricing, sponsor
// packages on /sponsorship, the registration modal, the hand-off to the built-in test gateway
// (DESIGN.md section 6: no credentials in tests) and the /Success and /Failed pages.
import { test, expect } from './fixtures';
import { chunkRequests, mounted, withoutNotice } from './island-helpers';
import { GOLD_PACKAGE, LISTENER_PHYSICAL, LISTENER_VIRTUAL, PLAN_FEATURES, PLANS, PRESENTER_PHYSICAL, PRESENTER_VIRTUAL, type Plan } from './content';
import AxeBuilder from '@axe-core/playwright';
import type { Locator, Page } from '@playwright/test';

// The notice popup (bottom-left, 1.5 s after load) would cover the first ticket card's button
// on a desktop screen; it has its own spec.
test.beforeEach(async ({ page }) => withoutNotice(page));

/** The island that replaced a card's Register Now / Sponsor now link. */
function islandIn(page: Page, cardId: string, name = 'TicketCheckout'): Promise<Locator> {
  return mounted(page, name, page.locator(`#${cardId}`));
}

async function openPlan(page: Page, { id, title }: Plan) {
  await page.goto('/pricing');
  const island = await islandIn(page, `plan-${id}`);
  const opener = island.getByRole('button', { name: `Register Now for ${title}` });
  await opener.click();
  const dialog = page.getByRole('dialog', { name: `Register: ${title}` });
  await expect(dialog).toBeVisible();
  return { opener, dialog };
}

async function fillRegistration(dialog: Locator, name = 'Ada Lovelace') {
  await field(dialog, 'Name').fill(name);
  await field(dialog, 'Email').fill('ada@example.org');
  await field(dialog, 'Phone').fill('2015550123');
  await field(dialog, 'Address').fill('1 Main Street');
  await field(dialog, 'City').fill('Springfield');
  await field(dialog, 'ZIP Code').fill('62701');
  await field(dialog, 'Country').fill('United States');
}

/** A text field of the modal by its accessible name (the label without the required mark). */
function field(dialog: Locator, name: string): Locator {
  return dialog.getByRole('textbox', { name, exact: true });
}

/** The value of a row of the order summary the test gateway and the result pages show. */
function summaryValue(page: Page, label: string): Locator {
  return page
    .locator('.order-summary__row')
    .filter({ has: page.locator('dt', { hasText: new RegExp(`^${label}$`) }) })
    .locator('dd');
}

/** Counts POSTs to /api/ccavenue-initiate. */
function countInitiates(page: Page): { readonly count: number } {
  const seen = { count: 0 };
  page.on('request', (request) => {
    if (request.method() === 'POST' && new URL(request.url()).pathname === '/api/ccavenue-initiate') seen.count += 1;
  });
  return seen;
}

test.describe('ticket cards', () => {
  test('show the four plans in USD with their features', async ({ page }) => {
    await page.goto('/pricing');
    for (const plan of PLANS) {
      const card = page.locator(`#plan-${plan.id}`);
      await expect(card.locator('.price__amount')).toHaveText(`USD ${plan.amount}`);
      await expect(card.locator('.check-list li')).toHaveText(PLAN_FEATURES[plan.id]);
    }
  });

  test('a plan paid and approved lands on /Success with the plan and amount', async ({ page }) => {
    const { dialog } = await openPlan(page, PRESENTER_VIRTUAL);
    await expect(dialog).toHaveAttribute('aria-modal', 'true');
    await expect(field(dialog, 'Phone')).toHaveAttribute('type', 'tel');
    await fillRegistration(dialog);
    await dialog.getByRole('button', { name: `Pay Now USD ${PRESENTER_VIRTUAL.amount}` }).click();

    await expect(page).toHaveURL(/\/test-gateway$/);
    await expect(summaryValue(page, 'Amount')).toHaveText(PRESENTER_VIRTUAL.amount);
    await expect(summaryValue(page, 'Currency')).toHaveText('USD');
    await expect(summaryValue(page, 'Billing name')).toHaveText('Ada Lovelace');
    await page.getByRole('button', { name: 'Approve' }).click();

    await expect(page).toHaveURL(/\/Success\?order=ORD/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('success');
    await expect(page.locator('main')).toContainText(PRESENTER_VIRTUAL.title);
    await expect(page.locator('main')).toContainText(PRESENTER_VIRTUAL.amount);
    await expect(page.locator('main')).toContainText('Ada');
  });

  test('a plan declined at the gateway lands on /Failed', async ({ page }) => {
    const { dialog } = await openPlan(page, LISTENER_PHYSICAL);
    await fillRegistration(dialog);
    await dialog.getByRole('button', { name: `Pay Now USD ${LISTENER_PHYSICAL.amount}` }).click();
    await expect(page).toHaveURL(/\/test-gateway$/);
    await expect(summaryValue(page, 'Amount')).toHaveText(LISTENER_PHYSICAL.amount);
    await page.getByRole('button', { name: 'Decline' }).click();

    await expect(page).toHaveURL(/\/Failed\?order=ORD/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Failed');
    await expect(page.locator('main').getByRole('link', { name: 'Back to registration' })).toHaveAttribute('href', '/pricing');
  });

  test('required fields are checked in the modal and nothing is sent', async ({ page }) => {
    const initiates = countInitiates(page);
    const { dialog } = await openPlan(page, LISTENER_VIRTUAL);
    await field(dialog, 'Address').fill('Only the optional address');
    await dialog.getByRole('button', { name: `Pay Now USD ${LISTENER_VIRTUAL.amount}` }).click();

    for (const [label, message] of [
      ['Name', 'Please enter your name'],
      ['Email', 'Please enter your email address'],
      ['Phone', 'Please enter your phone number'],
      ['ZIP Code', 'Please enter your ZIP code'],
      ['Country', 'Please enter your country'],
    ]) {
      const input = field(dialog, label);
      await expect(input).toHaveAttribute('aria-invalid', 'true');
      await expect(input).toHaveAccessibleDescription(message);
    }
    for (const label of ['Address', 'City', 'State']) {
      await expect(field(dialog, label)).not.toHaveAttribute('aria-invalid', 'true');
    }
    await expect(field(dialog, 'Name')).toBeFocused();
    await expect(dialog).toBeVisible();
    expect(initiates.count).toBe(0);
  });

  test("the server's field errors show on the fields, and the form is kept", async ({ page, problems }) => {
    problems.allow(/422/);
    const { dialog } = await openPlan(page, PRESENTER_PHYSICAL);
    // 61 characters: the server takes at most 60 (CCAvenue's billing_name limit).
    const longName = 'A'.repeat(61);
    await fillRegistration(dialog, longName);
    await dialog.getByRole('button', { name: `Pay Now USD ${PRESENTER_PHYSICAL.amount}` }).click();

    const name = field(dialog, 'Name');
    await expect(name).toHaveAttribute('aria-invalid', 'true');
    await expect(name).toHaveAccessibleDescription(/at most 60 characters/);
    await expect(dialog.getByRole('alert')).toContainText('Please check the highlighted fields');
    await expect(name).toHaveValue(longName);
    await expect(field(dialog, 'ZIP Code')).toHaveValue('62701');
    await expect(page).toHaveURL(/\/pricing$/);
  });

  test('Esc, Cancel and the close icon close the modal and give focus back', async ({ page }) => {
    const { opener, dialog } = await openPlan(page, PRESENTER_VIRTUAL);
    await expect(field(dialog, 'Name')).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await expect(opener).toBeFocused();

    await opener.click();
    await expect(dialog).toBeVisible();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toBeHidden();
    await expect(opener).toBeFocused();

    await opener.click();
    await dialog.getByRole('button', { name: 'Close' }).click();
    await expect(dialog).toBeHidden();
    await expect(opener).toBeFocused();
  });

  test('the open modal, with its errors showing, has no accessibility violations', async ({ page }) => {
    const { dialog } = await openPlan(page, PRESENTER_VIRTUAL);
    await dialog.getByRole('button', { name: /^Pay Now/ }).click();
    await expect(field(dialog, 'Name')).toHaveAttribute('aria-invalid', 'true');
    const results = await new AxeBuilder({ page }).include('[role="dialog"]').analyze();
    expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(', ')}`)).toEqual([]);
  });

  test('Tab stays inside the open modal', async ({ page }) => {
    const { dialog } = await openPlan(page, PRESENTER_VIRTUAL);
    const pay = dialog.getByRole('button', { name: /^Pay Now/ });
    await pay.focus();
    await page.keyboard.press('Tab');
    await expect(dialog.getByRole('button', { name: 'Close' })).toBeFocused();
    await page.keyboard.press('Shift+Tab');
    await expect(pay).toBeFocused();
  });
});

test.describe('loading on intent', () => {
  test('/pricing loads no checkout, phone picker or validation until the visitor reaches for them', async ({ page }) => {
    const chunks = chunkRequests(page);
    await page.goto('/pricing');
    await expect(page.locator('[data-island="MobileMenu"]')).toHaveAttribute('data-island-ready', '');
    await expect(page.locator('[data-island="NoticePopup"]')).toHaveAttribute('data-island-ready', '');
    expect(chunks.filter((c) => /Checkout|payment|phone|validate/i.test(c))).toEqual([]);
    await expect(page.locator('[data-island="TicketCheckout"][data-island-ready]')).toHaveCount(0);
  });

  /** Holds the TicketCheckout chunk back until the returned function is called, as a slow
   * link would, so the test decides what happens before the island arrives. */
  async function holdCheckoutChunk(page: Page): Promise<() => void> {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    await page.route(/\/assets\/TicketCheckout-[^/]+\.js$/, async (route) => {
      await released;
      await route.continue();
    });
    return release;
  }

  test('Register Now clicked before its island has loaded opens the modal, without leaving the page', async ({ page }) => {
    const release = await holdCheckoutChunk(page);
    await page.goto('/pricing');
    const card = page.locator(`#plan-${LISTENER_VIRTUAL.id}`);
    // The server's link: the click starts loading the island, which then opens the modal.
    await card.getByRole('link', { name: `Register Now for ${LISTENER_VIRTUAL.title}` }).click();
    release();
    await expect(page.getByRole('dialog', { name: `Register: ${LISTENER_VIRTUAL.title}` })).toBeVisible();
    await expect(page).toHaveURL(/\/pricing$/);
  });

  test('the island arriving while Register Now is pressed waits for the press to end, and the click still opens the modal', async ({ page }) => {
    test.slow();
    const release = await holdCheckoutChunk(page);
    await page.goto('/pricing');
    const link = page.locator(`#plan-${LISTENER_VIRTUAL.id}`).getByRole('link', { name: `Register Now for ${LISTENER_VIRTUAL.title}` });
    await link.hover();
    await page.mouse.down();
    release();
    // Wait until the runtime has everything it needs to mount: it either holds the mount back
    // for the press (data-island-held) or, were it not to wait, has mounted already. Either
    // way the press ends only then, so a runtime that swapped the link away under the pressed
    // button loses the click and the modal below never opens.
    const loaded = page.locator(
      `#plan-${LISTENER_VIRTUAL.id} [data-island="TicketCheckout"]:is([data-island-held], [data-island-ready])`,
    );
    // The chunks (React, the modal, the phone field and its CSS) can take seconds on a busy
    // machine: a longer wait for this state, not a retry.
    await expect(loaded).toBeAttached({ timeout: 30_000 });
    await expect(link).toBeAttached();
    await page.mouse.up();
    await expect(page.getByRole('dialog', { name: `Register: ${LISTENER_VIRTUAL.title}` })).toBeVisible();
    await expect(page).toHaveURL(/\/pricing$/);
  });
});

test.describe('custom payment', () => {
  test('100 is charged as 106.00', async ({ page }) => {
    await page.goto('/pricing');
    const island = await mounted(page, 'CustomPayment', page.locator('#custom-payment'));
    await expect(island.locator('.custom-payment__breakdown')).toHaveCount(0);
    await island.getByLabel('Amount (USD)').fill('100');
    const breakdown = island.locator('.custom-payment__breakdown');
    await expect(breakdown).toContainText('Amount');
    await expect(breakdown.locator('.custom-payment__total dd')).toHaveText('USD 106.00');
    await expect(breakdown).toContainText('USD 6.00');
    await expect(breakdown).toContainText('5% of the fee goes to reforestation');

    await island.getByRole('button', { name: 'Pay' }).click();
    const dialog = page.getByRole('dialog', { name: 'Custom Payment' });
    await fillRegistration(dialog);
    await dialog.getByRole('button', { name: 'Pay Now USD 106.00' }).click();

    await expect(page).toHaveURL(/\/test-gateway$/);
    await expect(summaryValue(page, 'Amount')).toHaveText('106.00');
    await page.getByRole('button', { name: 'Approve' }).click();
    await expect(page).toHaveURL(/\/Success\?order=ORD/);
    await expect(page.locator('main')).toContainText('106.00');
  });

  test("an empty or non-positive amount alerts 'Please enter a valid amount'", async ({ page }) => {
    const alerts: string[] = [];
    page.on('dialog', async (dialog) => {
      alerts.push(`${dialog.type()}: ${dialog.message()}`);
      await dialog.dismiss();
    });
    await page.goto('/pricing');
    const island = await mounted(page, 'CustomPayment', page.locator('#custom-payment'));
    const amount = island.getByLabel('Amount (USD)');
    const pay = island.getByRole('button', { name: 'Pay' });

    await pay.click();
    await expect.poll(() => alerts.length).toBe(1);
    await amount.fill('0');
    await expect(island.locator('.custom-payment__breakdown')).toHaveCount(0);
    await pay.click();
    await expect.poll(() => alerts.length).toBe(2);
    await amount.fill('-5');
    await expect(island.locator('.custom-payment__breakdown')).toHaveCount(0);
    await pay.click();
    await expect.poll(() => alerts.length).toBe(3);

    expect(alerts).toEqual(Array(3).fill('alert: Please enter a valid amount'));
    await expect(page.getByRole('dialog')).toHaveCount(0);
  });
});

test.describe('sponsorship', () => {
  test('a sponsor package paid through to /Success', async ({ page }) => {
    await page.goto('/sponsorship');
    await expect(page.getByRole('link', { name: /Download Prospectus/ })).toHaveAttribute(
      'href',
      /^\/api\/files\/download_buttons\//,
    );
    await expect(page.getByRole('link', { name: /custom package/i })).toHaveAttribute('href', '/#form');
    const island = await islandIn(page, `package-${GOLD_PACKAGE.id}`, 'SponsorCheckout');
    await island.getByRole('button', { name: `Sponsor now for ${GOLD_PACKAGE.title}` }).click();
    const dialog = page.getByRole('dialog', { name: `Sponsor: ${GOLD_PACKAGE.title}` });
    await expect(dialog.locator('input:not([type="hidden"]):not([name="_gotcha"])')).toHaveCount(2);
    await field(dialog, 'Name').fill('Acme Green Energy');
    await field(dialog, 'Email').fill('sponsor@acme.example');
    await dialog.getByRole('button', { name: `Pay Now USD ${GOLD_PACKAGE.shown}` }).click();

    await expect(page).toHaveURL(/\/test-gateway$/);
    await expect(summaryValue(page, 'Amount')).toHaveText(GOLD_PACKAGE.amount);
    await page.getByRole('button', { name: 'Approve' }).click();
    await expect(page).toHaveURL(/\/Success\?order=ORD/);
    await expect(page.locator('main')).toContainText(GOLD_PACKAGE.title);
    await expect(page.locator('main')).toContainText(GOLD_PACKAGE.shown);
  });
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });
  // With scripts off Chromium refuses the script preloads (<link rel="modulepreload">) and
  // reports them as failed requests with reason "csp"; that is the point of this block.
  test.beforeEach(({ problems }) => problems.allow(/request failed GET .*\/assets\/.*\.js: csp$/));

  test('Register Now leads to a note on how to register', async ({ page }) => {
    await page.goto('/pricing');
    await page.locator('#plan-listener-virtual').getByRole('link', { name: /Register Now/ }).click();
    await expect(page).toHaveURL(/\/pricing\?plan=listener-virtual#plan-listener-virtual$/);
    const note = page.locator('#plan-listener-virtual .checkout-note');
    await expect(note).toContainText('needs JavaScript');
    await expect(note.getByRole('link')).toHaveAttribute('href', /^mailto:/);
    await expect(page.locator('.checkout-note')).toHaveCount(1);
  });

  test("'Sponsor now' leads to a note on how to sponsor", async ({ page }) => {
    await page.goto('/sponsorship');
    const id = GOLD_PACKAGE.id;
    await page.locator(`#package-${id}`).getByRole('link', { name: /Sponsor now/ }).click();
    await expect(page).toHaveURL(new RegExp(`/sponsorship\\?package=${id}#package-${id}$`));
    await expect(page.locator(`#package-${id} .checkout-note`)).toContainText('needs JavaScript');
  });

  test('the custom payment form shows the breakdown from the server', async ({ page }) => {
    await page.goto('/pricing');
    await page.getByLabel('Amount (USD)').fill('100');
    await page.getByRole('button', { name: 'Pay' }).click();
    await expect(page).toHaveURL(/\/pricing\?amount=100#custom-payment$/);
    await expect(page.locator('.custom-payment__total dd')).toHaveText('USD 106.00');
    await expect(page.locator('#custom-payment .checkout-note')).toContainText('needs JavaScript');
  });
});
