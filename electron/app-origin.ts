/**
 * The window loads the renderer from our own privileged scheme, `app://schedlab/`, never from
 * file:// or the network. Everything main trusts — IPC senders, navigations — is checked against
 * this one origin. (WHATWG URLs give custom schemes an opaque origin, so scheme and host are
 * compared instead of `URL.origin`.)
 */
export const APP_SCHEME = 'app';
export const APP_HOST = 'schedlab';
/** The page's origin as `postMessage` compares it (a standard scheme: scheme://host). */
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;
export const APP_URL = `${APP_ORIGIN}/index.html`;

export function isOwnPage(url: string | null | undefined): boolean {
  if (typeof url !== 'string' || url === '') return false;
  try {
    const parsed = new URL(url);
    return (
      parsed.protocol === `${APP_SCHEME}:` && parsed.host === APP_HOST && parsed.username === ''
    );
  } catch {
    return false;
  }
}
