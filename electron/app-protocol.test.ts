// The app:// scheme the desktop app's page is served on, run against a stand-in for `electron`
// (its binary cannot be downloaded on every machine): what it serves and what it refuses.
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it, vi } from 'vitest';

const fake = vi.hoisted(() => ({
  handler: null as ((request: Request) => Promise<Response>) | null,
  fetched: [] as string[],
}));

vi.mock('electron', () => ({
  protocol: {
    registerSchemesAsPrivileged: () => {},
    handle: (_scheme: string, fn: (request: Request) => Promise<Response>) => {
      fake.handler = fn;
    },
  },
  // Electron's net.fetch reads file: URLs; this one reads plain files only, as Node can.
  net: {
    fetch: (url: string) => {
      fake.fetched.push(url);
      return Promise.resolve(new Response(readFileSync(fileURLToPath(url))));
    },
  },
}));

const { serveRenderer } = await import('./app-protocol.ts');

describe('the app:// scheme', () => {
  const root = mkdtempSync(join(tmpdir(), 'schedlab-app-'));
  writeFileSync(join(root, 'index.html'), '<!doctype html><title>SchedLab</title>');
  mkdirSync(join(root, 'assets'));
  writeFileSync(join(root, 'assets', 'app.js'), 'export {};');
  serveRenderer(root);
  const get = (url: string) => fake.handler!(new Request(url));

  it('serves the page and its files with the CSP', async () => {
    const page = await get('app://schedlab/');
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('SchedLab');
    expect(page.headers.get('content-security-policy')).toContain("default-src 'self'");
    expect((await get('app://schedlab/assets/app.js')).status).toBe(200);
  });

  it('answers 404 for a folder, a missing file, an escape or another host, reading nothing', async () => {
    fake.fetched.length = 0;
    for (const url of [
      'app://schedlab/assets', // a folder: it was fetched (a listing)
      'app://schedlab/assets/',
      'app://schedlab/missing.js',
      'app://schedlab/%2e%2e/%2e%2e/etc/passwd',
      'app://elsewhere/index.html',
    ]) {
      expect((await get(url)).status, url).toBe(404);
    }
    expect(fake.fetched).toEqual([]);
  });
});
