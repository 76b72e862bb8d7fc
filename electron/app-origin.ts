/**
 * The window loads the renderer from our own privileged scheme, `app://schedlab/`, never from
 * file:// or the network. Everything main trusts — IPC senders, navigations — is checked against
 * this one origin. (WHATWG URLs give custom schemes an opaque origin, so scheme and host are
 * compared instead of `URL.origin`.)
 */
export const APP_SCHEME = 'app';
export const APP_HOST = 'schedlab';
export const APP_URL = `${APP_SCHEME}://${APP_HOST}/index.html`;

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
