// Workloads against a real engine: submit one job, see it counted, cancel it.
import { expect, test } from '../fixtures/app.ts';
import type { Page } from '@playwright/test';
import { counters, openApp, screenshot, view } from './app-helpers.ts';

/**
 * The outcome cell of a job's row, or null when the row is not listed. The table is virtualized
 * (only rows in view are in the DOM), so this scrolls through it looking for the row.
 */
async function jobOutcome(page: Page, jobId: number): Promise<string | null> {
  return page.evaluate(async (id) => {
    const cell = () => document.querySelector(`[data-testid="job-outcome-${id}"]`);
    const scroller = document.querySelector<HTMLElement>('.job-scroll');
    if (scroller === null) return null;
    for (let top = 0; top <= scroller.scrollHeight; top += scroller.clientHeight / 2) {
      scroller.scrollTop = top;
      scroller.dispatchEvent(new Event('scroll'));
      // Two animation frames: React renders the rows for the new scroll position in between.
      for (let k = 0; k < 2; k++) await new Promise((r) => requestAnimationFrame(() => r(null)));
      const found = cell();
      if (found !== null) return found.textContent;
    }
    return null;
  }, jobId);
}

test('submit a job, then cancel it: the engine counts it submitted, then cancelled', async ({
  page,
  appUrl,
}) => {
  await openApp(page, appUrl);
  await expect.poll(async () => (await counters(page)).submitted).toBeGreaterThan(0);
  const before = await counters(page);
  await view(page, 'workloads');
  await page.getByTestId('submit-class').fill('e2e');
  await page.getByTestId('submit-splits').fill('3');
  // Long enough that it cannot finish before the cancel arrives.
  await page.getByTestId('submit-split-ms').fill('60000');
  await page.getByTestId('submit-job').click();
  const result = page.getByTestId('submit-result');
  await expect(result).toContainText(/submitted job \d+/);
  const jobId = Number(await result.getAttribute('data-job-id'));
  await screenshot(page, 'workloads-submitted');
  await page.getByTestId('submit-cancel').click();
  await expect(result).toContainText(`cancelled job ${jobId}`);
  // The job table says why it ended, with the code.
  await expect.poll(() => jobOutcome(page, jobId)).toBe('CANCELLED: cancelled by request');
  await view(page, 'live');
  await expect
    .poll(async () => (await counters(page)).submitted)
    .toBeGreaterThan(before.submitted!);
  await expect
    .poll(async () => (await counters(page)).cancelled)
    .toBeGreaterThan(before.cancelled!);
});

test('a job that does not match the schema is refused before it is sent, naming the field', async ({
  page,
  appUrl,
}) => {
  await openApp(page, appUrl);
  await view(page, 'workloads');
  await page.getByTestId('submit-priority').fill('101');
  await page.getByTestId('submit-job').click();
  await expect(page.getByTestId('submit-result')).toContainText('basePriority');
});

test('reprioritize a running job from the job table: the engine echoes the new priority', async ({
  page,
  appUrl,
}) => {
  await openApp(page, appUrl);
  await view(page, 'workloads');
  const row = page.locator('[data-testid^="job-row-"][data-state="running"]').first();
  await expect(row).toBeVisible();
  const id = (await row.getAttribute('data-testid'))!.slice('job-row-'.length);
  const next = (await row.getAttribute('data-priority')) === '7' ? '8' : '7';
  await page.getByTestId(`job-priority-${id}`).fill(next);
  await page.getByTestId(`job-reprioritize-${id}`).click();
  await expect(page.getByTestId(`job-row-${id}`)).toHaveAttribute('data-priority', next);
  await expect(page.getByTestId('notice')).toHaveCount(0);
});
