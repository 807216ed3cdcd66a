// Signing in as a person does (DESIGN.md sections 12 and 15): ask for a link on /organiser or
// /review, read it from the mail the e2e server wrote, open it and press "Sign in". Each spec
// signs in as an address of its own (playwright.config.ts, ORGANISER_EMAIL), so specs running
// side by side never take each other's mail.
import type { Page } from '@playwright/test';
import { expect } from './fixtures';
import { mailFiles, mailedLink } from './mail';

/**
 * Signs `page` in at `area` ('/organiser' or '/review') as `address` by the mailed link of
 * the server whose DATA_DIR is `dataDir` (default: the shared server's).
 */
async function signInAt(page: Page, area: '/organiser' | '/review', address: string, dataDir?: string): Promise<void> {
  await page.goto(area);
  const before = new Set(mailFiles(dataDir));
  await page.getByLabel('E-mail address').fill(address);
  await page.getByRole('button', { name: /sign-in link/i }).click();
  const pattern = new RegExp(`https?://[^\\s"<>]+${area}/sign-in/[A-Za-z0-9_-]+`);
  const link = await mailedLink(address, /sign-in link/i, pattern, before, dataDir);
  await page.goto(link);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

/** Signs `page` in as the organiser `address`; on the dashboard after. */
export async function signInAs(page: Page, address: string, dataDir?: string): Promise<void> {
  await signInAt(page, '/organiser', address, dataDir);
  await expect(page.getByText(`Signed in as ${address}.`)).toBeVisible();
}

/** Signs `page` in as the reviewer `address`; on "My papers" after. */
export async function signInAsReviewer(page: Page, address: string, dataDir?: string): Promise<void> {
  await signInAt(page, '/review', address, dataDir);
  await expect(page.getByRole('heading', { level: 1, name: 'My papers' })).toBeVisible();
  await expect(page.getByText(`(${address})`)).toBeVisible();
}
