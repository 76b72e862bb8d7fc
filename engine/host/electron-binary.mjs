// Where the Electron binary is, without ever triggering a download: requiring the `electron`
// package runs its installer when the binary is missing (and the download fails offline), so
// this reads the package's own `path.txt` instead. Used by `npm start`, `schedlab attach` and the
// e2e runner.
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/**
 * @returns {{ path: string } | { path: null, reason: string }} the binary, or why there is none
 */
export function findElectronBinary() {
  let packageDir;
  try {
    packageDir = dirname(createRequire(import.meta.url).resolve('electron/package.json'));
  } catch {
    return { path: null, reason: 'the electron package is not installed' };
  }
  const pathFile = join(packageDir, 'path.txt');
  const relative = existsSync(pathFile) ? readFileSync(pathFile, 'utf8').trim() : null;
  const override = process.env.ELECTRON_OVERRIDE_DIST_PATH;
  const candidate = override
    ? join(override, relative ?? 'electron')
    : relative === null
      ? null
      : join(packageDir, 'dist', relative);
  if (candidate === null) {
    return { path: null, reason: `${pathFile} is missing (the binary was never downloaded)` };
  }
  return existsSync(candidate)
    ? { path: candidate }
    : { path: null, reason: `${candidate} does not exist` };
}
