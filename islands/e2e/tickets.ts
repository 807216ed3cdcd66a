// Buying a ticket as a visitor does (issue 33): the ticket card's registration modal on
// /pricing, the built-in test gateway's Approve button, /Success; then the attendee link from
// the receipt mail. Every spec that needs a paid ticket goes through here.
import { expect, type Page } from '@playwright/test';
import { mounted } from './island-helpers';
import { mailFiles, mailedLink } from './mail';
import type { Plan } from './content';

/** Who pays: the modal's fields. Each spec uses an address of its own (they share a server). */
export interface Buyer {
  name: string;
  email: string;
  phone?: string;
  address?: string;
  city?: string;
  zip?: string;
  country?: string;
}

/** A link to an attendee page, as the receipt mail carries it. */
export const ATTENDEE_LINK = /https?:\/\/[^\s"<>]+\/attendee\/[A-Za-z0-9_-]{43}/;

/**
 * Pays for `plan` as `buyer` through the test gateway and returns the attendee link of the
 * receipt mail that payment sends.
 */
export async function payForTicket(page: Page, plan: Plan, buyer: Buyer): Promise<string> {
  const before = new Set(mailFiles());
  await page.goto('/pricing');
  const island = await mounted(page, 'TicketCheckout', page.locator(`#plan-${plan.id}`));
  await island.getByRole('button', { name: `Register Now for ${plan.title}` }).click();
  const dialog = page.getByRole('dialog', { name: `Register: ${plan.title}` });
  await expect(dialog).toBeVisible();
  const field = (name: string) => dialog.getByRole('textbox', { name, exact: true });
  await field('Name').fill(buyer.name);
  await field('Email').fill(buyer.email);
  await field('Phone').fill(buyer.phone ?? '2015550123');
  await field('Address').fill(buyer.address ?? '12 Quay Road');
  await field('City').fill(buyer.city ?? 'Port Quill');
  await field('ZIP Code').fill(buyer.zip ?? '4242');
  await field('Country').fill(buyer.country ?? 'Lanternland');
  await dialog.getByRole('button', { name: `Pay Now USD ${plan.amount}` }).click();
  await expect(page).toHaveURL(/\/test-gateway$/);
  await page.getByRole('button', { name: 'Approve' }).click();
  await expect(page).toHaveURL(/\/Success\?order=ORD/);
  return mailedLink(buyer.email, /TEST Payment (receipt|invoice) /, ATTENDEE_LINK, before);
}
