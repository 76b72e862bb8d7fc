// Electron's main-process entry (`electron electron/entry.mjs`, as `npm start` runs it): main is
// TypeScript, so register tsx's loader first, then load it.
import { register } from 'tsx/esm/api';

register();
await import('./main.ts');
