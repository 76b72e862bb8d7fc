// A comparison can be stopped: Esc or the Cancel button while it runs. The panel says it was
// cancelled, the run button keeps the focus, and the engine takes the next comparison at once.
// Before, there was no cancel: the user waited for every config to run.
import { expect, test } from '../fixtures/app.ts';
import { openApp, view } from './app-helpers.ts';

/** Seconds of wall time per config on the simulator: long enough to be cancelled in. */
const BIG = {
  name: 'e2e-big-compare',
  seed: 1,
  durationMs: 60_000,
  classes: [
    {
      name: 'bulk',
      arrival: { kind: 'periodic', everyMs: 1, count: 60_000 },
      splits: { leaf: 4 },
      work: { totalMs: 1 },
    },
  ],
};

test('a comparison stops on Esc and on Cancel, and the next one runs', async ({ page, appUrl }) => {
  test.slow();
  await openApp(page, appUrl);
  await view(page, 'compare');
  await page.getByTestId('compare-source').selectOption({ label: 'workload file…' });
  await page.getByTestId('compare-workload-file').setInputFiles({
    name: 'big.json',
    mimeType: 'application/json',
    buffer: Buffer.from(JSON.stringify(BIG)),
  });
  await page.getByTestId('compare-duration').selectOption('60');
  const run = page.getByTestId('compare-run');
  const cancel = page.getByTestId('compare-cancel');
  const cancelled = page.getByTestId('compare-cancelled');

  // Esc, with the focus on the run button that started it.
  await run.focus();
  await page.keyboard.press('Enter');
  await expect(cancel).toBeVisible();
  await expect(run).toHaveAttribute('aria-disabled', 'true');
  await page.keyboard.press('Escape');
  await expect(cancelled).toContainText('cancelled');
  await expect(cancel).toHaveCount(0);
  await expect(run).not.toHaveAttribute('aria-disabled', 'true');
  await expect(run).toBeFocused();
  await expect(page.getByTestId('compare-error')).toHaveCount(0);

  // The Cancel button; the focus goes back to the run button.
  await run.click();
  await expect(cancelled).toHaveCount(0);
  await cancel.click();
  await expect(cancelled).toContainText('cancelled');
  await expect(run).toBeFocused();

  // The engine is ready for the next comparison, which runs to its result.
  await page.getByTestId('compare-source').selectOption('interactive-vs-scan');
  await page.getByTestId('compare-duration').selectOption('5');
  await run.click();
  await expect(page.getByTestId('compare-table')).toBeVisible({ timeout: 60_000 });
  await expect(page.getByTestId('compare-summary')).toContainText('interactive-vs-scan · sim');
  await expect(cancelled).toHaveCount(0);
});
