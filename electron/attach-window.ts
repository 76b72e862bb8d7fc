/**
 * `schedlab attach` in the desktop app: one window on a service's console page (served by
 * `scheduler.serveConsole()` on loopback), which is browser mode's page talking to the service
 * over its WebSocket — so the attached app is the same UI as a local one. No preload and no IPC
 * (the page needs neither); otherwise the app window's security defaults (window.ts): context
 * isolation, sandbox, no Node, no navigation away from the console's origin, no new windows (web
 * links open in the browser once the user confirms), no permissions granted.
 */
import { BrowserWindow } from 'electron';
import { ATTACH_URL_ENV } from '../shared/transport.ts';
import { LOCKED_DOWN, lockDown } from './window.ts';

/** Where the console's URL comes from (`schedlab attach` sets it). */
export const ATTACH_ENV = ATTACH_URL_ENV;

/** Loopback names a console URL may use (as `schedlab attach` takes them). */
const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** The console URL in `env`, or null when there is none or it is not loopback http. */
export function attachUrlOf(env: Readonly<Record<string, string | undefined>>): URL | null {
  const text = env[ATTACH_ENV];
  if (text === undefined) return null;
  try {
    const url = new URL(text);
    return url.protocol === 'http:' && LOOPBACK.has(url.hostname) ? url : null;
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
