// Time ranges, distributions and the layout at 1024×700, against a real engine: brushing the
// Gantt or a chart selects a range the tables follow, the live button returns to following, the
// distributions are drawn, and no view is wider than a small window.
import type { Page } from '@playwright/test';
import { expect, test } from '../fixtures/app.ts';
import { openApp, screenshot, view, VIEWS } from './app-helpers.ts';

async function tableTotal(page: Page, kind: 'latency' | 'wait'): Promise<number> {
  return Number(await page.getByTestId(`${kind}-table`).getAttribute('data-total'));
}

async function chartSeconds(page: Page): Promise<number> {
  return Number(await page.getByTestId('queue-depth-series').getAttribute('data-span-s'));
}

/** Drags across an element from `a` to `b` (fractions of its width) at mid height. */
async function dragAcross(page: Page, testId: string, a: number, b: number, shift: boolean) {
  await page.getByTestId(testId).scrollIntoViewIfNeeded();
  const box = (await page.getByTestId(testId).boundingBox())!;
  const y = box.y + box.height / 2;
  if (shift) await page.keyboard.down('Shift');
  await page.mouse.move(box.x + box.width * a, y);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width * ((a + b) / 2), y, { steps: 4 });
  await page.mouse.move(box.x + box.width * b, y, { steps: 4 });
  await page.mouse.up();
  if (shift) await page.keyboard.up('Shift');
}

test('brushing the Gantt selects a range the tables count over; a chart brush moves it; live returns', async ({
  page,
  appUrl,
}) => {
  test.setTimeout(180_000);
  await openApp(page, appUrl);
  const range = page.getByTestId('range');
  await expect(range).toHaveAttribute('data-state', 'live');
  // Enough history that a few seconds are a part of the tables' window, not all of it.
  await expect.poll(() => chartSeconds(page), { timeout: 60_000 }).toBeGreaterThan(12);
  await expect.poll(() => tableTotal(page, 'wait')).toBeGreaterThan(0);
  const liveWaits = await tableTotal(page, 'wait');

  await dragAcross(page, 'gantt-canvas', 0.45, 0.75, true);
  await expect(range).toHaveAttribute('data-state', 'range');
  await expect(page.getByTestId('gantt-follow')).toHaveAttribute('aria-pressed', 'false');
  await expect(page.getByTestId('gantt-range')).toBeVisible();
  const from = Number(await range.getAttribute('data-from-ms'));
  const to = Number(await range.getAttribute('data-to-ms'));
  expect(to).toBeGreaterThan(from);
  // The tables now count the waits that ended in those few seconds: some, and fewer than the
  // 60 s window the live table covers.
  await expect(page.getByTestId('wait-table')).toHaveAttribute('data-source', 'range');
  await expect(page.getByTestId('wait')).toContainText('ended in the selected range');
  await expect.poll(() => tableTotal(page, 'wait')).toBeGreaterThan(0);
  expect(await tableTotal(page, 'wait')).toBeLessThan(liveWaits);
  await expect(page.getByTestId('distributions')).toContainText('over the selected range');
  await screenshot(page, 'range-selected');

  // A brush across the queue-depth chart selects another range.
  await dragAcross(page, 'queue-depth-series', 0.45, 0.85, false);
  await expect.poll(async () => Number(await range.getAttribute('data-from-ms'))).not.toBe(from);
  await expect(range).toHaveAttribute('data-state', 'range');

  // Scroll-back: one step earlier keeps the width and moves back in the history held.
  const before = Number(await range.getAttribute('data-from-ms'));
  await page.getByTestId('range-earlier').click();
  await expect
    .poll(async () => Number(await range.getAttribute('data-from-ms')))
    .toBeLessThan(before);
  await expect(page.getByTestId('range-held')).toHaveText(/^history: [\d.]+ min/);

  await page.getByTestId('range-live').click();
  await expect(range).toHaveAttribute('data-state', 'live');
  await expect(page.getByTestId('gantt-follow')).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByTestId('wait-table')).toHaveAttribute('data-source', 'live');
  await expect(page.getByTestId('gantt-range')).toBeHidden();
});

test('distributions: a CDF per class with p50/p95/p99, for latency and for wait', async ({
  page,
  appUrl,
}) => {
  await openApp(page, appUrl);
  const chart = page.getByTestId('distribution-chart');
  await page.getByTestId('dist-wait').click();
  await expect(chart).toHaveAttribute('data-kind', 'wait');
  await expect.poll(async () => (await chart.getAttribute('data-keys')) ?? '').not.toBe('');
  // Each class line is drawn and its percentiles listed, in order.
  const rows = page.getByTestId('distribution-marks').locator('tbody tr');
  await expect.poll(() => rows.count()).toBeGreaterThan(0);
  const p95s = ((await chart.getAttribute('data-p95')) ?? '').split(',').map(Number);
  expect(p95s.every((v) => v > 0)).toBe(true);
  expect(await chart.locator('.recharts-line').count()).toBeGreaterThan(0);
  expect(await chart.locator('.recharts-reference-dot').count()).toBe(3 * p95s.length);
  await page.getByTestId('dist-latency').click();
  await expect(chart.or(page.getByTestId('distributions-empty')).first()).toBeVisible();
});

/** Elements sticking out of the window, and overlapping panels of one grid (boxes, in px). */
async function layoutFaults(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const out: string[] = [];
    const vw = document.documentElement.clientWidth;
    if (document.documentElement.scrollWidth > window.innerWidth)
      out.push(`page scrollWidth ${document.documentElement.scrollWidth} > ${window.innerWidth}`);
    for (const el of document.querySelectorAll<HTMLElement>('body *')) {
      const r = el.getBoundingClientRect();
      if (r.width > 0 && r.right > vw + 0.5)
        out.push(`${el.tagName} ${el.dataset.testid ?? el.className} ends at ${r.right}`);
    }
    for (const grid of document.querySelectorAll('.chart-grid, .live-layout, .workloads')) {
      const kids = [...grid.children].map((c) => c.getBoundingClientRect());
      kids.forEach((a, i) =>
        kids.slice(i + 1).forEach((b) => {
          const overlap =
            Math.min(a.right, b.right) - Math.max(a.left, b.left) > 1 &&
            Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 1;
          if (overlap) out.push(`overlapping children in ${grid.className}`);
        }),
      );
    }
    // A panel's content stays inside its panel (a cut-off table column sticks out of it).
    for (const panel of document.querySelectorAll('.panel, .knobs-side')) {
      const p = panel.getBoundingClientRect();
      for (const el of panel.querySelectorAll('table, .recharts-wrapper, .field')) {
        const r = el.getBoundingClientRect();
        if (r.width > 0 && r.right > p.right + 1) out.push(`content past its panel: ${el.tagName}`);
      }
    }
    return out.slice(0, 10);
  });
}

test('at 1024×700 no view is wider than the window and no panels overlap, knobs open or not', async ({
  page,
  appUrl,
}) => {
  test.setTimeout(180_000);
  await page.setViewportSize({ width: 1024, height: 700 });
  await openApp(page, appUrl);
  await expect.poll(() => page.getByTestId('wait-table').getAttribute('data-total')).not.toBe('0');
  for (const name of VIEWS) {
    await view(page, name);
    expect(await layoutFaults(page), name).toEqual([]);
  }
  await view(page, 'live');
  await page.getByTestId('knobs-toggle').click();
  await expect(page.getByTestId('knobs')).toBeVisible();
  expect(await layoutFaults(page), 'live with knobs').toEqual([]);
  // Every time chart names its axes and says what its colours are.
  for (const id of ['depth', 'utilization', 'selections', 'distributions']) {
    const panel = page.getByTestId(id);
    await expect(panel.locator('.recharts-label').first()).toBeVisible();
    await expect(panel.locator('.recharts-legend-wrapper')).toHaveCount(1);
  }
  await screenshot(page, 'live-1024-knobs');
  await page.getByTestId('knobs-toggle').click();
  await expect(page.getByTestId('knobs')).toHaveCount(0);
});
