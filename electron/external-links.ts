/**
 * Links the page asks to open (a navigation away, `window.open`) go to the user's browser only
 * after the user says so: a confirm dialog names the full address, and only http(s) addresses are
 * offered at all — `shell.openExternal` hands any scheme to the OS (file:, smb:, custom
 * protocol handlers), which is code execution one click away (docs/design.md §7).
 */
import { dialog, shell, type BrowserWindow } from 'electron';

/** Addresses longer than this are refused rather than shown cut short in the dialog. */
export const MAX_EXTERNAL_URL = 2048;

/** The address to offer, normalised, or null when it is not a plain http(s) address. */
export function externalAddress(url: string): string | null {
  if (url.length > MAX_EXTERNAL_URL) return null;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return null;
  // user:password@ can make an address read as another host in the dialog.
  if (parsed.username !== '' || parsed.password !== '') return null;
  return parsed.href;
}

/**
 * Returns the handler a window uses for every link leaving the app. One dialog at a time: asks
 * that arrive while one is open are dropped, so a page cannot stack up prompts.
 */
export function externalLinkOpener(window: BrowserWindow): (url: string) => Promise<boolean> {
  let asking = false;
  return async (url) => {
    const address = externalAddress(url);
    if (address === null || asking) return false;
    asking = true;
    try {
      const { response } = await dialog.showMessageBox(window, {
        type: 'question',
        buttons: ['Open in browser', 'Cancel'],
        defaultId: 1,
        cancelId: 1,
        noLink: true,
        title: 'Open a web page',
        message: 'Open this address in your web browser?',
        detail: address,
      });
      if (response !== 0) return false;
      await shell.openExternal(address);
      return true;
    } catch {
      // The window closed under the dialog, or the OS has no browser: nothing opens.
      return false;
    } finally {
      asking = false;
    }
  };
}
