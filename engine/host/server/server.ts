/**
 * Browser mode (docs/design.md §6–7): the built renderer over HTTP and the protocol over one WebSocket
 * per client, bound to 127.0.0.1 only. A random token in the printed URL guards the page and the
 * socket: a request without it (or its cookie) gets 401, so another local user's browser tab
 * cannot drive the engine; a request naming another host, or an upgrade from another page's
 * origin, gets 403 (request-guard.ts).
 *
 * Bounded per client: a message over `maxMessageBytes` is answered `MESSAGE_TOO_LARGE` and the
 * connection closed; frames are coalesced past `highWaterBytes`; and replies (snapshots are
 * large) may leave at most `maxBufferedBytes` unread before the client is told `CLIENT_TOO_SLOW`
 * and dropped, and at most `MAX_COMMANDS_IN_FLIGHT` of its commands are answered at once
 * (client-link.ts), so one client that stops reading or floods cannot grow the server; and at
 * most `MAX_CLIENTS` clients connect at once, so many such clients cannot either.
 */
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import type { EventEmitter } from 'node:events';
import { WebSocketServer, type WebSocket } from 'ws';
import { WS_PATH } from '../../../shared/transport.ts';
import { ClientLink, TERMINATE_AFTER_MS, type PreparedFrame } from './client-link.ts';
import type { AnyHostSession } from './host-session.ts';
import { handleHttp, HOST, MAX_CLIENTS, rawRefusal } from './http-handler.ts';
import {
  isLoopbackHost,
  isOwnOrigin,
  requestPath,
  tokenOffered,
  tokenProof,
} from './request-guard.ts';
import { createToken } from './token.ts';

export { HOST };

/** The largest client message by default (a workload document fits easily): 16 MiB. */
export const MAX_MESSAGE_BYTES = 16 << 20;

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
  /** Unsent reply bytes per client past which it is dropped (default 64 MiB). */
  maxBufferedBytes?: number;
  /** Client sockets held at once; one more is refused 503 `TOO_MANY_CLIENTS` (`MAX_CLIENTS`). */
  maxClients?: number;
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
  const maxMessage = options.maxMessageBytes ?? MAX_MESSAGE_BYTES;
  const budget = options.maxBufferedBytes ?? 64 << 20;
  const maxClients = options.maxClients ?? MAX_CLIENTS;
  const links = new Map<WebSocket, ClientLink>();
  const wss = new WebSocketServer({ noServer: true, maxPayload: maxMessage });
  let port = 0;

  const http = createServer((req, res) => {
    void handleHttp(req, res, { staticDir: options.staticDir, token, port }).catch(() =>
      res.destroy(),
    );
  });
  http.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const target = requestPath(req);
    if (!isLoopbackHost(req.headers.host, port) || !isOwnOrigin(req.headers.origin, port)) {
      socket.end(rawRefusal(403, port));
      return;
    }
    if (target === null || tokenProof(req, target.query, token, port) === null) {
      const offered = target === null || tokenOffered(req, target.query, port);
      socket.end(rawRefusal(401, port, offered));
      return;
    }
    if (target.path !== WS_PATH) {
      // The token is right: say where the socket is (it said the token was not this server's).
      socket.end(rawRefusal(404, port));
      return;
    }
    if (links.size >= maxClients) {
      socket.end(rawRefusal(503, port));
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => {
      const link = new ClientLink(ws, options.session, {
        highWaterBytes: highWater,
        maxBufferedBytes: budget,
      });
      links.set(ws, link);
      onTooLarge(ws, () => link.refuseTooLarge(maxMessage));
      ws.on('message', (data, isBinary) => {
        void link.receive(toText(data), isBinary);
      });
      ws.on('close', () => links.delete(ws));
      ws.on('error', () => {
        // A protocol error `ws` answers with a close (1009 for a message over the limit) leaves
        // the socket closing: cut now, a client still writing gets a reset and loses the reason
        // and the code (1006), so it gets a moment to read them first.
        if (ws.readyState === ws.CLOSING)
          setTimeout(() => ws.terminate(), TERMINATE_AFTER_MS).unref();
        else ws.terminate();
      });
      link.sendSnapshot();
    });
  });

  // A new session behind (backend switch): every client starts over from its snapshot.
  const unreset =
    options.session.onReset?.(() => {
      for (const link of links.values()) link.sendSnapshot();
    }) ?? (() => {});
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
      unreset();
      for (const ws of links.keys()) ws.close(1001, 'server closing');
      wss.close();
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}

/**
 * `ws` closes a connection whose message passes `maxPayload` (code 1009) before any handler of
 * ours runs; its receiver reports the error first, while the socket is still open, so the client
 * is told why (`MESSAGE_TOO_LARGE` with the limit) just ahead of the close. The receiver is not
 * public API: without one the client still gets the close code.
 */
function onTooLarge(ws: WebSocket, tell: () => void): void {
  const receiver = (ws as unknown as { _receiver?: EventEmitter })._receiver;
  receiver?.prependListener('error', (e: Error & { code?: string }) => {
    if (e.code === 'WS_ERR_UNSUPPORTED_MESSAGE_LENGTH') tell();
  });
}

function toText(data: Buffer | ArrayBuffer | Buffer[]): Buffer {
  if (Array.isArray(data)) return Buffer.concat(data);
  return Buffer.isBuffer(data) ? data : Buffer.from(data);
}
