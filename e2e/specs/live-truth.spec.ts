// The Live view tells the truth (issue 11): each policy's panels count in its own unit, a quantum
// is visible while it runs, a smaller pool keeps the lanes of the workers that left, and a preset
// switch that cancels leaves nothing of the old workload running.
import type { Page } from '@playwright/test';
import { expect, test } from '../fixtures/app.ts';
import { counters, openApp, runPreset, screenshot, setField, view } from './app-helpers.ts';

// Each test switches views and knobs several times; on a loaded machine a click can take seconds.
test.describe.configure({ timeout: 300_000 });

const canvasNumber = async (page: Page, attr: string) =>
  Number(await page.getByTestId('gantt-canvas').getAttribute(attr));

test('each policy’s panels render its own unit', async ({ page, appUrl }) => {
  await openApp(page, appUrl);
  const expected = {
    mlfq: { unit: 'level', share: 'Charged time per level', depth: 'Queue depth per level' },
    priority: {
      unit: 'priority band',
      share: 'Charged time per priority band',
      depth: 'Queue depth per priority band',
    },
    fair: { unit: /^(task|split|job)$/, share: /Service share per/, depth: 'one fair queue' },
    fifo: { unit: 'queue', share: 'Queue age', depth: 'one FIFO queue' },
  } as const;
  const policy = page.getByTestId('field-policy');
  try {
    for (const [name, want] of Object.entries(expected)) {
      await view(page, 'controls');
      await policy.selectOption(name);
      await expect(page.getByTestId('echo-policy')).toHaveText(`engine: ${name}`);
      await view(page, 'live');
      const share = page.getByTestId('share');
      await expect(share).toHaveAttribute('data-unit', want.unit);
      await expect(share.locator('h3')).toHaveText(want.share);
      await expect(page.getByTestId('depth').locator('h3')).toContainText(want.depth);
      if (name === 'priority') {
        // The bands are named as bands wherever they appear.
        await expect(page.getByTestId('band-waits')).toContainText('p80-100');
        await expect(page.getByTestId('selections')).not.toContainText('L0');
      }
      await screenshot(page, `live-policy-${name}`);
    }
  } finally {
    await view(page, 'controls');
    await policy.selectOption('mlfq');
    await expect(page.getByTestId('echo-policy')).toHaveText('engine: mlfq');
  }
});

test('a running quantum is drawn while it runs', async ({ page, appUrl }) => {
  await openApp(page, appUrl);
  // The preset keeps workers busy: some worker is always inside a quantum.
  await expect
    .poll(() => canvasNumber(page, 'data-in-flight'), { timeout: 30_000 })
    .toBeGreaterThan(0);
});

test('after 4 → 1 workers the retired lanes still show their spans', async ({ page, appUrl }) => {
  await openApp(page, appUrl);
  await view(page, 'controls');
  const echo = page.getByTestId('echo-workers');
  const before = ((await echo.textContent()) ?? '').replace('engine: ', '');
  try {
    await setField(page, 'workers', '4');
    await expect(echo).toHaveText('engine: 4');
    await view(page, 'live');
    const laneSpans = async () =>
      ((await page.getByTestId('gantt-canvas').getAttribute('data-lane-spans')) ?? '')
        .split(',')
        .map(Number);
    // Every one of the four workers has run something in the window.
    await expect
      .poll(async () => (await laneSpans()).filter((n) => n > 0).length, { timeout: 60_000 })
      .toBe(4);
    // Lanes stay while their spans are in the visible window: widen it past how long the trip to
    // Controls and back can take here (10 s → about 76 s).
    for (let k = 0; k < 5; k++) await page.getByTestId('zoom-out').click();
    await expect.poll(() => canvasNumber(page, 'data-window-ms')).toBeGreaterThan(60_000);
    await view(page, 'controls');
    await setField(page, 'workers', '1');
    await expect(echo).toHaveText('engine: 1');
    await view(page, 'live');
    await expect.poll(() => canvasNumber(page, 'data-retired-lanes')).toBe(3);
    expect(await canvasNumber(page, 'data-lanes')).toBe(4);
    const spans = await laneSpans();
    expect(spans.slice(1).every((n) => n > 0)).toBe(true);
    await screenshot(page, 'live-retired-lanes');
  } finally {
    await view(page, 'controls');
    await setField(page, 'workers', before);
    await expect(echo).toHaveText(`engine: ${before}`);
  }
});

test('a preset switch with "cancel" leaves no live job from the old preset', async ({
  page,
  appUrl,
}) => {
  await openApp(page, appUrl);
  await expect.poll(async () => (await counters(page)).live).toBeGreaterThan(0);
  await view(page, 'workloads');
  // The highest job id so far: every job of the old workload has an id at most this.
  const oldMax = await page.evaluate(() =>
    Math.max(
      0,
      ...[...document.querySelectorAll<HTMLElement>('[data-testid^="job-row-"]')].map((el) =>
        Number(el.dataset.testid!.slice('job-row-'.length)),
      ),
    ),
  );
  await page.getByTestId('preset-batch-service').click();
  await expect(page.getByTestId('preset-switch')).toBeVisible();
  await page.getByTestId('preset-switch-cancel').click();
  // Retried until it shows (a notice goes after 3 s: read once, it could be gone already).
  await expect(page.getByTestId('notice')).toHaveText(
    /^cancelled \d+ jobs · running preset batch-service/,
  );
  // No job of the old workload stays live in the job table (live jobs are listed first). A quantum
  // running at the cancel ends first (`cancelRunning: finish-quantum`), and the table follows the
  // frames, so its row turns within a quantum and a frame, not at the notice.
  const oldLive = () =>
    page.evaluate(
      (max) =>
        [...document.querySelectorAll<HTMLElement>('[data-testid^="job-row-"]')].filter(
          (el) =>
            Number(el.dataset.testid!.slice('job-row-'.length)) <= max &&
            (el.dataset.state === 'running' || el.dataset.state === 'queued'),
        ).length,
      oldMax,
    );
  await expect.poll(oldLive, { timeout: 15_000 }).toBe(0);
  await runPreset(page, 'interactive-vs-scan', 'cancel');
});

/** What the test keeps of each frame the page received: its charged time and depth per level. */
interface SeenPoint {
  charged: number[];
  depth: number[];
}

test('after m changes, the share panel’s numbers are the frames’ charged shares', async ({
  page,
  appUrl,
  host,
}) => {
  test.skip(
    host !== 'browser',
    'reads the frames off the page’s WebSocket; the desktop app streams them over a MessagePort',
  );
  // Every frame (and the snapshot's history) the page gets, read off the same WebSocket.
  const seen = new Map<number, SeenPoint>();
  page.on('websocket', (ws) =>
    ws.on('framereceived', ({ payload }) => {
      const msg = JSON.parse(String(payload)) as {
        type: string;
        frame?: { seq: number; levels: { chargedNanos?: number; depth: number }[] };
        snapshot?: {
          frame: { seq: number; levels: { chargedNanos?: number; depth: number }[] };
          history?: { seq: number; chargedNanos?: number[]; depth: number[] }[];
        };
      };
      const keep = (f: { seq: number; levels: { chargedNanos?: number; depth: number }[] }) =>
        seen.set(f.seq, {
          charged: f.levels.map((l) => l.chargedNanos ?? NaN),
          depth: f.levels.map((l) => l.depth),
        });
      if (msg.type === 'frame' && msg.frame) keep(msg.frame);
      if (msg.type === 'snapshot' && msg.snapshot) {
        for (const p of msg.snapshot.history ?? []) {
          seen.set(p.seq, { charged: p.chargedNanos ?? [], depth: p.depth });
        }
        keep(msg.snapshot.frame);
      }
    }),
  );
  await openApp(page, appUrl);
  await view(page, 'controls');
  await page.getByTestId('field-policy').selectOption('mlfq');
  await expect(page.getByTestId('echo-policy')).toHaveText('engine: mlfq');
  const echo = page.getByTestId('echo-levelTimeMultiplier');
  const m = 4;
  try {
    await setField(page, 'levelTimeMultiplier', String(m));
    await expect(echo).toHaveText(`engine: ${m}`);
    await view(page, 'live');
    const readout = page.getByTestId('level-share-readout');
    // Some time charged in the window, so there are shares to compare.
    await expect
      .poll(async () => (await readout.getAttribute('data-shares')) ?? '', { timeout: 60_000 })
      .toMatch(/[1-9]/);
    // Text and the two frames it was taken between, read in one go (the panel redraws at 10 Hz).
    const shown = await readout.evaluate((el: HTMLElement) => ({
      text: el.textContent ?? '',
      from: Number(el.dataset.fromSeq),
      to: Number(el.dataset.toSeq),
    }));
    const first = seen.get(shown.from);
    const last = seen.get(shown.to);
    expect(first, `frame ${shown.from} was received`).toBeDefined();
    expect(last, `frame ${shown.to} was received`).toBeDefined();
    // The frames' charged shares over the same window: differences of the cumulative counts.
    const deltas = last!.charged.map((c, l) => Math.max(0, c - (first!.charged[l] ?? 0)));
    const total = deltas.reduce((a, b) => a + b, 0);
    expect(total).toBeGreaterThan(0);
    const shares = deltas.map((d) => (d / total) * 100);
    // Target: m^-L among the levels with work in the window (queued at any frame, or charged).
    const busy = deltas.map((d) => d > 0);
    for (let seq = shown.from; seq <= shown.to; seq++) {
      seen.get(seq)?.depth.forEach((d, l) => {
        if (d > 0) busy[l] = true;
      });
    }
    const weights = busy.map((b, l) => (b ? m ** -l : 0));
    const wsum = weights.reduce((a, b) => a + b, 0);
    const rows = [...shown.text.matchAll(/L(\d) ([\d.]+) %(?: \(target ([\d.]+) %\))?/g)];
    expect(rows).toHaveLength(deltas.length);
    for (const [, level, pct, target] of rows) {
      const l = Number(level);
      // Shown to one decimal: equal within rounding.
      expect(Math.abs(Number(pct) - shares[l]!)).toBeLessThanOrEqual(0.051);
      expect(Math.abs(Number(target) - (weights[l]! / wsum) * 100)).toBeLessThanOrEqual(0.051);
    }
    await screenshot(page, 'live-share-vs-frames');
  } finally {
    await view(page, 'controls');
    await setField(page, 'levelTimeMultiplier', '2');
    await expect(echo).toHaveText('engine: 2');
  }
});
