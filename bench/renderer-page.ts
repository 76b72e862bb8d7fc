/**
 * The set-up both renderer scripts share (the fps bench and the screenshot tool): a headless
 * Chromium with the flags this network needs, and the page-side synthetic frame feed.
 */
import { chromium, type Browser, type Page } from 'playwright-core';
import { locateChromium } from '../e2e/setup/find-chromium.mjs';
import { startFeed, type FeedOptions } from './renderer-feed.ts';

/**
 * A headless Chromium found the way the e2e suite finds one ($CHROMIUM_PATH, a system Chromium,
 * Playwright's own), or null with the reason when this machine has none. A bench never installs
 * a browser; `node e2e/setup/find-chromium.mjs` does.
 */
export async function launchChromium(): Promise<Browser | { missing: string }> {
  const found = await locateChromium();
  if (found === null)
    return {
      missing:
        'no Chromium on this machine ($CHROMIUM_PATH, chromium on PATH, Playwright download); get one with `node e2e/setup/find-chromium.mjs`',
    };
  return chromium.launch({
    executablePath: found.path,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
}

/** Starts `startFeed` inside the page (it must be self-contained: it runs there, not here). */
export async function injectFeed(page: Page, feed: FeedOptions): Promise<void> {
  // tsx wraps named functions in `__name(...)`, which the page lacks: define it as identity.
  await page.evaluate(
    `(() => { const __name = (f) => f; (${startFeed.toString()})(${JSON.stringify(feed)}); })()`,
  );
}
