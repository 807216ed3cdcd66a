// The payment flow through the built-in TEST gateway (DESIGN.md section 6), in a real browser
// and without the registration islands: the order is created with a plain API call, the
// browser is handed to the gateway with a real POST form (as CCAvenue's kits and the island
// do), and the gateway's Approve / Decline / Cancel forms are plain HTML forms.
import type { Page } from '@playwright/test';
import { test, expect } from './fixtures';
import { LISTENER_PHYSICAL, LISTENER_VIRTUAL, PRESENTER_VIRTUAL } from './content';

interface HandOff {
  orderId: string;
  encRequest: string;
  accessCode: string;
  gatewayUrl: string;
}

const PAYER = {
  name: 'Ximena Quilla Oyelaran',
  email: 'ximena.oyelaran@example.net',
  phone: '+14155550142',
  address: '77 Orchard Lane',
  city: 'Springfield',
  state: 'Oregon',
  zip: '97477',
  country: 'United States',
};

/** Creates an order for `plan` and lands on the test gateway's page for it. */
async function payForPlan(page: Page, plan: string): Promise<HandOff> {
  const response = await page.request.post('/api/ccavenue-initiate', { data: { plan, ...PAYER } });
  expect(response.status()).toBe(201);
  const handOff = (await response.json()) as HandOff;
  expect(new URL(handOff.gatewayUrl).pathname).toBe('/test-gateway');

  // A page of the site, so the hand-off form is posted from the site's own origin.
  await page.goto('/test-gateway');
  await expect(page.getByText('Test gateway — no real payment')).toBeVisible();
  await page.evaluate(({ gatewayUrl, encRequest, accessCode }) => {
    const form = document.createElement('form');
    form.method = 'post';
    form.action = gatewayUrl;
    for (const [name, value] of [
      ['encRequest', encRequest],
      ['access_code', accessCode],
    ]) {
      const input = document.createElement('input');
      input.type = 'hidden';
      input.name = name;
      input.value = value;
      form.append(input);
    }
    document.body.append(form);
    form.submit();
  }, handOff);
  await expect(page.getByRole('heading', { name: `Pay order ${handOff.orderId}` })).toBeVisible();
  return handOff;
}

test('the test gateway shows the order and Approve lands on /Success with the plan', async ({ page }) => {
  const handOff = await payForPlan(page, PRESENTER_VIRTUAL.id);
  const main = page.locator('main');
  await expect(main.getByText('Test gateway — no real payment')).toBeVisible();
  await expect(main).toContainText(PRESENTER_VIRTUAL.id);
  await expect(main).toContainText(PRESENTER_VIRTUAL.amount);
  await expect(main).toContainText('USD');
  await expect(main).toContainText(PAYER.name);
  await expect(main.getByRole('button')).toHaveText(['Approve', 'Decline', 'Cancel']);

  await main.getByRole('button', { name: 'Approve', exact: true }).click();
  await page.waitForURL(`**/Success?order=${handOff.orderId}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('success');
  await expect(main).toContainText(PRESENTER_VIRTUAL.title);
  await expect(main).toContainText(`USD ${PRESENTER_VIRTUAL.amount}`);
  await expect(main).toContainText('Ximena');
  await expect(main).not.toContainText('Oyelaran');
  await expect(main).not.toContainText(PAYER.email);
});

test('Decline lands on /Failed with the status and a way back to /pricing', async ({ page }) => {
  const handOff = await payForPlan(page, LISTENER_PHYSICAL.id);
  await expect(page.locator('main')).toContainText(LISTENER_PHYSICAL.amount);
  await page.locator('main').getByRole('button', { name: 'Decline', exact: true }).click();
  await page.waitForURL(`**/Failed?order=${handOff.orderId}`);
  const main = page.locator('main');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Failed');
  await expect(main).toContainText('failure');
  await expect(main).toContainText('declined');
  await main.getByRole('link', { name: 'Back to registration' }).click();
  await expect(page).toHaveURL(/\/pricing$/);
});

test('Cancel lands on /Failed as a cancelled payment', async ({ page }) => {
  const handOff = await payForPlan(page, LISTENER_VIRTUAL.id);
  await page.locator('main').getByRole('button', { name: 'Cancel', exact: true }).click();
  await page.waitForURL(`**/Failed?order=${handOff.orderId}`);
  await expect(page.locator('main')).toContainText('aborted');
  await expect(page.locator('main')).toContainText('cancelled');
});
