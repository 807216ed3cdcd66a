// Conference materials in the About Conference block (spec section 2, 7 and 8; issue 3,
// item 8): one green button per material (title trimmed) that downloads the file under its
// own name through /api/files/...; a failure alerts 'Failed to download file. Please try again.'
import { test, expect } from './fixtures';
import { readFile } from 'node:fs/promises';
import type { APIRequestContext, Page } from '@playwright/test';
import { mounted, withoutNotice } from './island-helpers';

interface Material {
  id: string;
  title: string;
  link: string;
}

async function materials(request: APIRequestContext): Promise<Material[]> {
  const response = await request.get('/api/collections/download_buttons/records?sort=-created&perPage=500');
  expect(response.ok()).toBe(true);
  return (await response.json()).items;
}

/** Accepts every alert the page raises and resolves with the first one's type and text. */
function nextAlert(page: Page): Promise<{ type: string; message: string }> {
  return new Promise((resolve) => {
    page.on('dialog', async (dialog) => {
      resolve({ type: dialog.type(), message: dialog.message() });
      await dialog.accept();
    });
  });
}

async function open(page: Page, path: string) {
  await withoutNotice(page);
  await page.goto(path);
  const island = await mounted(page, 'Materials');
  return island.locator('.materials__list');
}

for (const path of ['/', '/AboutConference']) {
  test(`${path}: one green button per material, title trimmed`, async ({ page, request }) => {
    const expected = await materials(request);
    const list = await open(page, path);
    const buttons = list.getByRole('link');
    await expect(buttons).toHaveText(expected.map((m) => m.title.trim()));
    for (const [i, m] of expected.entries()) {
      await expect(buttons.nth(i)).toHaveClass(/button--green/);
      await expect(buttons.nth(i)).toHaveAttribute('download', m.link);
      await expect(buttons.nth(i)).toHaveAttribute('href', `/api/files/download_buttons/${m.id}/${encodeURIComponent(m.link)}`);
    }
    await expect(buttons.first()).toHaveCSS('background-color', 'rgb(4, 120, 87)'); // --c-green
  });
}

test('a button downloads the file under its own name, fetched by the page', async ({ page, request }) => {
  const [first] = await materials(request);
  const list = await open(page, '/');
  const fetched = page.waitForRequest((r) => r.url().includes(`/api/files/download_buttons/${first.id}/`) && r.resourceType() === 'fetch');
  const [download] = await Promise.all([page.waitForEvent('download'), list.getByRole('link', { name: first.title.trim() }).click()]);
  await fetched;
  expect(download.suggestedFilename()).toBe(first.link);
  const body = await readFile((await download.path())!);
  expect(body.subarray(0, 4).toString()).toBe('%PDF');
  // Still on the page, button ready again.
  await expect(list.getByRole('link', { name: first.title.trim() })).not.toHaveAttribute('aria-busy', 'true');
});

test('a server error alerts the spec message and saves nothing', async ({ page, problems }) => {
  problems.allow(/500/);
  const list = await open(page, '/');
  await page.route('**/api/files/**', (route) => route.fulfill({ status: 500, body: 'broken' }));
  let downloads = 0;
  page.on('download', () => downloads++);
  const alert = nextAlert(page);
  await list.getByRole('link').first().click();
  expect(await alert).toEqual({ type: 'alert', message: 'Failed to download file. Please try again.' });
  expect(downloads).toBe(0);
  await expect(list.getByRole('link').first()).not.toHaveAttribute('aria-busy', 'true');
});

test('a network failure alerts the spec message too', async ({ page, problems }) => {
  problems.allow(/\/api\/files\//);
  const list = await open(page, '/AboutConference');
  await page.route('**/api/files/**', (route) => route.abort('connectionreset'));
  const alert = nextAlert(page);
  await list.getByRole('link').nth(1).click();
  expect(await alert).toEqual({ type: 'alert', message: 'Failed to download file. Please try again.' });
});
