/**
 * The one Content-Security-Policy of the app (docs/design.md §7), for the browser-mode page (HTTP
 * header) and the Electron window (protocol response header). Scripts only from our own origin,
 * no eval, no plugins, no framing, no forms; styles may be inline because charting libraries set
 * them; `connect` only to our own host (plus the explicit WebSocket origin in browser mode,
 * since not every browser lets 'self' cover ws:).
 */
export function contentSecurityPolicy(extraConnectSources: readonly string[] = []): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    ['connect-src', "'self'", ...extraConnectSources].join(' '),
    "worker-src 'self' blob:",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}
