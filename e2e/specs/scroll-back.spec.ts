// Scroll-back (issue 12): the range bar's slider moves the charts back through everything the
// app's history ring holds, not only the live charts' last 60 s, and says how much that is.
import type { Page } from '@playwright/test';
import { expect, test } from '../fixtures/app.ts';
import { openApp, screenshot } from './app-helpers.ts';

const attr = async (page: Page, testId: string, name: string) =>
  Number(await page.getByTestId(testId).getAttribute(name));

test('the scroll slider reaches the oldest point held and the label says how far back that is', async ({
  page,
  appUrl,
}) => {
  test.slow();
  await openApp(page, appUrl);
  const range = page.getByTestId('range');
  const held = page.getByTestId('range-held');
  await expect(held).toHaveText(/^history: \d+(\.\d)? min$/);
  // Enough history for a window narrower than what is held.
  await expect
    .poll(() => attr(page, 'range', 'data-held-ms'), { timeout: 90_000 })
    .toBeGreaterThan(15_000);
  // Both read in one go: a frame arriving between two reads could move the label on.
  const shown = await page.evaluate(() => ({
    heldMs: Number(document.querySelector('[data-testid="range"]')!.getAttribute('data-held-ms')),
    text: document.querySelector('[data-testid="range-held"]')!.textContent,
  }));
  expect(shown.text).toBe(
    `history: ${(shown.heldMs / 60_000).toFixed(shown.heldMs >= 600_000 ? 0 : 1)} min`,
  );

  // All the way back: the range starts at the oldest point held, and so does the chart.
  const slider = page.getByTestId('range-scroll');
  await slider.fill('0');
  await expect(range).toHaveAttribute('data-state', 'range');
  const oldest = await attr(page, 'range-held', 'data-oldest-ms');
  const from = await attr(page, 'range', 'data-from-ms');
  expect(from).toBe(oldest);
  await expect
    .poll(() => attr(page, 'queue-depth-series', 'data-first-ms'))
    .toBeLessThanOrEqual(oldest + 1000);
  await screenshot(page, 'scroll-back-oldest');

  // Half way: a later range of the same width, ending before the newest point held.
  await slider.fill('500');
  await expect.poll(() => attr(page, 'range', 'data-from-ms')).toBeGreaterThan(from);
  const half = {
    from: await attr(page, 'range', 'data-from-ms'),
    to: await attr(page, 'range', 'data-to-ms'),
  };
  expect(half.to).toBeLessThan(oldest + (await attr(page, 'range', 'data-held-ms')));
  await expect(page.getByTestId('range-later')).toBeEnabled();
  await page.getByTestId('range-live').click();
  await expect(range).toHaveAttribute('data-state', 'live');
});
