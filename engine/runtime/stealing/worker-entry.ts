/**
 * Work-stealing worker: maps each graph's shared memory and runs the scheduling loop; between
 * runs it parks (`park.ts`) so the next run of the same graph starts without a message.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { SchedLabError } from '../../../shared/errors.ts';
import { stealingKernel, type StealingKernel } from './kernels.ts';
import { viewRun, type RunViews } from './layout.ts';
import type { FromWorker, ToWorker } from './messages.ts';
import { PARK_MS, ParkBlock, type ParkedRun } from './park.ts';
import { warmLoop } from './warm.ts';
import { runWorkerLoop } from './worker-loop.ts';

const port = parentPort;
if (port === null) throw new Error('worker-entry.ts must run in a worker thread');
const data = workerData as { workerId: number; workers: number; park: SharedArrayBuffer };
const workerId = data.workerId;
const park = new ParkBlock(data.park, data.workers);
const send = (m: FromWorker) => port.postMessage(m);
/** The last run's memory and kernels, kept while the executor reuses them (one slot). */
let memory: { id: number; views: RunViews; kernels: StealingKernel[] } | null = null;

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
    if (m.buffers !== null) memory = { id: m.memoryId, views: viewRun(m.buffers), kernels };
    if (memory?.id !== m.memoryId)
      throw new Error(`run ${m.runId}: memory ${m.memoryId} not received`);
    memory.kernels = kernels;
  } catch (e) {
    send({ type: 'error', runId: m.runId, message: e instanceof Error ? e.message : String(e) });
    return;
  }
  serve(memory, m);
});

const share = (): boolean => park.share(workerId);

/** Runs `first`, then every run handed over while parked, until a wait runs out. */
function serve(mem: { views: RunViews; kernels: StealingKernel[] }, first: ParkedRun): void {
  for (let run: ParkedRun | null = first; run !== null; run = park.awaitRun(workerId, PARK_MS)) {
    try {
      const stats = runWorkerLoop(mem.views, {
        workerId,
        workers: data.workers,
        failFast: run.failFast,
        verify: run.verify,
        sampleEvery: run.sampleEvery,
        origin: run.origin,
        kernels: mem.kernels,
        seed: 0x9e3779b9 ^ (workerId * 0x85ebca6b) ^ run.runId,
        share,
      });
      // Parked before it reports its end: the executor starts the next run only after every end.
      park.park(workerId);
      park.finish(stats);
    } catch (e) {
      // The executor cannot be reused after an error (stealing-executor.ts): no parking.
      send({
        type: 'error',
        runId: run.runId,
        message: e instanceof Error ? e.message : String(e),
      });
      return;
    }
  }
}
warmLoop();
send({ type: 'ready', workerId });
