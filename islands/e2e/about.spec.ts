// About Conference block (spec section 2 and 9; issue 3, item 7): fade-in with gsap
// ScrollTrigger from 'top 80%' to 'bottom 20%', played once; nothing animates under reduced
// motion; the image zooms on hover.
import { test, expect } from './fixtures';
import type { Page } from '@playwright/test';
import { chunkRequests, island, withoutNotice } from './island-helpers';

/** gsap's chunks (gsap core and ScrollTrigger), fetched only when a fade will play. */
const gsapChunks = (chunks: string[]) => chunks.filter((c) => /^(gsap|ScrollTrigger)$/.test(c));

const text = (page: Page) => page.locator('#about-conference .about-conference__text');
const figure = (page: Page) => page.locator('#about-conference .about-conference__figure');
const opacity = (page: Page) => text(page).evaluate((el) => Number(getComputedStyle(el).opacity));

/** Scrolls (instantly) so the block's top edge is `fraction` of the viewport height from the top. */
async function placeBlockTop(page: Page, fraction: number) {
  await page.evaluate((f) => {
    const top = document.getElementById('about-conference')!.getBoundingClientRect().top + window.scrollY;
    window.scrollTo({ top: top - window.innerHeight * f, behavior: 'instant' });
  }, fraction);
}

test('fades in once as it scrolls into view, from top 80%', async ({ page }) => {
  await withoutNotice(page);
  await page.goto('/');
  await expect(island(page, 'Countdown')).toHaveAttribute('data-island-ready', '');
  // Below the fold at first, and untouched: visible content until the island decides.
  await expect(island(page, 'AboutFadeIn')).not.toHaveAttribute('data-island-ready', '');
  expect(await opacity(page)).toBe(1);

  // Just below the viewport: the island mounts and hides the block, ready to fade it in.
  const chunks = chunkRequests(page);
  await placeBlockTop(page, 1.1);
  await expect(island(page, 'AboutFadeIn')).toHaveAttribute('data-island-ready', '');
  await expect.poll(() => opacity(page)).toBe(0);
  expect(gsapChunks(chunks).sort()).toEqual(['ScrollTrigger', 'gsap']);
  // Its top in the lowest fifth of the viewport: not yet.
  await placeBlockTop(page, 0.9);
  await expect.poll(() => opacity(page)).toBe(0);
  // Past 80%: it plays to the end.
  await placeBlockTop(page, 0.5);
  await expect.poll(() => opacity(page)).toBe(1);
  await expect.poll(() => figure(page).evaluate((el) => getComputedStyle(el).opacity)).toBe('1');
  await expect.poll(() => text(page).evaluate((el) => new DOMMatrix(getComputedStyle(el).transform).f)).toBe(0);

  // Played once: scrolling away and back does not hide it again.
  await placeBlockTop(page, 1.5);
  expect(await opacity(page)).toBe(1);
  await placeBlockTop(page, 0.5);
  expect(await opacity(page)).toBe(1);
});

test('nothing animates under prefers-reduced-motion, and gsap is never fetched', async ({ page }) => {
  const chunks = chunkRequests(page);
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await withoutNotice(page);
  await page.goto('/');
  await placeBlockTop(page, 1.1);
  await expect(island(page, 'AboutFadeIn')).toHaveAttribute('data-island-ready', '');
  await placeBlockTop(page, 0.5);
  expect(await opacity(page)).toBe(1);
  // No inline styles from the animation library at all.
  expect(await text(page).getAttribute('style')).toBeNull();
  expect(await figure(page).getAttribute('style')).toBeNull();
  expect(gsapChunks(chunks)).toEqual([]);
});

test('a block already on screen when the island mounts is left visible (no flash), without gsap', async ({ page }) => {
  const chunks = chunkRequests(page);
  await withoutNotice(page);
  await page.goto('/#about-conference');
  await expect(island(page, 'AboutFadeIn')).toHaveAttribute('data-island-ready', '');
  expect(await opacity(page)).toBe(1);
  expect(await text(page).getAttribute('style')).toBeNull();
  expect(gsapChunks(chunks)).toEqual([]);
});

test('the block on /AboutConference mounts its fade-in and its content is there', async ({ page }) => {
  await withoutNotice(page);
  await page.goto('/AboutConference');
  const block = page.locator('#about-conference');
  await block.scrollIntoViewIfNeeded();
  await expect(island(page, 'AboutFadeIn')).toHaveAttribute('data-island-ready', '');
  await expect(block.getByRole('heading', { name: 'About Conference' })).toBeVisible();
  await expect(block.getByRole('link', { name: 'Read more...' })).toHaveAttribute('href', '/AboutConference');
  await expect.poll(() => opacity(page)).toBe(1);
});

test('the image zooms on hover', async ({ page }, testInfo) => {
  test.skip(testInfo.project.name === 'phone', 'touch screens have no hover');
  await withoutNotice(page);
  await page.goto('/#about-conference');
  const img = figure(page).locator('img');
  const scale = () => img.evaluate((el) => new DOMMatrix(getComputedStyle(el).transform).a);
  expect(await scale()).toBe(1);
  await figure(page).hover();
  await expect.poll(scale).toBeCloseTo(1.06, 3);
  await page.mouse.move(0, 0);
  await expect.poll(scale).toBe(1);
});
