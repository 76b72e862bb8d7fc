/** Work-stealing worker: maps each run's shared memory and runs the scheduling loop. */
import { parentPort, workerData } from 'node:worker_threads';
import { SchedLabError } from '../../../shared/errors.ts';
import { stealingKernel, type StealingKernel } from './kernels.ts';
import { viewRun, type RunViews } from './layout.ts';
import type { FromWorker, ToWorker } from './messages.ts';
import { runWorkerLoop } from './worker-loop.ts';

const port = parentPort;
if (port === null) throw new Error('worker-entry.ts must run in a worker thread');
const workerId = (workerData as { workerId: number }).workerId;
const send = (m: FromWorker) => port.postMessage(m);
/** The views of the last run's memory, kept while the executor reuses it (one slot). */
let memory: { id: number; views: RunViews } | null = null;

port.on('message', (m: ToWorker) => {
  if (m.type === 'close') {
    port.close();
    return;
  }
  try {
    const kernels: StealingKernel[] = m.kernelNames.map((name) => {
      const k = stealingKernel(name);
      if (k === undefined)
        throw new SchedLabError('UNKNOWN_KERNEL', `kernel: no stealing kernel "${name}"`, 'kernel');
      return k;
    });
    if (m.buffers !== null) memory = { id: m.memoryId, views: viewRun(m.buffers) };
    if (memory?.id !== m.memoryId)
      throw new Error(`run ${m.runId}: memory ${m.memoryId} not received`);
    const stats = runWorkerLoop(memory.views, {
      workerId,
      workers: m.workers,
      failFast: m.failFast,
      verify: m.verify,
      sampleEvery: m.sampleEvery,
      origin: m.origin,
      kernels,
      seed: 0x9e3779b9 ^ (workerId * 0x85ebca6b) ^ m.runId,
    });
    send({ type: 'done', runId: m.runId, stats });
  } catch (e) {
    send({ type: 'error', runId: m.runId, message: e instanceof Error ? e.message : String(e) });
  }
});
send({ type: 'ready', workerId });
