/**
 * A backend worker: calibrates its kernels once, says `ready`, then runs one quantum per `run`
 * message and answers with an `end`. Messages sent while it starts are queued by the port.
 *
 * Quanta run one at a time, in message order: a queued dispatch (one posted while the previous
 * quantum runs) waits in the port and starts the moment that quantum's `end` is sent, unless the
 * main thread took its ticket back first — then it is dropped without an answer.
 */
import { parentPort, receiveMessageOnPort, workerData } from 'node:worker_threads';
import { nanosSince } from './clock.ts';
import type { SplitWork } from '../backend.ts';
import { takeTicket } from './control.ts';
import { flattenReport } from './flat-messages.ts';
import { calibrate } from './kernels.ts';
import type {
  FromQuantumWorker,
  ModuleCall,
  QuantumReport,
  QuantumWorkerData,
  ToQuantumWorker,
} from './protocol.ts';
import { moduleScope, QuantumRunner, reason } from './quantum-runner.ts';
import { threadCpuClock } from './thread-cpu.ts';

const data = workerData as QuantumWorkerData;
const port = parentPort!;
const origin = BigInt(data.origin);
const clock = (): number => nanosSince(origin);
const calibration = calibrate(clock);
const control = new Int32Array(data.control);
const runner = new QuantumRunner(clock, control, calibration, threadCpuClock());

function send(message: FromQuantumWorker): void {
  port.postMessage(message);
}

/** Runs one message's quantum; a promise only when the quantum awaits (an async module). */
function handle(message: ToQuantumWorker): Promise<void> | undefined {
  let report: QuantumReport | Promise<QuantumReport>;
  if (isModuleCall(message)) {
    const [splitId, quantumNanos, id, input, word, value] = message;
    if (word >= 0 && !takeTicket(control, word, value)) return; // revoked
    const work = moduleWork[id];
    if (work === undefined) {
      const at = clock(); // the main thread sends a ref before its first call: never expected
      const error = `no module ref ${id} was sent before its call`;
      return sendEnd({
        splitId,
        startNanos: at,
        endNanos: at,
        workNanos: 0,
        outcome: 'failed',
        error,
      });
    }
    report = runner.run(
      { splitId, workerId: data.workerId, quantumNanos, work, doneNanos: 0 },
      input,
    );
  } else if (message.type === 'ref') {
    // One work object per module, so the runner finds its loaded function by identity.
    moduleWork[message.id] = { kernel: message.ref, totalNanos: 0 };
    return;
  } else {
    const { ticket } = message;
    if (ticket !== undefined && !takeTicket(control, ticket.word, ticket.value)) return; // revoked
    report = runner.run(message.dispatch, message.input);
  }
  if (!(report instanceof Promise)) return sendEnd(report);
  return report.then(sendEnd);
}

function isModuleCall(message: ToQuantumWorker): message is ModuleCall {
  return Array.isArray(message);
}

/** Module work by id (protocol.ts `ModuleRefMessage`). */
const moduleWork: SplitWork[] = [];

function sendEnd(report: QuantumReport): undefined {
  try {
    const flat = flattenReport(report);
    send(flat === null ? { type: 'end', report } : flat);
  } catch (error) {
    // A result that cannot be cloned fails its split instead of the worker.
    const why = error instanceof Error ? error.message : String(error);
    const { result: _result, state: _state, ...rest } = report;
    send({
      type: 'end',
      report: { ...rest, outcome: 'failed', error: `unclonable result: ${why}` },
    });
  }
  return undefined;
}

/**
 * An error nothing caught: from a timer or promise of a user module (its scope says which split
 * made it). It fails that split's quantum if it runs here now; otherwise its split has ended and
 * no other split is at fault, so the main thread is told and this worker goes on serving. Without
 * this the worker would die and fail whichever innocent split it was running.
 */
function uncaught(error: unknown): void {
  const scope = moduleScope.getStore();
  if (scope !== undefined && runner.failRunning(scope.splitId, error)) return;
  const stray = { splitId: scope?.splitId ?? null, module: scope?.module ?? null };
  send({ type: 'stray', stray: { ...stray, error: reason(error) } });
}
process.on('uncaughtException', uncaught);
process.on('unhandledRejection', uncaught);

// A user module's quantum may await: the next message must not start until it has ended.
let busy = false;
const waiting: ToQuantumWorker[] = [];
/** Quanta run back to back before the event loop gets a turn (timers, late errors). */
const MAX_IN_A_ROW = 64;

function drain(): void {
  for (let i = 0; i < MAX_IN_A_ROW; i++) {
    // A dispatch queued behind the quantum that just ended is already in the port: take it now
    // rather than through another turn of the event loop (tens of µs a quantum on a busy machine).
    const next = waiting.shift() ?? (receiveMessageOnPort(port)?.message as ToQuantumWorker);
    if (next === undefined) {
      busy = false;
      return;
    }
    const pending = handle(next);
    if (pending !== undefined) {
      void pending.then(drain);
      return;
    }
  }
  setImmediate(drain);
}

port.on('message', (message: ToQuantumWorker) => {
  waiting.push(message);
  if (!busy) {
    busy = true;
    drain();
  }
});

send({ type: 'ready', unitNanos: calibration.unitNanos });
