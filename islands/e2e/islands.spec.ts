// The islands runtime in a real browser (issue 3, item 1; DESIGN.md section 7): hydration
// triggers, one chunk per island loaded only where used, one shared React chunk, a failing
// island keeps its fallback, and mounting shifts no layout.
import { test, expect } from './fixtures';
import { chunkRequests, island, layoutShift, mounted, trackLayoutShift, withoutNotice } from './island-helpers';

test('each island is its own chunk, loaded only on pages that use it, with React shared', async ({ page }) => {
  const chunks = chunkRequests(page);
  const reactFiles = new Set<string>();
  page.on('request', (r) => {
    if (/\/assets\/react-[\w-]+\.js$/.test(r.url())) reactFiles.add(r.url());
  });

  await page.goto('/gallery');
  await mounted(page, 'GalleryViewer');
  await expect(island(page, 'NoticePopup')).toHaveAttribute('data-island-ready', '');
  expect(chunks).toContain('GalleryViewer');
  expect(chunks).toContain('NoticePopup');
  for (const other of ['Speakers', 'GoalsRow', 'Timeline', 'AboutFadeIn', 'Materials', 'PolicyAccordion', 'Countdown']) {
    expect(chunks, `${other} is not loaded on /gallery`).not.toContain(other);
  }

  chunks.length = 0;
  await page.goto('/');
  for (const name of ['Speakers', 'GoalsRow', 'Timeline', 'AboutFadeIn', 'Materials']) {
    await mounted(page, name);
  }
  expect(chunks).toEqual(expect.arrayContaining(['Countdown', 'Speakers', 'GoalsRow', 'Timeline', 'AboutFadeIn', 'Materials']));
  expect(chunks).not.toContain('GalleryViewer');
  expect(chunks).not.toContain('PolicyAccordion');

  // Every island on both pages used the same React file.
  expect(reactFiles.size).toBe(1);
});

test('load islands mount at once, idle ones soon after, visible ones only when scrolled to', async ({ page }) => {
  await withoutNotice(page);
  await page.goto('/');
  await expect(island(page, 'Countdown')).toHaveAttribute('data-island-ready', '');
  // The idle island (the notice popup's container) mounts without any scrolling ...
  await expect(island(page, 'NoticePopup')).toHaveAttribute('data-island-ready', '');
  // ... while the timeline, far below the fold, waits until it comes near the viewport.
  const timeline = island(page, 'Timeline');
  await expect(timeline).not.toHaveAttribute('data-island-ready', '');
  await timeline.scrollIntoViewIfNeeded();
  await expect(timeline).toHaveAttribute('data-island-ready', '');
});

test('idle islands still mount where requestIdleCallback does not exist', async ({ page }) => {
  await page.addInitScript(() => {
    // Safari has no requestIdleCallback; the runtime falls back to a timer.
    delete (window as { requestIdleCallback?: unknown }).requestIdleCallback;
  });
  await withoutNotice(page);
  await page.goto('/gallery');
  await expect(island(page, 'GalleryViewer')).toHaveAttribute('data-island-ready', '');
  await expect(island(page, 'NoticePopup')).toHaveAttribute('data-island-ready', '');
});

test('an island whose chunk fails to load logs an error and keeps its server fallback', async ({ page, problems }) => {
  problems.allow(/island "Timeline" failed/);
  problems.allow(/Timeline-[\w-]+\.js/);
  await withoutNotice(page);
  await page.route(/\/assets\/Timeline-[\w-]+\.js$/, (route) => route.abort('failed'));
  const failed = page.waitForEvent('console', (m) => m.type() === 'error' && m.text().includes('island "Timeline" failed'));
  await page.goto('/');
  const timeline = island(page, 'Timeline');
  await timeline.scrollIntoViewIfNeeded();
  await failed;
  await expect(timeline).not.toHaveAttribute('data-island-ready', '');
  // The server's list is still there and readable.
  await expect(timeline.locator('.timeline__item')).toHaveCount(7);
  await expect(timeline).toContainText('Abstract Submission Deadline');
  // The other islands are unaffected.
  await expect(island(page, 'Countdown')).toHaveAttribute('data-island-ready', '');
});

test('an island that throws while rendering logs an error and keeps its server fallback', async ({ page, problems }) => {
  problems.allow(/island "Countdown" failed/);
  await withoutNotice(page);
  // Serve the home page with props the Countdown cannot use.
  await page.route('/', async (route) => {
    const response = await route.fetch();
    const html = (await response.text()).replace(
      /(data-island="Countdown"[^>]*data-props=")[^"]*"/,
      '$1{&#34;target&#34;:&#34;soon&#34;}"',
    );
    await route.fulfill({ response, body: html });
  });
  const failed = page.waitForEvent('console', (m) => m.type() === 'error' && m.text().includes('island "Countdown" failed'));
  await page.goto('/');
  await failed;
  const countdown = island(page, 'Countdown');
  await expect(countdown).not.toHaveAttribute('data-island-ready', '');
  await expect(countdown.locator('.countdown__label')).toHaveText(['Days', 'Hours', 'Minutes', 'Seconds']);
});

test('mounting the islands does not shift the home page layout (CLS < 0.1)', async ({ page }) => {
  await trackLayoutShift(page);
  await page.goto('/');
  // Everything that mounts without scrolling, then the notice popup itself.
  await expect(island(page, 'Countdown')).toHaveAttribute('data-island-ready', '');
  await expect(island(page, 'MobileMenu')).toHaveAttribute('data-island-ready', '');
  await expect(island(page, 'NoticePopup')).toHaveAttribute('data-island-ready', '');
  await expect(page.locator('.notice')).toBeVisible();
  await island(page, 'PolicyPanel').hover();
  await expect(island(page, 'PolicyPanel')).toHaveAttribute('data-island-ready', '');
  expect(await layoutShift(page)).toBeLessThan(0.1);
});

test('islands below the fold mount without moving what is on screen', async ({ page }) => {
  await trackLayoutShift(page);
  await withoutNotice(page);
  await page.goto('/');
  for (const name of ['AboutFadeIn', 'Materials', 'GoalsRow', 'Speakers', 'Timeline']) {
    const el = island(page, name);
    await el.scrollIntoViewIfNeeded();
    await expect(el).toHaveAttribute('data-island-ready', '');
  }
  expect(await layoutShift(page)).toBeLessThan(0.1);
});
