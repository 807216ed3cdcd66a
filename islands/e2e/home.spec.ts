import { test, expect } from './fixtures';

test('home page mounts the countdown island without errors', async ({ page }) => {
  await page.goto('/');
  const countdown = page.locator('[data-island="Countdown"]');
  await expect(countdown).toHaveCount(1);
  await expect(countdown).toHaveAttribute('data-island-ready', '');
  const values = countdown.locator('.countdown__value');
  await expect(values).toHaveCount(4);
  for (const value of await values.all()) {
    await expect(value).toHaveText(/^\d{2,}$/);
  }
  await expect(countdown.locator('.countdown__label')).toHaveText(['Days', 'Hours', 'Minutes', 'Seconds']);
});
