// Clicking a span on the Gantt (a canvas) selects its job: the detail lists every split of it and
// the Gantt highlights its spans. The canvas names a span to click in `data-span-probe`
// (renderer/src/data/gantt-probe.ts), by the geometry its click handler reads back, of the class
// the spec asks for in `data-probe-class`.
import type { Page } from '@playwright/test';
import { expect, test } from '../fixtures/app.ts';
import { loadWorkload, openApp, runPreset, screenshot, view } from './app-helpers.ts';

/** Splits of every job of the workload this spec loads. */
const SPLITS = 3;

interface Probe {
  x: number;
  y: number;
  job: number;
  width: number;
  cls: string;
}

async function probe(page: Page): Promise<Probe | null> {
  const gantt = page.getByTestId('gantt-canvas');
  const raw = await gantt.getAttribute('data-span-probe');
  if (raw === null || raw === '') return null;
  const [x, y, job, width] = raw.split(',').map(Number) as [number, number, number, number];
  return { x, y, job, width, cls: (await gantt.getAttribute('data-span-probe-class')) ?? '' };
}

test('clicking a Gantt span selects its job; the detail shows every split of it', async ({
  page,
  appUrl,
}) => {
  test.slow();
  await openApp(page, appUrl);
  // A backlog left by earlier specs would keep the loaded jobs queued: cancel it (the preset
  // restarts), then loading the workload stops the preset's arrivals.
  await runPreset(page, 'interactive-vs-scan', 'cancel');
  const workload = {
    name: 'e2e-triples',
    classes: [
      {
        name: 'triple',
        // 90 s of arrivals: spans of the class keep coming while a slow page tries (the finally
        // block cancels the rest).
        arrival: { kind: 'periodic', everyMs: 300, count: 300 },
        splits: { intermediate: SPLITS },
        work: { kernel: 'spin', totalMs: 150 },
      },
    ],
  };
  await loadWorkload(page, workload, 'triples.json');
  const follow = page.getByTestId('gantt-follow');
  try {
    await view(page, 'live');
    const gantt = page.getByTestId('gantt-canvas');
    await gantt.scrollIntoViewIfNeeded();
    // The probe names a span of the loaded class (other work may still be running).
    await gantt.evaluate((el) => {
      (el as HTMLElement).dataset.probeClass = 'triple';
    });
    // Freeze the window while one of the loaded jobs' spans is in view, wide enough to hit;
    // frozen, the probe's pixels stay that span's whatever arrives later.
    let target: Probe | null = null;
    await expect(async () => {
      if ((await follow.getAttribute('aria-pressed')) !== 'true') await follow.click();
      await expect.poll(async () => (await probe(page))?.cls, { timeout: 30_000 }).toBe('triple');
      await follow.click();
      await expect(follow).toHaveAttribute('aria-pressed', 'false');
      const p = await probe(page);
      expect(p?.cls).toBe('triple');
      expect(p!.width).toBeGreaterThanOrEqual(4);
      target = p;
    }).toPass({ timeout: 90_000 });
    const { x, y, job } = target!;
    const box = (await gantt.boundingBox())!;
    await page.mouse.click(box.x + x, box.y + y);

    await expect(gantt).toHaveAttribute('data-selected-job', String(job));
    await expect
      .poll(async () => Number(await gantt.getAttribute('data-selected-spans')))
      .toBeGreaterThan(0);
    const detail = page.getByTestId('job-detail');
    await expect(detail).toHaveAttribute('data-job-id', String(job));
    // Every split of the job, each with its own timeline.
    await expect(detail).toHaveAttribute('data-splits', String(SPLITS), { timeout: 30_000 });
    const rows = detail.locator('[data-testid^="job-detail-split-"]');
    await expect(rows).toHaveCount(SPLITS);
    for (const row of await rows.all()) {
      await expect(row.locator('.split-timeline .seg')).not.toHaveCount(0);
    }
    await screenshot(page, 'gantt-span-selected');
    await page.keyboard.press('Escape');
    await expect(detail).toHaveCount(0);
  } finally {
    await runPreset(page, 'interactive-vs-scan', 'cancel');
    await view(page, 'live');
    if ((await follow.getAttribute('aria-pressed')) !== 'true') await follow.click();
  }
});
