/**
 * The set-up both renderer scripts share (the fps bench and the screenshot tool): a headless
 * Chromium with the flags this network needs, and the page-side synthetic frame feed.
 */
import { chromium, type Browser, type Page } from 'playwright-core';
import { startFeed, type FeedOptions } from './renderer-feed.ts';

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
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
