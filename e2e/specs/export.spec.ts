// Export: the Perfetto trace of the retained window downloads and parses.
import { readFile } from 'node:fs/promises';
import { expect, test } from '../fixtures/app.ts';
import { openApp, spanCount, view } from './app-helpers.ts';

interface TraceEvent {
  ph: string;
  name: string;
  tid?: number;
  ts?: number;
  dur?: number;
  args?: Record<string, unknown>;
}

test('export produces a Chrome trace that parses: named workers, a slice per quantum', async ({
  page,
  appUrl,
  host,
}) => {
  test.skip(host === 'electron', 'Electron routes downloads through a native save dialog');
  await openApp(page, appUrl);
  await expect.poll(() => spanCount(page)).toBeGreaterThan(0);
  await view(page, 'export');
  await page.getByText('everything retained').click();
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByTestId('export-trace').click(),
  ]);
  const doc = JSON.parse(await readFile(await download.path(), 'utf8')) as {
    traceEvents: TraceEvent[];
  };
  expect(Array.isArray(doc.traceEvents)).toBe(true);
  const threads = doc.traceEvents.filter((e) => e.ph === 'M' && e.name === 'thread_name');
  expect(threads.length).toBeGreaterThan(0);
  const slices = doc.traceEvents.filter((e) => e.ph === 'X');
  expect(slices.length).toBeGreaterThan(0);
  for (const s of slices.slice(0, 50)) {
    expect(s.dur).toBeGreaterThanOrEqual(0);
    expect(s.args).toHaveProperty('job');
    expect(s.args).toHaveProperty('level');
  }
  expect(doc.traceEvents.some((e) => e.ph === 'C')).toBe(true);
  await expect(page.getByTestId('export-status')).toContainText('trace');
});
