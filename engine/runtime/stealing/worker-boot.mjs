// Node 20 cannot load a .ts worker entry directly: register tsx, then load the real entry.
import { register } from 'tsx/esm/api';
register();
await import('./worker-entry.ts');
