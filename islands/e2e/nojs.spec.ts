// Pages without JavaScript (DESIGN.md section 1: complete, readable HTML; islands only add
// behaviour). Every page shows its content, and each island's fallback does its job.
import { test, expect } from './fixtures';
import { AWARD, FIRST_HIGHLIGHT, PLATINUM_PACKAGE, POLICIES, PROGRAMME, SITE } from './content';

test.use({ javaScriptEnabled: false });

test.beforeEach(({ problems }) => {
  // With scripting off, Chromium refuses the <link rel="modulepreload"> fetches and reports
  // them as failed with reason "csp": nothing is wrong with the site.
  problems.allow(/request failed GET \S+\/assets\/\S+\.js: csp$/);
});

/** Path, its <h1>, and a piece of its main content. */
const PAGES: Array<[string, string, string]> = [
  ['/', SITE.name, 'About Conference'],
  ['/AboutUs', 'About Us', 'Why Attend'],
  ['/AboutConference', 'About the Conference', 'Who Can Attend'],
  ['/committee', 'Organising Committee', 'Core Committee'],
  ['/gallery', 'Gallery', 'Moments from our sessions'],
  ['/schedule', "Shaping Tomorrow's Sustainable Landscape", `Times are in ${PROGRAMME.zone}.`],
  ['/Schedule', "Shaping Tomorrow's Sustainable Landscape", PROGRAMME.sessions[0]],
  [PROGRAMME.session.path, PROGRAMME.session.title, 'Back to the programme'],
  ['/pricing', 'Registration', 'Presenter Tickets'],
  ['/submission', 'Paper Submission', 'Submission Guidelines'],
  ['/awards', 'Awards', AWARD],
  ['/sponsorship', 'Sponsorship', PLATINUM_PACKAGE.title],
  ['/venue', 'Venue', SITE.venue],
  ['/highlights/sustainable-technologies', FIRST_HIGHLIGHT, 'Back'],
  ['/cancellation-policy', 'Cancellation Policy', POLICIES.cancellation.firstSection],
  ['/Terms-&-Conditions', 'Terms & Conditions', POLICIES.terms.firstSection],
  ['/Privacy-Policy', 'Privacy Policy', POLICIES.privacy.sections[0]],
  ['/cookie-policy', 'Cookie Policy', POLICIES.cookie.firstSection],
  ['/Failed', 'Failed', 'Your payment did not go through'],
  ['/test-gateway', 'Test gateway', 'no real payment'],
];

for (const [path, heading, text] of PAGES) {
  test(`${path} shows its content without JavaScript`, async ({ page }) => {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(heading);
    await expect(page.locator('main')).toContainText(text);
    // The shared frame: dock, footer with its legal links, no notice popup.
    await expect(page.getByRole('navigation', { name: 'Quick navigation' }).getByRole('link')).toHaveCount(7);
    await expect(page.locator('.site-footer__legal').getByRole('link')).toHaveCount(4);
    await expect(page.locator('.notice')).toHaveCount(0);
  });
}

test('the 404 page shows the spec text without JavaScript', async ({ page, problems }) => {
  problems.allow(/404/);
  await page.goto('/no-such-page');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Oops! Page Not Found');
  await expect(page.getByRole('link', { name: 'Go back home' })).toHaveAttribute('href', '/');
});

test('the programme filters with a plain form and opens a session', async ({ page }) => {
  await page.goto('/schedule');
  const main = page.locator('main');
  await expect(main.getByRole('heading', { level: 3 })).toHaveText(PROGRAMME.days);
  await expect(main.locator('.schedule-session__title')).toHaveText(PROGRAMME.sessions);
  await main.getByLabel('Track').selectOption({ label: PROGRAMME.track.name });
  await main.getByRole('button', { name: 'Show sessions' }).click();
  await expect(page).toHaveURL(/\/schedule\?day=&track=lantern-studies&mode=$/);
  await expect(main.locator('.schedule-session__title')).toHaveText(PROGRAMME.track.sessions);
  await expect(main.getByLabel('Track')).toHaveValue('lantern-studies');
  await main.getByRole('link', { name: PROGRAMME.track.sessions[0] }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(PROGRAMME.track.sessions[0]);
});

test('home: every speaker by category, the timeline, the goals and the materials are there', async ({ page }) => {
  await page.goto('/');
  const speakers = page.locator('#speakers');
  await expect(speakers.getByRole('heading', { level: 3 })).toHaveText(['Guest of Honor', 'Keynote Speaker', 'Session Chair']);
  for (const card of await speakers.locator('.person-card').all()) {
    await expect(card.getByRole('heading', { level: 4 })).toBeVisible();
    // More info opens natively (<details>).
    await card.getByText('More info').click();
    await expect(card.locator('details p')).toBeVisible();
  }
  await expect(page.locator('#dates .timeline__item')).toHaveCount(7);
  await expect(page.locator('.goals__row .goal-card')).toHaveCount(5);
  const materials = page.locator('.materials__list a');
  expect(await materials.count()).toBeGreaterThan(0);
  for (const link of await materials.all()) {
    await expect(link).toHaveAttribute('href', /^\/api\/files\/download_buttons\//);
    await expect(link).toHaveAttribute('download', /\.pdf$/);
  }
  // About Conference is fully visible: nothing waits for an animation.
  await expect(page.locator('#about-conference .about-conference__text')).toHaveCSS('opacity', '1');
  await expect(page.locator('#about-conference .about-conference__figure')).toHaveCSS('opacity', '1');
  // The countdown shows its four units.
  await expect(page.locator('.countdown__label')).toHaveText(['Days', 'Hours', 'Minutes', 'Seconds']);
});

test('a material link downloads the file directly', async ({ page }) => {
  await page.goto('/AboutConference');
  const link = page.locator('.materials__list a').first();
  const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
  expect(download.suggestedFilename()).toBe(await link.getAttribute('download'));
});

test('policy sections open natively, one at a time', async ({ page }) => {
  await page.goto('/Privacy-Policy');
  const sections = page.locator('main details');
  expect(await sections.count()).toBeGreaterThanOrEqual(3);
  await sections.nth(0).locator('summary').click();
  await expect(sections.nth(0).locator('p').first()).toBeVisible();
  await sections.nth(1).locator('summary').click();
  await expect(sections.nth(1).locator('p').first()).toBeVisible();
  await expect(sections.nth(0).locator('p').first()).toBeHidden();
});

test('gallery thumbnails link to the images', async ({ page, request }) => {
  // An image opened on its own has no <link rel="icon">: Chromium asks for /favicon.ico,
  // which redirects to the site's icon.
  await page.goto('/gallery');
  const first = page.locator('.gallery a').first();
  const href = (await first.getAttribute('href'))!;
  expect(href).toBe(await first.locator('img').getAttribute('src'));
  expect((await request.get(href)).status()).toBe(200);
  await first.click();
  await expect(page).toHaveURL(new RegExp(`${href}$`));
});

test('the mobile menu toggles without JavaScript', { tag: '@phone' }, async ({ page, isMobile }) => {
  test.skip(!isMobile, 'the mobile menu is only shown on narrow screens');
  await page.goto('/');
  const menu = page.locator('details.mobile-menu');
  await expect(menu.getByRole('navigation', { name: 'Mobile' })).toBeHidden();
  await menu.locator('summary').click();
  await expect(menu.getByRole('navigation', { name: 'Mobile' }).getByRole('link', { name: 'Venue' })).toBeVisible();
  await menu.locator('summary').click();
  await expect(menu.getByRole('navigation', { name: 'Mobile' })).toBeHidden();
});
