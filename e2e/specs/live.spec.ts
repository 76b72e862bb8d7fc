// The Live view against a real engine: a preset is running at launch, frames flow into the
// counters and the Gantt, a reload resumes from the host's snapshot, the shortcuts work.
import { expect, test } from '../fixtures/app.ts';
import { counters, openApp, screenshot, spanCount, view, VIEWS } from './app-helpers.ts';

test('the app opens on a live preset and frames flow: counters advance, the Gantt has spans', async ({
  page,
  appUrl,
}) => {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await openApp(page, appUrl);
  await expect(page.getByTestId('view-live')).toBeVisible();
  await expect(page.getByTestId('disconnected-banner')).toHaveCount(0);
  const before = await counters(page);
  await expect.poll(async () => (await counters(page)).quanta).toBeGreaterThan(before.quanta!);
  await expect.poll(async () => (await counters(page)).submitted).toBeGreaterThan(0);
  await expect.poll(() => spanCount(page)).toBeGreaterThan(0);
  await screenshot(page, 'live');
  expect(errors).toEqual([]);
});

test('every view renders; a screenshot of each is saved', async ({ page, appUrl }) => {
  // Seven full-page screenshots and a reload: slow on a loaded two-core machine.
  test.setTimeout(180_000);
  await openApp(page, appUrl);
  for (const name of VIEWS) {
    await view(page, name);
    await screenshot(page, name);
  }
  await page.getByTestId('theme-toggle').click();
  const theme = await page.evaluate(() => document.documentElement.dataset.theme);
  await view(page, 'live');
  await expect.poll(() => spanCount(page)).toBeGreaterThan(0);
  await screenshot(page, `live-${theme}`);
  // The theme is remembered across a reload.
  await openApp(page, appUrl);
  expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe(theme);
  await page.getByTestId('theme-toggle').click();
});

test('a reload resumes from the snapshot: history and counters are there at once', async ({
  page,
  appUrl,
}) => {
  const chart = page.getByTestId('queue-depth-series');
  const chartSeconds = async () => Number(await chart.getAttribute('data-span-s'));
  // The chart's first and last points, in engine time (ms).
  const chartWindow = () =>
    chart.evaluate((el) => {
      const first = Number((el as HTMLElement).dataset.firstMs);
      return { first, last: first + Number((el as HTMLElement).dataset.spanS) * 1000 };
    });
  await openApp(page, appUrl);
  await expect.poll(async () => (await counters(page)).submitted).toBeGreaterThan(0);
  // Let the queue-depth chart gather a few seconds of frames first.
  await expect.poll(chartSeconds, { timeout: 30_000 }).toBeGreaterThanOrEqual(6);
  const before = await counters(page);
  const { last } = await chartWindow();
  await page.reload();
  await expect(page.getByTestId('connection-status')).toHaveAttribute('data-status', 'open');
  // The snapshot carries the frames' series: the chart starts at least 4.5 s before the last
  // point it drew before the reload, which frames arriving after the reload (all later than that
  // point) could never draw. Engine time on both sides: a busy machine cannot fail it.
  await expect
    .poll(async () => (await chartWindow()).first, { timeout: 30_000 })
    .toBeLessThanOrEqual(last - 4500);
  // The snapshot carries the engine's counters and the spans still in its ring, so the page
  // shows the past immediately instead of starting from zero.
  await expect
    .poll(async () => (await counters(page)).submitted)
    .toBeGreaterThanOrEqual(before.submitted!);
  await expect.poll(() => spanCount(page)).toBeGreaterThan(0);
  await expect.poll(async () => (await counters(page)).quanta).toBeGreaterThan(before.quanta!);
});

test('keyboard: space pauses and resumes the engine, digits switch views, f toggles follow', async ({
  page,
  appUrl,
}) => {
  await openApp(page, appUrl);
  const pause = page.getByTestId('pause-toggle');
  await expect(pause).toHaveAttribute('data-paused', 'false');
  await page.locator('body').press(' ');
  try {
    // The button shows the engine's echo (frame.paused), not a local flag.
    await expect(pause).toHaveAttribute('data-paused', 'true');
    await expect(pause).toHaveText(/Resume/);
  } finally {
    await page.locator('body').press(' ');
  }
  await expect(pause).toHaveAttribute('data-paused', 'false');
  await page.locator('body').press('2');
  await expect(page.getByTestId('view-controls')).toBeVisible();
  await page.locator('body').press('1');
  const follow = page.getByTestId('gantt-follow');
  await expect(follow).toHaveAttribute('aria-pressed', 'true');
  await page.locator('body').press('f');
  await expect(follow).toHaveAttribute('aria-pressed', 'false');
  await page.locator('body').press('f');
  await expect(follow).toHaveAttribute('aria-pressed', 'true');
  // + and − zoom the Gantt's window.
  const gantt = page.getByTestId('gantt-canvas');
  const windowMs = async () => Number(await gantt.getAttribute('data-window-ms'));
  const before = await windowMs();
  await page.locator('body').press('+');
  await expect.poll(windowMs).toBeLessThan(before);
  await page.locator('body').press('-');
  await expect.poll(windowMs).toBeCloseTo(before, 3);
});

test('when the connection drops a banner says so; the app reconnects and resumes', async ({
  page,
  appUrl,
  host,
}) => {
  test.skip(
    host !== 'browser',
    'drops the WebSocket, which only browser mode has; the Electron port lives as long as the window',
  );
  const routes: { close(): Promise<void> }[] = [];
  // Pass every socket through to the real host, keeping a handle to cut the first one.
  await page.routeWebSocket(/\/ws/, (ws) => {
    ws.connectToServer();
    routes.push(ws);
  });
  await openApp(page, appUrl);
  await expect.poll(() => spanCount(page)).toBeGreaterThan(0);
  await routes[0]!.close();
  await expect(page.getByTestId('disconnected-banner')).toBeVisible();
  await screenshot(page, 'live-disconnected');
  // Backoff, reconnect, snapshot: open again with history, and frames flow.
  await expect(page.getByTestId('connection-status')).toHaveAttribute('data-status', 'open');
  await expect(page.getByTestId('disconnected-banner')).toHaveCount(0);
  expect(routes.length).toBeGreaterThan(1);
  const after = await counters(page);
  await expect.poll(async () => (await counters(page)).quanta).toBeGreaterThan(after.quanta!);
});
