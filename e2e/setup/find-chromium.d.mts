export interface FoundChromium {
  path: string;
  source: string;
}
/** A Chromium already on this machine, or null. */
export function locateChromium(): Promise<FoundChromium | null>;
/** A Chromium to use, installing one when none is found (unless `install` is false). */
export function findChromium(options?: { install?: boolean }): Promise<FoundChromium>;
