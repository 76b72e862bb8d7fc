/**
 * Serves the built renderer on `app://schedlab/` (see app-origin.ts): a privileged, standard,
 * secure scheme, so the page has a real origin for ES modules and fetch, and every response
 * carries the strict CSP as a header. Paths cannot escape `dist/renderer`; only plain files are
 * served.
 */
import { net, protocol } from 'electron';
import { pathToFileURL } from 'node:url';
import { contentSecurityPolicy } from '../engine/host/server/csp.ts';
import { isPlainFile, resolveInside } from '../engine/host/server/static-files.ts';
import { APP_HOST, APP_SCHEME } from './app-origin.ts';

/** Must run before the app is ready. */
export function registerAppScheme(): void {
  protocol.registerSchemesAsPrivileged([
    { scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } },
  ]);
}

export function serveRenderer(staticDir: string): void {
  const csp = contentSecurityPolicy();
  protocol.handle(APP_SCHEME, async (request) => {
    const url = new URL(request.url);
    const path = url.pathname === '/' ? '/index.html' : url.pathname;
    const file = url.host === APP_HOST ? resolveInside(staticDir, path) : null;
    // Plain files only, as browser mode serves: a folder's URL was fetched as a listing.
    if (file === null || !(await isPlainFile(file))) {
      return new Response('not found', { status: 404 });
    }
    const response = await net.fetch(pathToFileURL(file).toString());
    const headers = new Headers(response.headers);
    headers.set('content-security-policy', csp);
    headers.set('x-content-type-options', 'nosniff');
    return new Response(response.body, { status: response.status, headers });
  });
}
