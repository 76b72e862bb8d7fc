// Node 20 cannot start a worker from a .ts file: this plain entry registers tsx's loader in the
// worker, then imports the real (TypeScript) entry named in workerData.
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
await import(workerData.entry);
