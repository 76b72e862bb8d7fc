/**
 * A backend worker: calibrates its kernels once, says `ready`, then runs one quantum per `run`
 * message and answers with an `end`. Messages sent while it starts are queued by the port.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { nanosSince } from './clock.ts';
import { calibrate } from './kernels.ts';
import type { FromQuantumWorker, QuantumWorkerData, ToQuantumWorker } from './protocol.ts';
import { QuantumRunner } from './quantum-runner.ts';

const data = workerData as QuantumWorkerData;
const port = parentPort!;
const origin = BigInt(data.origin);
const clock = (): number => nanosSince(origin);
const calibration = calibrate(clock);
const runner = new QuantumRunner(clock, new Int32Array(data.control), calibration);

function send(message: FromQuantumWorker): void {
  port.postMessage(message);
}

port.on('message', (message: ToQuantumWorker) => {
  void runner.run(message.dispatch, message.input).then((report) => {
    try {
      send({ type: 'end', report });
    } catch (error) {
      // A result that cannot be cloned fails its split instead of the worker.
      const why = error instanceof Error ? error.message : String(error);
      const { result: _result, state: _state, ...rest } = report;
      send({
        type: 'end',
        report: { ...rest, outcome: 'failed', error: `unclonable result: ${why}` },
      });
    }
  });
});

send({ type: 'ready', unitNanos: calibration.unitNanos });
