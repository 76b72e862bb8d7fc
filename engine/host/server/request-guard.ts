/**
 * Who may talk to browser mode, decided per request before anything is served (docs/design.md §7):
 * - the `Host` header must name the loopback address the server listens on, so a DNS-rebound
 *   name (`evil.example` resolving to 127.0.0.1) gets 403;
 * - a WebSocket upgrade must come from the server's own origin (or carry no `Origin`, as a
 *   non-browser client with the token does), so a leaked token does not work from another page;
 * - the path is percent-decoded once and normalised before the token check, so `/%69ndex.html`
 *   or `/assets/..%2findex.html` is the page and needs the token like `/index.html`;
 * - the token arrives in the URL once; the page load that carries it sets an HttpOnly,
 *   SameSite=Strict cookie that later requests and the WebSocket present instead.
 */
import type { IncomingMessage } from 'node:http';
import { posix } from 'node:path';
import { tokenMatches } from './token.ts';

/** The names a browser may use for the loopback address the server is bound to. */
const LOOPBACK_NAMES = ['127.0.0.1', 'localhost', '[::1]'] as const;

/** True when `host` (a `Host` header) is a loopback name with the server's port. */
export function isLoopbackHost(host: string | undefined, port: number): boolean {
  if (host === undefined) return false;
  return LOOPBACK_NAMES.some((name) => host.toLowerCase() === `${name}:${port}`);
}

/** True when `origin` is absent (not a browser) or one of the server's own origins. */
export function isOwnOrigin(origin: string | undefined, port: number): boolean {
  if (origin === undefined) return true;
  return LOOPBACK_NAMES.some((name) => origin.toLowerCase() === `http://${name}:${port}`);
}

export interface RequestPath {
  /** Decoded once and normalised: no `..`, no `//`, always starting with `/`. */
  readonly path: string;
  readonly query: URLSearchParams;
}

/** The request's path decoded once and normalised; null when it cannot be decoded. */
export function requestPath(req: IncomingMessage): RequestPath | null {
  const raw = req.url ?? '/';
  const q = raw.indexOf('?');
  const encoded = q < 0 ? raw : raw.slice(0, q);
  let decoded: string;
  try {
    decoded = decodeURIComponent(encoded);
  } catch {
    return null;
  }
  if (decoded.includes('\0') || decoded.includes('\\')) return null;
  const path = posix.normalize(`/${decoded}`);
  return { path, query: new URLSearchParams(q < 0 ? '' : raw.slice(q + 1)) };
}

/** The cookie's name carries the port: cookies are shared by every port of a host. */
export function cookieName(port: number): string {
  return `schedlab-token-${port}`;
}

/** The `Set-Cookie` value that stands in for the token after the first page load. */
export function tokenCookie(token: string, port: number): string {
  return `${cookieName(port)}=${token}; HttpOnly; SameSite=Strict; Path=/`;
}

/** Whether the request presented any token at all (a refusal then says it was the wrong one). */
export function tokenOffered(req: IncomingMessage, query: URLSearchParams, port: number): boolean {
  return query.has('token') || cookieToken(req, port) !== null;
}

function cookieToken(req: IncomingMessage, port: number): string | null {
  const header = req.headers.cookie;
  if (header === undefined) return null;
  const name = cookieName(port);
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return null;
}

/** How a request proved it holds the token, if it did. */
export type Proof = 'query' | 'cookie' | null;

export function tokenProof(
  req: IncomingMessage,
  query: URLSearchParams,
  token: string,
  port: number,
): Proof {
  if (tokenMatches(query.get('token'), token)) return 'query';
  if (tokenMatches(cookieToken(req, port), token)) return 'cookie';
  return null;
}
