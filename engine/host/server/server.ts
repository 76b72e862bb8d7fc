/**
 * Browser mode (docs/design.md §6–7): the built renderer over HTTP and the protocol over one WebSocket
 * per client, bound to 127.0.0.1 only. A random token in the printed URL guards the page and the
 * socket: a request without it (or with a wrong one) gets 401, so another local user's browser
 * tab cannot drive the engine.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { join } from 'node:path';
import { existsSync } from 'node:fs';
import { WebSocketServer, type WebSocket } from 'ws';
import type { ErrorInfo } from '../../../shared/errors.ts';
import { WS_PATH } from '../../../shared/transport.ts';
import { ClientLink, type PreparedFrame } from './client-link.ts';
import { contentSecurityPolicy } from './csp.ts';
import type { AnyHostSession } from './host-session.ts';
import { resolveInside, sendFile } from './static-files.ts';
import { createToken, tokenMatches } from './token.ts';

export const HOST = '127.0.0.1';

export interface ServerOptions {
  session: AnyHostSession;
  /** The built renderer (`dist/renderer`). */
  staticDir: string;
  /** 0 (the default) picks a free port. */
  port?: number;
  /** A fixed token (tests); by default a fresh random one. */
  token?: string;
  /** Unsent bytes per client above which frames are held back and coalesced. */
  highWaterBytes?: number;
  /** Largest accepted client message (a workload document fits easily). */
  maxMessageBytes?: number;
}

export interface RunningServer {
  /** The page to open, token included. */
  readonly url: string;
  readonly port: number;
  /** The address actually bound (always 127.0.0.1). */
  readonly address: string;
  readonly token: string;
  /** Connected WebSocket clients with their frame counters. */
  links(): readonly ClientLink[];
  close(): Promise<void>;
}

export async function startServer(options: ServerOptions): Promise<RunningServer> {
  const token = options.token ?? createToken();
  const highWater = options.highWaterBytes ?? 1 << 20;
  const links = new Map<WebSocket, ClientLink>();
  const wss = new WebSocketServer({
    noServer: true,
    maxPayload: options.maxMessageBytes ?? 16 << 20,
  });
  let port = 0;

  const http = createServer((req, res) => {
    void handleHttp(req, res, options.staticDir, token, port).catch(() => res.destroy());
  });
  http.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const url = requestUrl(req);
    if (url.pathname !== WS_PATH || !tokenMatches(url.searchParams.get('token'), token)) {
      const body = unauthorizedBody();
      socket.end(
        `HTTP/1.1 401 Unauthorized\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
      );
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => {
      const link = new ClientLink(ws, options.session, highWater);
      links.set(ws, link);
      ws.on('message', (data, isBinary) => {
        void link.receive(toText(data), isBinary);
      });
      ws.on('close', () => links.delete(ws));
      ws.on('error', () => ws.terminate());
      link.sendSnapshot();
    });
  });

  const unsubscribe = options.session.onFrame((frame) => {
    if (links.size === 0) return;
    // Serialized once, whatever the number of clients.
    const prepared: PreparedFrame = {
      json: JSON.stringify(frame),
      spans: options.session.spanCount(frame),
    };
    for (const link of links.values()) link.offerFrame(prepared);
  });

  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(options.port ?? 0, HOST, () => {
      http.off('error', reject);
      resolve();
    });
  });
  const bound = http.address() as AddressInfo;
  port = bound.port;

  return {
    url: `http://${HOST}:${port}/?token=${token}`,
    port,
    address: bound.address,
    token,
    links: () => [...links.values()],
    close: async () => {
      unsubscribe();
      for (const ws of links.keys()) ws.close(1001, 'server closing');
      wss.close();
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}

async function handleHttp(
  req: IncomingMessage,
  res: ServerResponse,
  staticDir: string,
  token: string,
  port: number,
): Promise<void> {
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.writeHead(405, { allow: 'GET, HEAD' }).end();
    return;
  }
  const url = requestUrl(req);
  const headOnly = req.method === 'HEAD';
  if (url.pathname === '/' || url.pathname === '/index.html') {
    if (!tokenMatches(url.searchParams.get('token'), token)) {
      res
        .writeHead(401, { 'content-type': 'application/json; charset=utf-8' })
        .end(unauthorizedBody());
      return;
    }
    const index = join(staticDir, 'index.html');
    if (!existsSync(index)) {
      res
        .writeHead(503, { 'content-type': 'text/plain; charset=utf-8' })
        .end('the renderer is not built: run `npx vite build`\n');
      return;
    }
    await sendFile(res, index, pageHeaders(port), headOnly);
    return;
  }
  // Built assets (scripts, styles) hold no secrets; the page and the socket hold the token.
  const file = resolveInside(staticDir, url.pathname);
  if (file === null) {
    res.writeHead(404).end();
    return;
  }
  await sendFile(res, file, { 'cache-control': 'no-cache' }, headOnly);
}

/**
 * A refused token's answer, as a coded error (shared/errors.ts) a tab can show: a page left open
 * across a server restart finds out here that its session ended.
 */
export function unauthorizedBody(): string {
  const error: ErrorInfo = {
    code: 'UNAUTHORIZED',
    message:
      "this URL's token is not this server's: the session it opened has ended (the server restarted or stopped); open the URL SchedLab printed, token included",
    field: 'token',
  };
  return `${JSON.stringify({ ok: false, error })}\n`;
}

function pageHeaders(port: number): Record<string, string> {
  return {
    'content-security-policy': contentSecurityPolicy([`ws://${HOST}:${port}`]),
    // The token is in the page URL: never send it on as a referrer, never cache the page.
    'referrer-policy': 'no-referrer',
    'cache-control': 'no-store',
    'x-frame-options': 'DENY',
  };
}

function requestUrl(req: IncomingMessage): URL {
  return new URL(req.url ?? '/', `http://${HOST}`);
}

function toText(data: Buffer | ArrayBuffer | Buffer[]): Buffer {
  if (Array.isArray(data)) return Buffer.concat(data);
  return Buffer.isBuffer(data) ? data : Buffer.from(data);
}
