// Helpers the app specs share: reading what the UI shows (data attributes the views expose for
// tests) and saving the screenshot of a view on every run.
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';
import { expect } from '../fixtures/app.ts';

const SHOTS = fileURLToPath(new URL('../screenshots', import.meta.url));

export const VIEWS = ['live', 'controls', 'workloads', 'compare', 'export'] as const;

/** Opens the app and waits until the engine's snapshot has arrived and frames flow. */
export async function openApp(page: Page, appUrl: string): Promise<void> {
  await page.goto(appUrl);
  // The snapshot can be megabytes of spans to parse on a busy machine: more than the usual wait.
  await expect(page.getByTestId('connection-status')).toHaveAttribute('data-status', 'open', {
    timeout: 60_000,
  });
  await expect(page.getByTestId('engine-policy')).not.toHaveText('…', { timeout: 60_000 });
}

export async function counters(page: Page): Promise<Record<string, number>> {
  return page.evaluate(() => {
    const out: Record<string, number> = {};
    for (const el of document.querySelectorAll<HTMLElement>('[data-testid^="counter-"]')) {
      out[el.dataset.testid!.slice('counter-'.length)] = Number(el.dataset.value);
    }
    return out;
  });
}

export async function spanCount(page: Page): Promise<number> {
  return Number(await page.getByTestId('gantt-canvas').getAttribute('data-span-count'));
}

export async function meanLevel(page: Page): Promise<number> {
  return Number(await page.getByTestId('level-share-readout').getAttribute('data-mean-level'));
}

export async function view(page: Page, name: (typeof VIEWS)[number]): Promise<void> {
  await page.getByTestId(`nav-${name}`).click();
  await expect(page.getByTestId(`view-${name}`)).toBeVisible();
}

/** Sets a Controls field the way a user does: type the value, press Enter. */
export async function setField(page: Page, field: string, value: string): Promise<void> {
  const input = page.getByTestId(`field-${field}`);
  await input.fill(value);
  await input.press('Enter');
}

export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
}

/** Levels that got ≥ 5 % of the scheduled time in the share window. */
export async function activeLevels(page: Page): Promise<number> {
  return Number(await page.getByTestId('level-share-readout').getAttribute('data-active-levels'));
}

/**
 * Starts a preset the way a user does. When the running workload still has live jobs the app
 * asks whether to let them drain or to cancel what is queued; `choice` answers it.
 */
export async function runPreset(
  page: Page,
  name: string,
  choice: 'drain' | 'cancel' = 'drain',
): Promise<void> {
  await view(page, 'workloads');
  const button = page.getByTestId(`preset-${name}`);
  await button.click();
  const ask = page.getByTestId('preset-switch');
  // The question, or (nothing live to ask about) the notice; an earlier notice may still show.
  await expect(ask.or(page.getByTestId('notice')).first()).toBeVisible();
  if (await ask.isVisible()) await page.getByTestId(`preset-switch-${choice}`).click();
  await expect(button).toBeEnabled();
}

/**
 * Moves the live session to another backend from the header; while jobs are live the app asks
 * whether to drain or cancel them, and this answers cancel whenever the question shows.
 */
export async function switchBackend(page: Page, name: 'threads' | 'sim'): Promise<void> {
  const backend = page.getByTestId('engine-backend');
  if ((await backend.getAttribute('data-backend')) === name) return;
  await page.getByTestId('backend-select').selectOption(name);
  const ask = page.getByTestId('backend-switch-cancel');
  await expect
    .poll(
      async () => {
        if (await ask.isVisible()) await ask.click();
        return backend.getAttribute('data-backend');
      },
      { timeout: 60_000 },
    )
    .toBe(name);
}

/** Loads a workload document the way a user does: the Workloads view's file input. */
export async function loadWorkload(page: Page, doc: object, file: string): Promise<void> {
  await view(page, 'workloads');
  await page.getByTestId('workload-file').setInputFiles({
    name: file,
    mimeType: 'application/json',
    buffer: Buffer.from(JSON.stringify(doc)),
  });
  await expect(page.getByTestId('workload-file-status')).toContainText(`loaded ${file}`, {
    timeout: 60_000,
  });
}
