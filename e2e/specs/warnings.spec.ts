// The warnings panel (docs/jobs.md "Warnings") against a workload made to starve one job: on one
// simulated worker under fifo with a 10-minute quantum, three hogs hold the worker in turn and
// the victim queued behind them waits past the starvation bound (120 s of engine time) for
// 30 min of engine time. The simulator runs at 10×: starving after 12 s, for 3 minutes.
import { expect, test } from '../fixtures/app.ts';
import {
  loadWorkload,
  openApp,
  runPreset,
  screenshot,
  switchBackend,
  view,
} from './app-helpers.ts';

test('the warnings panel lists a starving job with its rule; clicking it opens the job', async ({
  page,
  appUrl,
}) => {
  test.slow();
  await openApp(page, appUrl);
  const backend = page.getByTestId('engine-backend');
  await expect(backend).toHaveAttribute('data-backend', 'threads');
  try {
    await switchBackend(page, 'sim');
    const workload = {
      name: 'e2e-starve-one',
      config: { policy: 'fifo', workers: 1, quantumMs: 600_000 },
      classes: [
        {
          name: 'hog',
          arrival: { kind: 'once', count: 3 },
          splits: { intermediate: 1 },
          work: { kernel: 'spin', totalMs: 1_200_000 },
        },
        {
          name: 'victim',
          arrival: { kind: 'once', atMs: 1000 },
          splits: { intermediate: 1 },
          work: { kernel: 'spin', totalMs: 50 },
        },
      ],
    };
    await loadWorkload(page, workload, 'starve-one.json');
    // Loaded (the preset's arrivals stopped), the simulator runs at 10×.
    await page.getByTestId('sim-speed').selectOption('10');
    await expect(page.getByTestId('sim-speed')).toHaveValue('10');

    await view(page, 'live');
    const panel = page.getByTestId('warnings');
    const row = panel.locator('[data-testid$="-starving"]').filter({ hasText: 'victim' });
    await expect(row).toHaveCount(1, { timeout: 60_000 });
    // The row names the rule and the bound it broke.
    await expect(row.locator('.rule')).toHaveText('starving');
    await expect(row).toContainText(/has waited .* \(bound 2:00\)/);
    const jobId = (await row.getAttribute('data-testid'))!.split('-')[1]!;
    await row.scrollIntoViewIfNeeded();
    await screenshot(page, 'warnings-starving');
    await row.click();
    const detail = page.getByTestId('job-detail');
    await expect(detail).toHaveAttribute('data-job-id', jobId);
    await expect(detail.getByTestId('job-detail-warning-starving')).toBeVisible();
  } finally {
    // Later specs share this engine: its default preset again, back on threads at 1×.
    if ((await backend.getAttribute('data-backend')) === 'sim') {
      await page.getByTestId('sim-speed').selectOption('1');
    }
    await runPreset(page, 'interactive-vs-scan', 'cancel');
    await switchBackend(page, 'threads');
  }
});
