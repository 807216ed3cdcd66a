// Helpers shared by the island specs (issue 3). Not a spec itself.
import { expect, type Locator, type Page } from '@playwright/test';

/** The notice popup's localStorage flag (islands/src/lib/notice.ts). */
export const NOTICE_DISMISSED_KEY = 'noticeDismissed';

/**
 * Marks the notice popup as dismissed before any page script runs, so it does not appear over
 * what a spec is testing. Call before `page.goto`.
 */
export async function withoutNotice(page: Page): Promise<void> {
  await page.addInitScript((key) => {
    try {
      localStorage.setItem(key, 'true');
    } catch {
      // storage blocked: the popup may show; specs that care check for it
    }
  }, NOTICE_DISMISSED_KEY);
}

/** The island element named `name` (the first, or the one inside `within`). */
export function island(page: Page, name: string, within?: Locator): Locator {
  return (within ?? page).locator(`[data-island="${name}"]`).first();
}

/**
 * Does what a visitor does before an island loads: scrolls it into view (for `visible` ones)
 * and points at it (for `intent` ones, which load when the visitor shows interest).
 */
export async function reach(el: Locator): Promise<void> {
  // A plain scroll: some island elements have no size of their own (AboutFadeIn).
  await el.evaluate((node) => node.scrollIntoView({ block: 'center', behavior: 'instant' }));
  if ((await el.getAttribute('data-hydrate')) === 'intent') await el.hover();
}

/** Reaches an island (see `reach`) and waits until it has mounted. */
export async function mounted(page: Page, name: string, within?: Locator): Promise<Locator> {
  const el = island(page, name, within);
  await reach(el);
  await expect(el).toHaveAttribute('data-island-ready', '');
  return el;
}

/** `/assets/Name-hash.js` requests seen by `page`, by island name. */
export function chunkRequests(page: Page): string[] {
  const seen: string[] = [];
  page.on('request', (request) => {
    const m = /\/assets\/([A-Za-z]+)-[\w-]+\.js$/.exec(new URL(request.url()).pathname);
    if (m) seen.push(m[1]);
  });
  return seen;
}

/** The element that has focus, described for assertions ("BUTTON Close notice"). */
export async function focused(page: Page): Promise<string> {
  return page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el) return '';
    return `${el.tagName} ${el.getAttribute('aria-label') ?? el.textContent?.trim() ?? ''}`;
  });
}

/** Whether the focused element is inside the element matching `selector`. */
export function focusInside(page: Page, selector: string): Promise<boolean> {
  return page.evaluate((sel) => !!document.activeElement?.closest(sel), selector);
}

/** Starts summing layout-shift scores (without recent input) from the first paint. */
export async function trackLayoutShift(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const w = window as unknown as { __cls: number };
    w.__cls = 0;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as Array<PerformanceEntry & { value: number; hadRecentInput: boolean }>) {
        if (!entry.hadRecentInput) w.__cls += entry.value;
      }
    }).observe({ type: 'layout-shift', buffered: true });
  });
}

/** The cumulative layout shift since the page started (see trackLayoutShift). */
export function layoutShift(page: Page): Promise<number> {
  return page.evaluate(() => (window as unknown as { __cls: number }).__cls);
}
