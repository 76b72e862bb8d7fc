/**
 * Browser mode: one WebSocket to `ws://<same host>/ws?token=…` carrying the JSON envelopes of
 * shared/transport.ts. After a close it reconnects with exponential backoff; the host sends a
 * snapshot first on every connection, so the UI resumes where the engine is. A host that says it
 * is stopping (close code 1001) is looked for a few times, in case it restarts at once on the
 * same port; then the status stays `stopped`, and its page is looked at every `maxBackoffMs` in
 * case it comes back there later (a kept token and port).
 */
import type { ErrorInfo } from '../../../shared/errors.ts';
import type { CommandResult, Frame, Snapshot } from '../../../shared/protocol.ts';
import { hostMessageSchema, WS_PATH, type Skipped } from '../../../shared/transport.ts';
import {
  answerOf,
  disconnected,
  Listeners,
  type ConnectionStatus,
  type Transport,
} from './transport.ts';

export interface WebSocketTransportOptions {
  url: string;
  /** Injected for tests; defaults to the browser's WebSocket. */
  socketFactory?: (url: string) => WebSocket;
  minBackoffMs?: number;
  maxBackoffMs?: number;
  /**
   * After a socket closes without opening: the HTTP status of this page's URL (token included),
   * or null when the host could not be reached. A browser hides why an upgrade failed, so this
   * is how a 401 — the token of a server that has since restarted — is told from a host that is
   * down. Absent: always reconnect.
   */
  probe?: () => Promise<number | null>;
  /**
   * After the host closed the socket saying it stops (`SERVER_STOPPING`): how many times to try
   * again, in case it restarts at once on the same port, before giving up (default 5).
   */
  stoppedRetries?: number;
}

/**
 * The close code of a host that stops: browser mode's server closes every socket with 1001
 * ("going away", reason "server closing") when it shuts down. Restarted, it usually listens on
 * another port (a service's console takes a free one), so this page cannot find it there.
 */
export const SERVER_STOPPING = 1001;

/** The probe for a page served by browser mode: GET the page itself, token and all. */
export function pageProbe(location: {
  pathname: string;
  search: string;
}): () => Promise<number | null> {
  return async () => {
    try {
      const r = await fetch(location.pathname + location.search, { cache: 'no-store' });
      return r.status;
    } catch {
      return null;
    }
  };
}

/** The WebSocket URL for a page served at `location` (token carried over from the query). */
export function webSocketUrl(location: { protocol: string; host: string; search: string }): string {
  const token = new URLSearchParams(location.search).get('token') ?? '';
  const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${scheme}//${location.host}${WS_PATH}?token=${encodeURIComponent(token)}`;
}

/**
 * Browser mode sets an HttpOnly cookie holding the token on the first page load, so the token
 * can leave the address bar (and the history): reloads and the WebSocket present the cookie.
 */
export function dropTokenFromAddress(
  loc: { href: string } = location,
  hist: Pick<History, 'replaceState' | 'state'> = history,
): void {
  const url = new URL(loc.href);
  if (!url.searchParams.has('token')) return;
  url.searchParams.delete('token');
  hist.replaceState(hist.state, '', `${url.pathname}${url.search}${url.hash}`);
}

export function createWebSocketTransport(opts: WebSocketTransportOptions): Transport {
  const factory = opts.socketFactory ?? ((url: string) => new WebSocket(url));
  const minBackoff = opts.minBackoffMs ?? 250;
  const maxBackoff = opts.maxBackoffMs ?? 5000;
  const frames = new Listeners<[Frame, Skipped | undefined]>();
  const snapshots = new Listeners<[Snapshot]>();
  const statuses = new Listeners<[ConnectionStatus]>();
  const pending = new Map<number, (r: CommandResult) => void>();
  let nextId = 1;
  let socket: WebSocket | null = null;
  let status: ConnectionStatus = 'connecting';
  let backoff = minBackoff;
  // Null while reconnecting without end; after the host said it stops, the tries left.
  let stoppedTries: number | null = null;
  let closed = false;
  let timer: ReturnType<typeof setTimeout> | undefined;

  const setStatus = (s: ConnectionStatus) => {
    status = s;
    statuses.emit(s);
  };

  const reconnect = () => {
    if (stoppedTries === 0) {
      // The host stopped and did not come back at once: the page says so, and only looks now and
      // then whether it is back on this port (a kept token and port: `serve --keep-token`).
      timer = setTimeout(lookAgain, maxBackoff);
      return;
    }
    if (stoppedTries !== null) stoppedTries--;
    timer = setTimeout(connect, backoff);
    backoff = Math.min(maxBackoff, backoff * 2);
  };

  /** A stopped host, looked for with the page's probe (no socket, no status change) or a socket. */
  const lookAgain = () => {
    if (closed) return;
    if (opts.probe === undefined) {
      connect();
      return;
    }
    void opts.probe().then((httpStatus) => {
      if (closed || !answered(httpStatus)) return;
      if (stoppedTries === null) connect();
      else timer = setTimeout(lookAgain, maxBackoff);
    });
  };

  /**
   * What the page's probe said: false when the session has ended (401: a new token), else true,
   * and a stopped host that answers again is reconnected to as after a blip.
   */
  const answered = (httpStatus: number | null): boolean => {
    if (httpStatus === 401) {
      setStatus('ended');
      return false;
    }
    if (httpStatus !== null && stoppedTries !== null) {
      stoppedTries = null;
      setStatus('closed');
    }
    return true;
  };

  const connect = () => {
    // Looking for a stopped host again is no reconnection to announce: it stays `stopped`.
    if (stoppedTries === null) setStatus('connecting');
    const ws = factory(opts.url);
    socket = ws;
    let opened = false;
    ws.onopen = () => {
      opened = true;
      backoff = minBackoff;
      stoppedTries = null;
      setStatus('open');
    };
    ws.onmessage = (ev: MessageEvent) => {
      if (typeof ev.data !== 'string') return;
      let raw: unknown;
      try {
        raw = JSON.parse(ev.data);
      } catch {
        return;
      }
      const parsed = hostMessageSchema.safeParse(raw);
      if (!parsed.success) return;
      const msg = parsed.data;
      if (msg.type === 'frame') frames.emit(msg.frame as Frame, msg.skipped);
      else if (msg.type === 'snapshot') snapshots.emit(msg.snapshot as Snapshot);
      else if (msg.type === 'reply') settle(msg.id, msg.result as CommandResult);
      else if (msg.id !== undefined) {
        settle(msg.id, { ok: false, error: msg.error as ErrorInfo });
      }
    };
    ws.onclose = (ev: CloseEvent) => {
      if (socket !== ws) return;
      socket = null;
      for (const [id] of pending)
        settle(id, disconnected('the connection closed before the engine answered'));
      if (opened && ev.code === SERVER_STOPPING) stoppedTries = opts.stoppedRetries ?? 5;
      setStatus(stoppedTries === null ? 'closed' : 'stopped');
      if (closed) return;
      if (opened || opts.probe === undefined) {
        reconnect();
        return;
      }
      void opts.probe().then((httpStatus) => {
        if (!closed && answered(httpStatus)) reconnect();
      });
    };
  };

  const settle = (id: number, result: CommandResult) => {
    const resolve = pending.get(id);
    if (resolve === undefined) return;
    pending.delete(id);
    resolve(result);
  };

  connect();

  return {
    host: 'browser',
    send(command) {
      if (socket === null || status !== 'open') return Promise.resolve(disconnected());
      const id = nextId++;
      const ws = socket;
      return new Promise((resolve) => {
        // A reply that never comes must not leave a control spinning forever.
        const timeout = setTimeout(
          () => settle(id, disconnected('the engine did not answer within 15 s')),
          15_000,
        );
        pending.set(id, (r) => {
          clearTimeout(timeout);
          resolve(answerOf(command, r));
        });
        ws.send(JSON.stringify({ id, command }));
      });
    },
    onFrame: (cb) => frames.add(cb),
    onSnapshot: (cb) => snapshots.add(cb),
    onStatus: (cb) => {
      cb(status);
      return statuses.add(cb);
    },
    close() {
      closed = true;
      clearTimeout(timer);
      socket?.close();
    },
  };
}
