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
    await page.evaluate(() =>
      (window as unknown as { __schedlabFeedStop?: () => void }).__schedlabFeedStop?.(),
    );
    const fps = (draws1 - draws0) / seconds;
    console.log(
      `  visible spans ${visible.toLocaleString('en-US')} drawn as ${rects.toLocaleString('en-US')} rectangles`,
    );
    report.add('renderer.fps_50k_spans', fps, 'fps', 30);
  } finally {
    await browser.close();
    await server.close();
  }
}
