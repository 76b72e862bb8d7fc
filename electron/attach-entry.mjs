// The Electron entry of `schedlab attach` (`electron electron/attach-entry.mjs --attach=URL`):
// main is TypeScript, so register tsx's loader first, then load it.
import { register } from 'tsx/esm/api';

register();
await import('./attach-main.ts');
