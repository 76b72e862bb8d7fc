/** The Electron binary, or why there is none; never triggers a download. */
export function findElectronBinary(): { path: string } | { path: null; reason: string };
