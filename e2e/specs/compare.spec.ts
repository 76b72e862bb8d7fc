// Compare against a real engine: two configs of one preset, run on the simulator, side by side.
import { expect, test } from '../fixtures/app.ts';
import { openApp, screenshot, view } from './app-helpers.ts';

test('compare mlfq and fifo on interactive-vs-scan: two columns, mlfq ahead on interactive p95', async ({
  page,
  appUrl,
}) => {
  await openApp(page, appUrl);
  await view(page, 'compare');
  await expect(page.getByTestId('compare-empty')).toBeVisible();
  await page.getByTestId('compare-source').selectOption('interactive-vs-scan');
  await page.getByTestId('compare-duration').selectOption('10');
  await page.getByTestId('compare-config-0-policy').selectOption('mlfq');
  await page.getByTestId('compare-config-1-policy').selectOption('fifo');
  await page.getByTestId('compare-run').click();
  const table = page.getByTestId('compare-table');
  // Two simulated runs on the server's main thread, beside a live session: slow on a busy machine.
  await expect(table).toBeVisible({ timeout: 60_000 });
  await expect(page.getByTestId('compare-col-0')).toHaveAttribute('data-label', 'mlfq');
  await expect(page.getByTestId('compare-col-1')).toHaveAttribute('data-label', 'fifo');
  await expect(page.getByTestId('compare-summary')).toContainText('interactive-vs-scan · sim');
  const p95 = page.getByTestId('compare-row-interactive-p95').locator('td[data-value]');
  await expect(p95).toHaveCount(2);
  const [mlfq, fifo] = await p95.evaluateAll((tds) =>
    tds.map((td) => Number((td as HTMLElement).dataset.value)),
  );
  expect(mlfq).toBeGreaterThan(0);
  expect(mlfq).toBeLessThan(fifo!);
  await expect(
    page.getByTestId('compare-chart').locator('.recharts-bar-rectangle'),
  ).not.toHaveCount(0);
  await screenshot(page, 'compare');
  // The live session kept going: frames still arrive (the preset's arrivals may be over by now,
  // so count frames, not jobs).
  await view(page, 'live');
  const readout = page.getByTestId('level-share-readout');
  const seq = async () => Number((await readout.getAttribute('data-to-seq')) ?? 0);
  const before = await seq();
  await expect.poll(seq, { timeout: 30_000 }).toBeGreaterThan(before);
});

test('a graph preset offers graph policies: critical path beats fifo on the diamond', async ({
  page,
  appUrl,
}) => {
  await openApp(page, appUrl);
  await view(page, 'compare');
  await page.getByTestId('compare-source').selectOption('diamond');
  // The columns switch to the graph's classic pair; split-queue policies are not offered.
  await expect(page.getByTestId('compare-config-0-policy')).toHaveValue('fifo');
  await expect(page.getByTestId('compare-config-1-policy')).toHaveValue('critical-path');
  const offered = await page
    .getByTestId('compare-config-0-policy')
    .locator('option')
    .allTextContents();
  expect(offered).toContain('critical-path');
  expect(offered).not.toContain('mlfq');
  await page.getByTestId('compare-run').click();
  await expect(page.getByTestId('compare-table')).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId('compare-col-1')).toHaveAttribute('data-label', 'critical-path');
  const makespan = page.getByTestId('compare-row-makespan').locator('td[data-value]');
  const [fifo, criticalPath] = await makespan.evaluateAll((tds) =>
    tds.map((td) => Number((td as HTMLElement).dataset.value)),
  );
  // docs/design.md §5: B is long, so starting it first (critical path) finishes sooner.
  expect(criticalPath).toBeLessThan(fifo!);
});

test('a bad config value is refused naming its column and field', async ({ page, appUrl }) => {
  await openApp(page, appUrl);
  await view(page, 'compare');
  await page.getByTestId('compare-add').click();
  await expect(page.getByTestId('compare-config-2')).toBeVisible();
  await page.getByTestId('compare-config-2-levelTimeMultiplier').fill('1');
  await page.getByTestId('compare-run').click();
  await expect(page.getByTestId('compare-error')).toContainText(
    'configs[2].levelTimeMultiplier must be > 1',
  );
  await expect(page.getByTestId('compare-empty')).toBeVisible();
});
