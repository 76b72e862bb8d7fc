// The header's backend (issue 11): it says what the live session runs on and switches it live,
// asking — like a preset switch — whether the old backend's jobs drain or are cancelled.
import { expect, test } from '../fixtures/app.ts';
import { counters, openApp, screenshot, switchBackend } from './app-helpers.ts';

test.describe.configure({ timeout: 300_000 });

test('the header switches the live session from threads to sim and back', async ({
  page,
  appUrl,
}) => {
  await page.setViewportSize({ width: 1024, height: 700 });
  await openApp(page, appUrl);
  const header = page.locator('.app-header');
  const oneRow = (await header.boundingBox())!.height;
  const backend = page.getByTestId('engine-backend');
  const select = page.getByTestId('backend-select');
  await expect(backend).toHaveAttribute('data-backend', 'threads');
  await expect(select.locator('option')).toHaveText(['threads', 'sim']);
  await expect.poll(async () => (await counters(page)).live).toBeGreaterThan(0);
  const notice = page.getByTestId('notice');
  try {
    await select.selectOption('sim');
    await expect(page.getByTestId('backend-switch')).toBeVisible();
    await page.getByTestId('backend-switch-cancel').click();
    await expect(notice).toContainText('running on sim');
    await expect(backend).toHaveAttribute('data-backend', 'sim');
    await expect(page.getByTestId('sim-speed')).toHaveValue('1');
    // The sim's pace selector joins the header at 1024 px without wrapping it.
    expect((await header.boundingBox())!.height).toBeLessThanOrEqual(oneRow + 1);
    // The sim runs the same preset from its start: jobs arrive again.
    await expect.poll(async () => (await counters(page)).submitted).toBeGreaterThan(0);
    await screenshot(page, 'header-backend-sim');
  } finally {
    // Later specs share this engine: leave it on threads, as it started.
    await switchBackend(page, 'threads');
  }
});
