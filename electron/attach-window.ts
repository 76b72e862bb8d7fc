/**
 * `schedlab attach` in the desktop app: one window on a service's console page (served by
 * `scheduler.serveConsole()` on loopback), which is browser mode's page talking to the service
 * over its WebSocket — so the attached app is the same UI as a local one. No preload and no IPC
 * (the page needs neither); otherwise the app window's security defaults (window.ts): context
 * isolation, sandbox, no Node, no navigation away from the console's origin, no new windows (web
 * links open in the browser once the user confirms), no permissions granted.
 */
import { BrowserWindow } from 'electron';
import { LOCKED_DOWN, lockDown } from './window.ts';

/** The argument that carries the console's URL: `--attach=http://127.0.0.1:PORT/?token=…`. */
export const ATTACH_ARG = '--attach=';

/** The console URL in `argv`, or null when there is none or it is not loopback http. */
export function attachUrlOf(argv: readonly string[]): URL | null {
  const arg = argv.find((a) => a.startsWith(ATTACH_ARG));
  if (arg === undefined) return null;
  try {
    const url = new URL(arg.slice(ATTACH_ARG.length));
    const loopback = url.hostname === '127.0.0.1' || url.hostname === 'localhost';
    return url.protocol === 'http:' && loopback ? url : null;
  } catch {
    return null;
  }
}

/** Whether `url` is a page of the console at `origin` (the only place the window may go). */
export function isConsolePage(url: string, origin: string): boolean {
  try {
    const parsed = new URL(url);
    return parsed.origin === origin && parsed.username === '' && parsed.password === '';
  } catch {
    return false;
  }
}

export function createAttachWindow(consoleUrl: URL): BrowserWindow {
  const window = new BrowserWindow({
    width: 1440,
    height: 900,
    minWidth: 960,
    minHeight: 600,
    title: `SchedLab · ${consoleUrl.host}`,
    backgroundColor: '#111318',
    show: false,
    webPreferences: { ...LOCKED_DOWN },
  });
  const origin = consoleUrl.origin;
  lockDown(window, (url) => isConsolePage(url, origin));
  window.once('ready-to-show', () => window.show());
  void window.loadURL(consoleUrl.href);
  return window;
}
