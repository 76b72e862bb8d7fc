/**
 * `npx tsx bench/renderer-shot.ts [out-dir]`: screenshots of every view of the built renderer fed
 * by the bench's synthetic frames — for looking at the UI without an engine.
 */
import { fileURLToPath } from 'node:url';
import { DEFAULT_ENGINE_CONFIG } from '../shared/config.ts';
import { injectFeed, launchChromium } from './renderer-page.ts';
import { serveStatic } from './renderer-static.ts';

const DIST = fileURLToPath(new URL('../dist/renderer', import.meta.url));
const out = process.argv[2] ?? 'e2e/screenshots/bench';
const theme = process.argv[3] ?? 'dark';
const browser = await launchChromium();
if ('missing' in browser) {
  console.error(`renderer-shot: ${browser.missing}`);
  process.exit(1);
}
const server = await serveStatic(DIST);
try {
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  page.on('console', (m) => console.log(`page ${m.type()}: ${m.text()}`));
  page.on('pageerror', (e) => console.log(`page error: ${e.message}`));
  await page.addInitScript(`localStorage.setItem('schedlab.theme', '${theme}')`);
  await page.goto(`${server.origin}/?bench=1`);
  const feed = { workers: 4, spansPerFrame: 40, config: { ...DEFAULT_ENGINE_CONFIG } };
  await injectFeed(page, feed);
  await page.waitForTimeout(3000);
  const canvas = page.getByTestId('gantt-canvas');
  console.log(
    'span-count',
    await canvas.getAttribute('data-span-count'),
    'draws',
    await canvas.getAttribute('data-draws'),
  );
  // The hover tooltip over a span near the right edge of worker 0's lane.
  const box = (await canvas.boundingBox())!;
  await page.mouse.move(box.x + box.width - 60, box.y + 22 + 30);
  await page.waitForTimeout(300);
  await page.screenshot({
    path: `${out}/gantt-hover-${theme}.png`,
    clip: { x: box.x, y: box.y, width: box.width, height: box.height },
  });
  await page.getByTestId('color-by-class').click();
  await page.waitForTimeout(1200);
  for (const view of ['live', 'controls', 'workloads', 'compare', 'export']) {
    await page.getByTestId(`nav-${view}`).click();
    await page.waitForTimeout(400);
    await page.screenshot({ path: `${out}/${view}-${theme}.png`, fullPage: true });
  }
} finally {
  await browser.close();
  await server.close();
}
