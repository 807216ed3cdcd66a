// The stylesheet's mask icons (the dock, download buttons, contact list, cards) are views of one
// SVG sprite (src/styles/icons.svg). An icon whose image does not load is silently blank, with
// no console error: load each one as an image and check it has a size.
import { test, expect } from './fixtures';

test('every mask icon of the stylesheet loads as an image', async ({ page }) => {
  await page.goto('/');
  const urls = await page.evaluate(() => {
    const found = new Set<string>();
    for (const sheet of Array.from(document.styleSheets)) {
      for (const rule of Array.from(sheet.cssRules)) {
        for (const match of rule.cssText.matchAll(/--i:\s*url\("?([^")]+)"?\)/g)) {
          found.add(new URL(match[1], sheet.href ?? location.href).href);
        }
      }
    }
    return [...found];
  });
  // The dock's seven, the download button, mail, phone and the cards' leaf.
  expect(urls.length).toBeGreaterThanOrEqual(11);
  const failures = await page.evaluate(
    (list) =>
      Promise.all(
        list.map(
          (src) =>
            new Promise<string>((resolve) => {
              const img = new Image();
              img.onload = () => resolve(img.naturalWidth > 0 && img.naturalHeight > 0 ? '' : `${src}: no size`);
              img.onerror = () => resolve(`${src}: does not load`);
              img.src = src;
            }),
        ),
      ),
    urls,
  );
  expect(failures.filter(Boolean)).toEqual([]);
});
