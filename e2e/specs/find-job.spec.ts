// Finding and following a job (docs/jobs.md): a job the frames' 200 rows do not reach is found
// by the search box, selected, detailed split by split and highlighted on the Gantt; Esc clears.
import { expect, test } from '../fixtures/app.ts';
import { openApp, runPreset, screenshot, view } from './app-helpers.ts';

/** Live jobs submitted before the one to find: more than a frame lists. */
const FILLERS = 260;

test('search finds a job beyond the first 200 rows, opens its detail, and Esc clears it', async ({
  page,
  appUrl,
}) => {
  // Many steps against a real engine on a small, busy machine: triple the usual time.
  test.slow();
  await openApp(page, appUrl);
  // Paused, every job stays live (queued) and the machine stays quiet.
  const pause = page.getByTestId('pause-toggle');
  if ((await pause.getAttribute('data-paused')) !== 'true') await pause.click();
  await expect(pause).toHaveAttribute('data-paused', 'true');
  await view(page, 'workloads');
  const workload = {
    name: 'e2e-fillers',
    classes: [
      {
        name: 'filler',
        arrival: { kind: 'once', count: FILLERS },
        splits: { intermediate: 1 },
        work: { kernel: 'spin', totalMs: 60_000 },
      },
    ],
  };
  await page.getByTestId('workload-file').setInputFiles({
    name: 'fillers.json',
    mimeType: 'application/json',
    buffer: Buffer.from(JSON.stringify(workload)),
  });
  // The table says live jobs are left out of the rows the engine sends.
  await expect(page.getByTestId('job-table-note')).toContainText('are not listed here');
  await page.getByTestId('submit-class').fill('needle');
  await page.getByTestId('submit-splits').fill('2');
  await page.getByTestId('submit-split-ms').fill('60000');
  await page.getByTestId('submit-job').click();
  const result = page.getByTestId('submit-result');
  await expect(result).toContainText(/submitted job \d+/);
  const jobId = Number(await result.getAttribute('data-job-id'));

  try {
    await view(page, 'live');
    // `/` focuses the search box; the engine answers beyond the frame's rows.
    await page.keyboard.press('/');
    const search = page.getByTestId('job-search');
    await expect(search).toBeFocused();
    await search.fill(`needle id:${jobId}`);
    // An answer lost to a busy machine is asked again each second: wait for one generously.
    await expect(page.getByTestId('job-search-note')).toContainText('1 matched', {
      timeout: 60_000,
    });
    const row = page.getByTestId(`job-row-${jobId}`);
    // The engine is paused: no split of it has started, so it is queued.
    await expect(row).toHaveAttribute('data-state', 'queued');
    await row.click();

    const detail = page.getByTestId('job-detail');
    await expect(detail).toHaveAttribute('data-job-id', String(jobId));
    await expect(detail).toHaveAttribute('data-splits', '2', { timeout: 60_000 });
    // Each split waits in the queue (the engine is paused), its stretch open up to now.
    for (const split of await detail.locator('[data-testid^="job-detail-split-"]').all()) {
      await expect(split).toHaveAttribute('data-state', 'queued');
      await expect(split.locator('.seg-waiting')).toHaveCount(1);
    }
    await expect(row).toHaveAttribute('aria-selected', 'true');
    const gantt = page.getByTestId('gantt-canvas');
    await expect(gantt).toHaveAttribute('data-selected-job', String(jobId));
    await screenshot(page, 'live-job-detail');

    // Esc clears the selection: the detail closes, the Gantt and the row let go of the job.
    await page.keyboard.press('Escape');
    await expect(detail).toHaveCount(0);
    await expect(gantt).toHaveAttribute('data-selected-job', '');
    await expect(row).toHaveAttribute('aria-selected', 'false');
  } finally {
    // Leave the engine as the next spec expects it: the fillers gone, dispatching again.
    await runPreset(page, 'interactive-vs-scan', 'cancel');
    if ((await pause.getAttribute('data-paused')) === 'true') await pause.click();
    await expect(pause).toHaveAttribute('data-paused', 'false');
  }
});
