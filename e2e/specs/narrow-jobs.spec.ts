// The job table in a narrow window (800 px): no two columns overlap, a text too long for its
// column ends in an ellipsis on one line with the whole text in its title, and the columns
// left out there (splits, scheduled) are still in the job's detail.
import type { Locator } from '@playwright/test';
import { expect, test } from '../fixtures/app.ts';
import { openApp, runPreset, screenshot, view } from './app-helpers.ts';

const LONG_CLASS = 'a-class-name-far-longer-than-its-column-in-a-narrow-window';

interface Cell {
  text: string;
  left: number;
  right: number;
  lines: number;
  clipped: boolean;
  ellipsis: boolean;
  title: string;
}

/** The displayed cells of a table row, left to right, as laid out. */
function cells(row: Locator): Promise<Cell[]> {
  return row.evaluate((row) =>
    [...row.children]
      .filter((el) => getComputedStyle(el).display !== 'none')
      .map((el) => {
        const box = el.getBoundingClientRect();
        const range = document.createRange();
        range.selectNodeContents(el);
        // One rect per line of text (a wrapped text gives two or more); the actions cell's
        // controls are not text.
        const tops = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
        const style = getComputedStyle(el);
        return {
          text: el.textContent ?? '',
          left: box.left,
          right: box.right,
          lines: el.children.length === 0 ? tops.size : 1,
          clipped: el.scrollWidth > el.clientWidth,
          ellipsis: style.textOverflow === 'ellipsis' && style.whiteSpace === 'nowrap',
          title: el.getAttribute('title') ?? '',
        };
      }),
  );
}

function expectTidy(row: Cell[]): void {
  for (let i = 1; i < row.length; i++) {
    expect(
      row[i]!.left,
      `"${row[i]!.text}" starts inside "${row[i - 1]!.text}"`,
    ).toBeGreaterThanOrEqual(row[i - 1]!.right - 0.5);
  }
  for (const c of row) {
    expect(c.lines, `"${c.text}" wraps`).toBeLessThanOrEqual(1);
    if (c.clipped) {
      expect(c.ellipsis, `"${c.text}" is clipped without an ellipsis`).toBe(true);
      expect(c.title, `"${c.text}" is clipped and its title does not say it`).toBe(c.text);
    }
  }
}

test('at 800 px the job table keeps its columns apart and its detail shows what it hides', async ({
  page,
  appUrl,
}) => {
  test.slow();
  await page.setViewportSize({ width: 800, height: 800 });
  await openApp(page, appUrl);
  const pause = page.getByTestId('pause-toggle');
  if ((await pause.getAttribute('data-paused')) !== 'true') await pause.click();
  await expect(pause).toHaveAttribute('data-paused', 'true');
  try {
    await view(page, 'workloads');
    const workload = {
      name: 'e2e-narrow',
      classes: [
        {
          name: LONG_CLASS,
          arrival: { kind: 'once', count: 3 },
          splits: { intermediate: 2 },
          work: { kernel: 'spin', totalMs: 60_000 },
        },
      ],
    };
    await page.getByTestId('workload-file').setInputFiles({
      name: 'narrow.json',
      mimeType: 'application/json',
      buffer: Buffer.from(JSON.stringify(workload)),
    });
    await view(page, 'live');
    await page.getByTestId('job-search').fill(`class:${LONG_CLASS}`);
    const row = page.locator('[data-testid^="job-row-"]').first();
    await expect(row).toBeVisible({ timeout: 60_000 });
    await page.getByTestId('job-table').scrollIntoViewIfNeeded();
    await screenshot(page, 'live-jobs-800');

    const head = await cells(page.locator('.job-head'));
    const body = await cells(row);
    expectTidy(head);
    expectTidy(body);
    expect(head.length).toBe(body.length);
    expect(head.map((c) => c.text)).not.toContain('splits');
    // The class is the long text here: clipped, with an ellipsis, whole in its title.
    expect(body.find((c) => c.title === LONG_CLASS)?.clipped).toBe(true);

    // The columns left out are in the job's detail.
    await row.click();
    const detail = page.getByTestId('job-detail');
    await expect(detail).toContainText('splits 0/2', { timeout: 60_000 });
    await expect(detail).toContainText('scheduled');
    await page.keyboard.press('Escape');
  } finally {
    await page.getByTestId('job-search').fill('');
    await runPreset(page, 'interactive-vs-scan', 'cancel');
    if ((await pause.getAttribute('data-paused')) === 'true') await pause.click();
    await expect(pause).toHaveAttribute('data-paused', 'false');
  }
});
