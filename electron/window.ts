/**
 * The one app window, with Electron's security defaults (docs/design.md §7): context isolation,
 * sandbox, no Node in the page, no navigation away from our own origin, no new windows (web
 * links open in the browser once the user confirms), no webviews, no permissions granted.
 */
import { BrowserWindow, type WebPreferences } from 'electron';
import { APP_URL, isOwnPage } from './app-origin.ts';
import { externalLinkOpener } from './external-links.ts';

/**
 * The page settings every SchedLab window gets (the app's and an attached console's): context
 * isolation, sandbox, no Node in the page or its frames, web security on, no webviews.
 */
export const LOCKED_DOWN = {
  contextIsolation: true,
  sandbox: true,
  nodeIntegration: false,
  nodeIntegrationInSubFrames: false,
  webSecurity: true,
  allowRunningInsecureContent: false,
  webviewTag: false,
  spellcheck: false,
} as const satisfies WebPreferences;

export function createAppWindow(preload: string): BrowserWindow {
  const window = new BrowserWindow({
    width: 1440,
    height: 900,
    minWidth: 960,
    minHeight: 600,
    title: 'SchedLab',
    backgroundColor: '#111318',
    show: false,
    webPreferences: { preload, ...LOCKED_DOWN },
  });

  // Reloads of our own page are fine; anything else is refused (and http(s) links may open in
  // the user's browser, once the user confirms, rather than inside the app).
  lockDown(window, isOwnPage);

  window.once('ready-to-show', () => window.show());
  void window.loadURL(APP_URL);
  return window;
}

/**
 * What every SchedLab window refuses, whatever page it shows: navigation or redirects away from
 * the pages `allowed` accepts (web links open in the browser once the user confirms), new windows,
 * webviews and every permission.
 */
export function lockDown(window: BrowserWindow, allowed: (url: string) => boolean): void {
  const contents = window.webContents;
  const openExternal = externalLinkOpener(window);
  const guard = (event: { preventDefault(): void }, url: string) => {
    if (allowed(url)) return;
    event.preventDefault();
    void openExternal(url);
  };
  contents.on('will-navigate', guard);
  contents.on('will-redirect', guard);
  contents.on('will-frame-navigate', (event) => {
    if (!allowed(event.url)) event.preventDefault();
  });
  contents.setWindowOpenHandler(({ url }) => {
    void openExternal(url);
    return { action: 'deny' };
  });
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.session.setPermissionRequestHandler((_contents, _permission, callback) =>
    callback(false),
  );
  contents.session.setPermissionCheckHandler(() => false);
}
