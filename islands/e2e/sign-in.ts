// Signing an organiser in as a person does (DESIGN.md section 12): ask for a link on
// /organiser, read it from the mail the e2e server wrote, open it and press "Sign in". Each
// spec signs in as an address of its own (playwright.config.ts, ORGANISER_EMAIL), so specs
// running side by side never take each other's mail.
import type { Page } from '@playwright/test';
import { expect } from './fixtures';
import { mailFiles, mailedLink } from './mail';

/** Signs `page` in as `address` by the mailed link; on the dashboard after. */
export async function signInAs(page: Page, address: string): Promise<void> {
  await page.goto('/organiser');
  const before = new Set(mailFiles());
  await page.getByLabel('E-mail address').fill(address);
  await page.getByRole('button', { name: /sign-in link/i }).click();
  const link = await mailedLink(address, /sign-in link/i, /https?:\/\/[^\s"<>]+\/organiser\/sign-in\/[A-Za-z0-9_-]+/, before);
  await page.goto(link);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByText(`Signed in as ${address}.`)).toBeVisible();
}
