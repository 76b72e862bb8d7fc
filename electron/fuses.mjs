// Electron fuses are switches compiled into the Electron binary that no flag, environment
// variable or code can turn back at run time. A packaged SchedLab flips these on its binary
// (`node electron/fuses.mjs PATH`, see the README's "Packaging the desktop app"): the binary of
// the `electron` dev package is left alone, so `npm start` and the e2e suite keep working.
import { FuseV1Options, FuseVersion, flipFuses, getCurrentFuseWire } from '@electron/fuses';
import { argv, exit } from 'node:process';
import { pathToFileURL } from 'node:url';

/**
 * What a packaged app sets, and why. Fuses not listed keep Electron's default: the asar ones need
 * an asar archive (nothing here builds one), and GrantFileProtocolExtraPrivileges only matters to
 * file:// pages (the app serves its page on app://, see app-origin.ts).
 * @type {readonly { fuse: keyof typeof FuseV1Options, on: boolean, why: string }[]}
 */
export const FUSES = Object.freeze([
  {
    fuse: 'RunAsNode',
    on: false,
    why: 'ELECTRON_RUN_AS_NODE would turn the signed app into a plain Node that runs any script',
  },
  {
    fuse: 'EnableNodeCliInspectArguments',
    on: false,
    why: '--inspect would let anyone who can start the app attach a debugger to the main process',
  },
  {
    fuse: 'EnableNodeOptionsEnvironmentVariable',
    on: false,
    why: 'NODE_OPTIONS=--require would load any file into the main process at start',
  },
  {
    fuse: 'EnableCookieEncryption',
    on: true,
    why: 'cookies on disk are encrypted with the OS keychain key',
  },
]);

/** The `@electron/fuses` configuration for `FUSES`. */
export function fuseConfig() {
  /** @type {import('@electron/fuses').FuseV1Config} */
  const config = { version: FuseVersion.V1 };
  for (const { fuse, on } of FUSES) config[FuseV1Options[fuse]] = on;
  return config;
}

/**
 * Flips `FUSES` on the Electron binary (or macOS `.app`) at `path`, then reads the wire back.
 * @param {string} path
 * @returns {Promise<string[]>} one line per fuse that does not read back as set (empty: all set)
 */
export async function applyFuses(path) {
  await flipFuses(path, fuseConfig());
  const wire = await getCurrentFuseWire(path);
  const wrong = [];
  for (const { fuse, on } of FUSES) {
    // A fuse reads back as the character '1' (49) when on, '0' (48) when off.
    const state = wire[FuseV1Options[fuse]];
    if (state !== (on ? 49 : 48))
      wrong.push(`${fuse}: wanted ${on ? 'on' : 'off'}, reads ${state}`);
  }
  return wrong;
}

if (import.meta.url === pathToFileURL(argv[1] ?? '').href) {
  const path = argv[2];
  if (path === undefined || argv.length > 3) {
    console.error('usage: node electron/fuses.mjs PATH_TO_PACKAGED_ELECTRON_BINARY_OR_APP');
    exit(2);
  }
  try {
    const wrong = await applyFuses(path);
    if (wrong.length > 0) {
      console.error(`fuses not set on ${path}:\n  ${wrong.join('\n  ')}`);
      exit(1);
    }
    for (const { fuse, on } of FUSES) console.log(`${fuse}: ${on ? 'on' : 'off'}`);
  } catch (e) {
    console.error(`could not set the fuses on ${path}: ${e instanceof Error ? e.message : e}`);
    exit(1);
  }
}
