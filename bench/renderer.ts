/**
 * Renderer bench (issue 6): the built renderer in headless Chromium, fed 10 Hz synthetic frames
 * (page-side, `?bench=1`) until the Gantt's visible window holds ≥ 50k spans, then counts Gantt
 * redraws per second while following live with every Live chart on screen.
 * Figure `renderer.fps_50k_spans`, baseline 30 fps (the bar).
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { DEFAULT_ENGINE_CONFIG } from '../shared/config.ts';
import type { BenchReport } from './report.ts';
import { injectFeed, launchChromium } from './renderer-page.ts';
import { serveStatic } from './renderer-static.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const DIST = fileURLToPath(new URL('../dist/renderer', import.meta.url));
const WORKERS = 8;
/** 10 Hz × 800 spans = 80k spans in the default 10 s window once it is full. */
const SPANS_PER_FRAME = 800;
const MEASURE_MS = 8000;

export async function run(report: BenchReport): Promise<void> {
  const browser = await launchChromium();
  if ('missing' in browser) {
    console.log(`  skipped: ${browser.missing}`);
    return;
  }
  if (!existsSync(`${DIST}/index.html`)) {
    const built = spawnSync('npx', ['vite', 'build', '--logLevel', 'warn'], {
      cwd: ROOT,
      stdio: 'inherit',
    });
    if (built.status !== 0) {
      await browser.close();
      throw new Error('renderer bench: npx vite build failed');
    }
  }
  const server = await serveStatic(DIST);
  try {
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    await page.goto(`${server.origin}/?bench=1`);
    await page.waitForSelector('[data-testid="gantt-canvas"]');
    const feed = {
      workers: WORKERS,
      spansPerFrame: SPANS_PER_FRAME,
      config: { ...DEFAULT_ENGINE_CONFIG },
    };
    await injectFeed(page, feed);
    const canvas = page.getByTestId('gantt-canvas');
    // Fill the 10 s window before measuring.
    await page.waitForFunction(
      () =>
        Number(
          document.querySelector('[data-testid="gantt-canvas"]')?.getAttribute('data-span-count'),
        ) >= 50_000,
      undefined,
      { timeout: 30_000, polling: 250 },
    );
    const draws0 = Number(await canvas.getAttribute('data-draws'));
    const t0 = Date.now();
    await page.waitForTimeout(MEASURE_MS);
    const draws1 = Number(await canvas.getAttribute('data-draws'));
    const seconds = (Date.now() - t0) / 1000;
    const visible = Number(await canvas.getAttribute('data-span-count'));
    const rects = Number(await canvas.getAttribute('data-rect-count'));
    const fps = (draws1 - draws0) / seconds;
    console.log(
      `  visible spans ${visible.toLocaleString('en-US')} drawn as ${rects.toLocaleString('en-US')} rectangles`,
    );
    report.add('renderer.fps_50k_spans', fps, 'fps', 30);

    // Issue 12: the same, with a job selected (its spans outlined, the rest dimmed) while live.
    const box = (await canvas.boundingBox())!;
    await page.mouse.click(box.x + box.width * 0.6, box.y + box.height * 0.3);
    const selected = await canvas.getAttribute('data-selected-job');
    if (selected === null || selected === '') {
      console.log('  job selected: no span under the click, figure skipped');
    } else {
      const d0 = Number(await canvas.getAttribute('data-draws'));
      const s0 = Date.now();
      await page.waitForTimeout(MEASURE_MS);
      const d1 = Number(await canvas.getAttribute('data-draws'));
      const selectedFps = (d1 - d0) / ((Date.now() - s0) / 1000);
      console.log(
        `  job ${selected} selected: ${await canvas.getAttribute('data-selected-spans')} of its spans outlined`,
      );
      report.add('renderer.fps_50k_spans_job_selected', selectedFps, 'fps', 30);
      // A brushed range stops following, so the Gantt redraws only as frames arrive (10 Hz); what
      // it could draw is 1000 / (its draw time), with the job still selected and the range shaded.
      await page.keyboard.down('Shift');
      await page.mouse.move(box.x + box.width * 0.4, box.y + box.height * 0.5);
      await page.mouse.down();
      await page.mouse.move(box.x + box.width * 0.7, box.y + box.height * 0.5, { steps: 5 });
      await page.mouse.up();
      await page.keyboard.up('Shift');
      await page.waitForTimeout(3000);
      const drawMs = Number(await canvas.getAttribute('data-draw-ms'));
      const ranged = await page.getByTestId('range').getAttribute('data-state');
      console.log(`  range ${ranged}: one draw ${drawMs.toFixed(2)} ms`);
      if (ranged !== 'live' && drawMs > 0) {
        report.add('renderer.draw_capacity_fps_job_and_range', 1000 / drawMs, 'fps', 30);
      }
    }
    await page.evaluate(() =>
      (window as unknown as { __schedlabFeedStop?: () => void }).__schedlabFeedStop?.(),
    );
  } finally {
    await browser.close();
    await server.close();
  }
}
