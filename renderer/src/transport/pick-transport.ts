/** Chooses the transport for the host the page finds itself in. */
import { createBenchTransport, type BenchHooks } from './bench-transport.ts';
import { createElectronTransport, electronBridge } from './electron-transport.ts';
import type { Transport } from './transport.ts';
import {
  createWebSocketTransport,
  dropTokenFromAddress,
  pageProbe,
  webSocketUrl,
} from './ws-transport.ts';

export function pickTransport(): Transport {
  if (new URLSearchParams(location.search).get('bench') === '1') {
    return createBenchTransport(window as unknown as BenchHooks);
  }
  const bridge = electronBridge();
  if (bridge !== null) return createElectronTransport(bridge);
  const url = webSocketUrl(location);
  const probe = pageProbe(location);
  dropTokenFromAddress();
  return createWebSocketTransport({ url, probe });
}
