// The multilevel queue's one big knob, live: changing levelTimeMultiplier is echoed by the engine
// and moves scheduled time between levels the way docs/design.md §3.1 says — a larger m gives each
// busy level more time than the next, so the time-weighted mean level drops.
import { expect, test } from '../fixtures/app.ts';
import {
  activeLevels,
  meanLevel,
  openApp,
  runPreset,
  screenshot,
  setField,
  view,
} from './app-helpers.ts';

// The running preset needs a while before its jobs spread over several levels (under Trino's
// charging, level 1 waits until level 0 drains), and each reading spans a 5 s window.
test.describe.configure({ timeout: 300_000 });

test('a larger multiplier is echoed by the engine and shifts scheduled time toward level 0', async ({
  page,
  appUrl,
}) => {
  await openApp(page, appUrl);
  // Earlier specs share this engine; after minutes of running, all its work can sit on level 4,
  // where m has nothing left to decide. A fresh run of the default preset starts at level 0.
  await runPreset(page, 'interactive-vs-scan');
  await view(page, 'controls');
  await page.getByTestId('field-policy').selectOption('mlfq');
  await expect(page.getByTestId('echo-policy')).toHaveText('engine: mlfq');
  const echo = page.getByTestId('echo-levelTimeMultiplier');
  try {
    await setField(page, 'levelTimeMultiplier', '2');
    await expect(echo).toHaveText('engine: 2');
    await view(page, 'live');
    // Precondition: the scheduler is choosing between levels, or m has nothing to decide.
    await expect
      .poll(() => activeLevels(page), { timeout: 200_000, intervals: [1000] })
      .toBeGreaterThanOrEqual(2);
    const atTwo = await meanLevel(page);

    await view(page, 'controls');
    await setField(page, 'levelTimeMultiplier', '1.2');
    await expect(echo).toHaveText('engine: 1.2');
    await view(page, 'live');
    // A flatter split: time moves up, away from level 0.
    await expect
      .poll(() => meanLevel(page), { timeout: 30_000, intervals: [1000] })
      .toBeGreaterThan(atTwo + 0.05);
    const flat = await meanLevel(page);

    await view(page, 'controls');
    await setField(page, 'levelTimeMultiplier', '8');
    await expect(echo).toHaveText('engine: 8');
    await view(page, 'live');
    await expect
      .poll(() => meanLevel(page), { timeout: 30_000, intervals: [1000] })
      .toBeLessThan(flat - 0.05);
    await screenshot(page, 'live-multiplier-8');
  } finally {
    await view(page, 'controls');
    await setField(page, 'levelTimeMultiplier', '2');
    await expect(echo).toHaveText('engine: 2');
  }
});
