// A keyboard user starting a preset keeps their place: the focus stays on the preset's button
// while it starts and after, and the drain/cancel question takes the focus and gives it back.
// Before, the button was disabled while the preset started (or the question closed under the
// focus), and the focus fell to the page's body.
import type { Page } from '@playwright/test';
import { expect, test } from '../fixtures/app.ts';
import { counters, openApp, runPreset, view } from './app-helpers.ts';

async function live(page: Page): Promise<number> {
  await view(page, 'live');
  const n = (await counters(page)).live ?? 0;
  await view(page, 'workloads');
  return n;
}

test('a preset started from the keyboard keeps the focus on its button', async ({
  page,
  appUrl,
}) => {
  test.slow();
  await openApp(page, appUrl);
  const pause = page.getByTestId('pause-toggle');
  try {
    // Nothing live (the small graph preset ends by itself): the preset starts without a question.
    await runPreset(page, 'diamond', 'cancel');
    await expect.poll(() => live(page), { timeout: 60_000 }).toBe(0);
    const button = page.getByTestId('preset-diamond');
    await button.focus();
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('notice')).toContainText('running preset diamond');
    await expect(button).toBeEnabled();
    await expect(button).toBeFocused();

    // Live jobs (paused, they stay live): the question takes the focus on its first choice,
    // and once answered gives it back to the preset that asked.
    await pause.click();
    await expect(pause).toHaveAttribute('data-paused', 'true');
    await page.getByTestId('workload-file').setInputFiles({
      name: 'held.json',
      mimeType: 'application/json',
      buffer: Buffer.from(
        JSON.stringify({
          name: 'e2e-held',
          classes: [
            {
              name: 'held',
              arrival: { kind: 'once', count: 3 },
              splits: { intermediate: 1 },
              work: { kernel: 'spin', totalMs: 60_000 },
            },
          ],
        }),
      ),
    });
    await expect.poll(() => live(page), { timeout: 60_000 }).toBeGreaterThan(0);
    await button.focus();
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('preset-switch-drain')).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(page.getByTestId('preset-switch-cancel')).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('notice')).toContainText(/cancelled \d+ jobs · running preset/);
    await expect(page.getByTestId('preset-switch')).toHaveCount(0);
    await expect(button).toBeFocused();
  } finally {
    if ((await pause.getAttribute('data-paused')) === 'true') await pause.click();
    await expect(pause).toHaveAttribute('data-paused', 'false');
    await runPreset(page, 'interactive-vs-scan', 'cancel');
  }
});
