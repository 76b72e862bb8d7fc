// Controls against a real engine: a knob change is applied live and echoed back; a policy switch
// mid-run loses no job; a value out of range is refused with the field named and nothing changes.
import { expect, test } from '../fixtures/app.ts';
import { counters, openApp, screenshot, setField, view } from './app-helpers.ts';

test('switching policy mid-run loses no job: counters balance before and after', async ({
  page,
  appUrl,
}) => {
  await openApp(page, appUrl);
  const balanced = async () => {
    const c = await counters(page);
    return c.submitted! - (c.succeeded! + c.failed! + c.cancelled! + c.rejected! + c.live!);
  };
  await expect.poll(balanced).toBe(0);
  await view(page, 'controls');
  const policy = page.getByTestId('field-policy');
  try {
    for (const next of ['fifo', 'priority', 'fair', 'mlfq']) {
      await policy.selectOption(next);
      await expect(page.getByTestId('echo-policy')).toHaveText(`engine: ${next}`);
      await expect(page.getByTestId('engine-policy')).toHaveText(next);
    }
  } finally {
    await policy.selectOption('mlfq');
  }
  await view(page, 'live');
  const before = await counters(page);
  // Work keeps completing under the new policy and every job is accounted for in every frame.
  await expect.poll(async () => (await counters(page)).quanta).toBeGreaterThan(before.quanta!);
  for (let i = 0; i < 5; i++) await expect.poll(balanced).toBe(0);
});

test('an out-of-range value shows an error next to the field and changes nothing', async ({
  page,
  appUrl,
}) => {
  await openApp(page, appUrl);
  await view(page, 'controls');
  const echo = page.getByTestId('echo-levelTimeMultiplier');
  const before = await echo.textContent();
  await setField(page, 'levelTimeMultiplier', '0.5');
  const error = page.getByTestId('error-levelTimeMultiplier');
  await expect(error).toBeVisible();
  await expect(error).toContainText('levelTimeMultiplier');
  await setField(page, 'levelThresholdsMs', '0, 500, 100, 3000, 15000');
  await expect(page.getByTestId('error-levelThresholdsMs')).toContainText(
    'levelThresholdsMs[2] must be > the previous threshold',
  );
  await screenshot(page, 'controls-errors');
  // The engine's echo is what it was: nothing was applied.
  await expect(echo).toHaveText(before!);
  await page.reload();
  await view(page, 'controls');
  await expect(page.getByTestId('echo-levelTimeMultiplier')).toHaveText(before!);
  await expect(page.getByTestId('error-levelTimeMultiplier')).toHaveCount(0);
});

test('a value the schema accepts is applied live and its change is marked in the engine echo', async ({
  page,
  appUrl,
}) => {
  await openApp(page, appUrl);
  await view(page, 'controls');
  const echo = page.getByTestId('echo-quantumMs');
  const before = (await echo.textContent())!.replace('engine: ', '');
  try {
    await setField(page, 'quantumMs', '40');
    await expect(echo).toHaveText('engine: 40');
    await expect(page.getByTestId('error-quantumMs')).toHaveCount(0);
  } finally {
    await setField(page, 'quantumMs', before);
    await expect(echo).toHaveText(`engine: ${before}`);
  }
});

test('graph-run choices go to the engine with configureGraph and come back in its echo', async ({
  page,
  appUrl,
}) => {
  await openApp(page, appUrl);
  await view(page, 'controls');
  const select = page.getByTestId('field-graphPolicy');
  const echo = page.getByTestId('echo-graphPolicy');
  try {
    await select.selectOption('critical-path');
    await expect(echo).toHaveText('engine: critical-path');
    await expect(page.getByTestId('error-graphPolicy')).toHaveCount(0);
  } finally {
    // Back to "as the graph document says".
    await select.selectOption('');
    await expect(echo).toHaveText('engine: —');
  }
});

test('the per-tenant bound takes a number or nothing (no limit), and refuses 0 naming it', async ({
  page,
  appUrl,
}) => {
  await openApp(page, appUrl);
  await view(page, 'controls');
  const echo = page.getByTestId('echo-maxLivePerTenant');
  await expect(echo).toHaveText('engine: no limit');
  await expect(page.getByTestId('field-maxLivePerTenant')).toHaveAttribute(
    'placeholder',
    'no limit',
  );
  try {
    await setField(page, 'maxLivePerTenant', '5');
    await expect(echo).toHaveText('engine: 5');
    await setField(page, 'maxLivePerTenant', '0');
    await expect(page.getByTestId('error-maxLivePerTenant')).toContainText('maxLivePerTenant');
    await expect(echo).toHaveText('engine: 5');
  } finally {
    await setField(page, 'maxLivePerTenant', '');
    await expect(echo).toHaveText('engine: no limit');
  }
});
