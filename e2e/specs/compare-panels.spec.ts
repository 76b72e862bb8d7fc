// Compare, richer (issue 12): a compare run shows each config's series side by side and each
// class's latency CDF with one line per config, and "apply to live" sends a compared config to
// the running session, which the Controls view's engine echo then shows.
import { expect, test } from '../fixtures/app.ts';
import { openApp, screenshot, view } from './app-helpers.ts';

test('a compare run draws per-config series and per-class CDFs; apply to live changes the live policy', async ({
  page,
  appUrl,
}) => {
  test.slow();
  await openApp(page, appUrl);
  await view(page, 'controls');
  const policyEcho = page.getByTestId('echo-policy');
  await expect(policyEcho).toHaveText('engine: mlfq');

  await view(page, 'compare');
  await page.getByTestId('compare-source').selectOption('interactive-vs-scan');
  await page.getByTestId('compare-duration').selectOption('10');
  await page.getByTestId('compare-config-0-policy').selectOption('mlfq');
  await page.getByTestId('compare-config-1-policy').selectOption('fifo');
  await page.getByTestId('compare-run').click();
  await expect(page.getByTestId('compare-table')).toBeVisible({ timeout: 60_000 });

  // One series panel per config, in the columns' order, each with its lines drawn.
  const series = page.getByTestId('compare-series');
  for (const [i, label] of ['mlfq', 'fifo'].entries()) {
    const col = series.getByTestId(`compare-series-${i}`);
    await expect(col).toHaveAttribute('data-label', label);
    expect(Number(await col.getAttribute('data-points'))).toBeGreaterThan(10);
    await expect(col.locator('.recharts-line-curve')).not.toHaveCount(0);
  }
  // One CDF per class, each with a line per config that finished jobs of it (in 10 s the
  // interactive queries finish under both; the scan may finish under neither).
  const cdfs = page.getByTestId('compare-cdfs');
  await expect(cdfs.getByTestId('compare-cdf-scan')).toBeVisible();
  const interactive = cdfs.getByTestId('compare-cdf-interactive');
  await expect(interactive).toHaveAttribute('data-configs', '0,1');
  await expect(interactive.locator('.recharts-line-curve')).toHaveCount(2);
  await expect(interactive.locator('.recharts-legend-item-text')).toHaveText(['mlfq', 'fifo']);
  await series.scrollIntoViewIfNeeded();
  await screenshot(page, 'compare-series-cdfs');

  try {
    // Apply fifo (the second column) to the running session.
    await page.getByTestId('compare-apply-1').click();
    await expect(page.getByTestId('notice')).toContainText('applied “fifo” live');
    await view(page, 'controls');
    await expect(policyEcho).toHaveText('engine: fifo');
  } finally {
    // Later specs expect the preset's own policy.
    await view(page, 'controls');
    await page.getByTestId('field-policy').selectOption('mlfq');
    await expect(policyEcho).toHaveText('engine: mlfq');
  }
});
