/**
 * Browser mode's HTTP side: the page (token or its cookie required), the built assets, and the
 * headers every response carries, refusals included. Requests are vetted by request-guard.ts.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { ErrorInfo } from '../../../shared/errors.ts';
import { WS_PATH } from '../../../shared/transport.ts';
import { contentSecurityPolicy } from './csp.ts';
import {
  isLoopbackHost,
  requestPath,
  tokenCookie,
  tokenOffered,
  tokenProof,
} from './request-guard.ts';
import { resolveDecoded, sendFile } from './static-files.ts';

export const HOST = '127.0.0.1';

/**
 * Client sockets a server holds at once. Each may leave up to its byte budget unread
 * (`maxBufferedBytes`, 64 MiB), so the bound on clients is the bound on that memory: sixteen
 * clients that stopped reading held 1.1 GB, and nothing limited how many connected.
 */
export const MAX_CLIENTS = 32;

/** What every response carries, whatever its status: no sniffing, framing, referrer or caching. */
export function securityHeaders(port: number): Record<string, string> {
  return {
    'content-security-policy': contentSecurityPolicy([`ws://${HOST}:${port}`]),
    // The token may be in the page URL: never send it on as a referrer, never cache the page.
    'referrer-policy': 'no-referrer',
    'cache-control': 'no-store',
    'x-frame-options': 'DENY',
    'x-content-type-options': 'nosniff',
    'cross-origin-resource-policy': 'same-origin',
    'cross-origin-opener-policy': 'same-origin',
  };
}

export interface HttpContext {
  readonly staticDir: string;
  readonly token: string;
  readonly port: number;
}

function plain(res: ServerResponse, status: number, text: string): void {
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8' }).end(text);
}

export async function handleHttp(
  req: IncomingMessage,
  res: ServerResponse,
  ctx: HttpContext,
): Promise<void> {
  for (const [name, value] of Object.entries(securityHeaders(ctx.port))) res.setHeader(name, value);
  if (!isLoopbackHost(req.headers.host, ctx.port)) {
    plain(res, 403, '403: this server answers only to its loopback address\n');
    return;
  }
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.writeHead(405, { allow: 'GET, HEAD' }).end();
    return;
  }
  const target = requestPath(req);
  if (target === null) {
    plain(res, 400, '400: the path is not valid percent-encoding\n');
    return;
  }
  const headOnly = req.method === 'HEAD';
  const proof = tokenProof(req, target.query, ctx.token, ctx.port);
  const page = target.path === '/' || target.path === '/index.html';
  // The page and the source maps (which hold the source) need the token; built scripts and
  // styles hold no secrets.
  if ((page || target.path.endsWith('.map')) && proof === null) {
    const offered = tokenOffered(req, target.query, ctx.port);
    // A browser opening the page (a reload after a restart) gets words, not the JSON for a tab.
    if (page && wantsHtml(req)) {
      res
        .writeHead(401, { 'content-type': 'text/html; charset=utf-8' })
        .end(unauthorizedPage(offered));
      return;
    }
    res
      .writeHead(401, { 'content-type': 'application/json; charset=utf-8' })
      .end(unauthorizedBody(offered));
    return;
  }
  if (page) {
    const index = join(ctx.staticDir, 'index.html');
    if (!existsSync(index)) {
      plain(res, 503, 'the renderer is not built: run `npx vite build`\n');
      return;
    }
    // The URL's token becomes a cookie; the page then drops it from the address bar.
    if (proof === 'query') res.setHeader('set-cookie', tokenCookie(ctx.token, ctx.port));
    await sendFile(res, index, {}, headOnly);
    return;
  }
  const file = resolveDecoded(ctx.staticDir, target.path);
  if (file === null) {
    plain(res, 404, 'not found\n');
    return;
  }
  await sendFile(res, file, { 'cache-control': 'no-cache' }, headOnly);
}

/** A refusal written on a raw socket (an upgrade that never became a WebSocket). */
export function rawRefusal(status: 401 | 403 | 404 | 503, port: number, offered = true): string {
  const reason = REASONS[status];
  const body = status === 401 ? unauthorizedBody(offered) : (BODIES[status]?.() ?? '');
  const headers = Object.entries({
    ...securityHeaders(port),
    ...(body === '' ? {} : { 'content-type': 'application/json; charset=utf-8' }),
  })
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join('');
  return `HTTP/1.1 ${status} ${reason}\r\n${headers}Connection: close\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
}

const REASONS = {
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  503: 'Service Unavailable',
} as const;

/** The coded error a refusal other than 401 carries (403 carries none). */
const BODIES: Partial<Record<keyof typeof REASONS, () => string>> = {
  404: () => noSocketBody(),
  503: () => tooManyBody(),
};

/** A socket past the server's most clients (server.ts `MAX_CLIENTS`). */
function tooManyBody(): string {
  const error: ErrorInfo = {
    code: 'TOO_MANY_CLIENTS',
    message: `the server holds its most connections (${MAX_CLIENTS}): close a tab or another client, then reload`,
    field: 'connection',
  };
  return `${JSON.stringify({ ok: false, error })}\n`;
}

/** An upgrade with the right token to a path that has no socket: where the socket is. */
function noSocketBody(): string {
  const error: ErrorInfo = {
    code: 'INVALID_ARGUMENT',
    message: `no WebSocket at this path: the engine's is at ${WS_PATH}`,
    field: 'path',
  };
  return `${JSON.stringify({ ok: false, error })}\n`;
}

/**
 * A refused token's answer, as a coded error (shared/errors.ts) a tab can show: a page left open
 * across a server restart finds out here that its session ended.
 */
export function unauthorizedBody(offered = true): string {
  return `${JSON.stringify({ ok: false, error: unauthorizedError(offered) })}\n`;
}

/** Whether the request is a browser's navigation (it takes HTML before anything else). */
function wantsHtml(req: IncomingMessage): boolean {
  const accept = req.headers.accept ?? '';
  return /(^|,)\s*text\/html\b/.test(accept);
}

/** The same refusal as a page a person reads: the message and its code, no script. */
function unauthorizedPage(offered: boolean): string {
  const { code, message } = unauthorizedError(offered);
  return [
    '<!doctype html><meta charset="utf-8"><title>SchedLab: not this session</title>',
    '<body style="font: 16px system-ui, sans-serif; max-width: 40em; margin: 3em auto">',
    '<h1>This SchedLab console needs the URL it printed</h1>',
    `<p>${escapeHtml(message[0]!.toUpperCase() + message.slice(1))}.</p>`,
    `<p><code>${code}</code></p>`,
    '',
  ].join('\n');
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function unauthorizedError(offered: boolean): ErrorInfo {
  return {
    code: 'UNAUTHORIZED',
    message: offered
      ? "this URL's token is not this server's: it was mistyped, or the session it opened has ended (the server restarted or stopped); open the URL SchedLab printed, token included"
      : 'this URL has no token: open the URL SchedLab printed, token included (it ends in ?token=…)',
    field: 'token',
  };
}
