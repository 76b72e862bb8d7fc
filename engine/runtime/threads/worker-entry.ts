/**
 * A backend worker: says `ready` once loaded (each kernel is calibrated on its first quantum),
 * then runs one quantum per `run` message (or module call) and answers with an `end`. Messages
 * sent while it starts are queued by the port; a `batch` is its messages in order. The threads
 * backend's workers take the same messages as records of their dispatch ring instead
 * (dispatch-ring.ts), woken by a `WAKE` message only when they sleep, and publish their ends on
 * an end ring (end-ring.ts); the cluster's nodes post both ways.
 *
 * Quanta run one at a time, in message order: a queued dispatch (one posted while the previous
 * quantum runs) waits in the ring or the port and starts the moment that quantum ends, unless the
 * main thread took its ticket back first — then it is dropped without an answer. Ends of quanta
 * run back to back are sent (or published) together (`ends`): at most `FLUSH_ENDS` of them, at
 * most `FLUSH_NANOS` after the first, and at once before a quantum that would take them past
 * that (a built-in kernel's, or a module's whose last quantum here, plus the wait of the first
 * end held, passes `FLUSH_NANOS`, or that never ran here), when the worker has nothing more to
 * run, or waits for an async quantum. So the main thread learns of an end at most about
 * `FLUSH_NANOS` late.
 */
import {
  parentPort,
  receiveMessageOnPort,
  workerData,
  type Transferable,
} from 'node:worker_threads';
import { nanosSince } from './clock.ts';
import type { SplitWork } from '../backend.ts';
import { takeTicket } from './control.ts';
import { RingReader } from './dispatch-ring.ts';
import { EndRingWriter, type EndItem } from './end-ring.ts';
import { flattenReport, unflattenReport } from './flat-messages.ts';
import type { Calibration } from './kernels.ts';
import {
  ENDS_READY,
  MODULE_CALL_LENGTH,
  type FlatEnd,
  type FromQuantumWorker,
  type ModuleCall,
  type QuantumReport,
  type QuantumWorkerData,
  type ToQuantumWorker,
} from './protocol.ts';
import { moduleScope, QuantumRunner, reason } from './quantum-runner.ts';
import { detachedAt } from './transfer.ts';
import { threadCpuClock } from './thread-cpu.ts';

const data = workerData as QuantumWorkerData;
const port = parentPort!;
const origin = BigInt(data.origin);
const clock = (): number => nanosSince(origin);
// Kernels are calibrated on their first quantum (quantum-runner.ts): boot loads and says ready.
const calibration: Calibration = { sizes: {}, unitNanos: {} };
const control = new Int32Array(data.control);
const ring =
  data.ring === undefined || data.extras === undefined
    ? null
    : new RingReader(data.ring, data.extras, () => {
        if (!busy) {
          busy = true;
          drain();
        }
      });
/** Where quantum ends go (end-ring.ts): the threads backend's workers; null: as messages. */
const endRing =
  data.endRing === undefined || data.extras === undefined
    ? null
    : new EndRingWriter(data.endRing, data.extras, () => port.postMessage(ENDS_READY));
const runner = new QuantumRunner(
  clock,
  control,
  calibration,
  threadCpuClock(),
  data.suspends === true,
);

function send(message: FromQuantumWorker, transfer?: readonly Transferable[]): void {
  flushEnds();
  port.postMessage(message, transfer === undefined ? undefined : [...transfer]);
}

/**
 * Ends gathered for one publish (end ring) or one message, and when the first of them was
 * gathered. With an end ring, reports only the object form carries wait here too, in order.
 */
let ends: EndItem[] = [];
/** What gathered ends' results move back (`ctx.move`), by end: empty unless a task moves. */
const moving = new Map<EndItem, readonly Transferable[]>();
let firstEndAt = 0;
const FLUSH_ENDS = 256;
const FLUSH_NANOS = 500_000;
/** How long each module's last quantum ran here (ns), by module id (none: never ran here). */
const lastRan: number[] = [];

function flushEnds(): void {
  if (ends.length === 0) return;
  const out = ends;
  ends = [];
  const transfer = movedBy(out);
  if (endRing !== null) {
    if (endRing.room() >= out.length) publish(endRing, out, transfer);
    else for (const item of out) postEnd(item); // never expected (end-ring.ts)
    return;
  }
  try {
    // Without a ring every item is a flat end (object reports are sent as they come).
    const message = out.length === 1 ? out[0] : { type: 'ends', ends: out.flat() };
    port.postMessage(message, transfer);
    forget(out);
  } catch {
    // A result that cannot be cloned: each alone, so only its split fails.
    for (const item of out) postEnd(item);
  }
}

/** Everything `out`'s results move, taken from `moving`; undefined when they move nothing. */
function movedBy(out: readonly EndItem[]): Transferable[] | undefined {
  if (moving.size === 0) return undefined;
  let all: Transferable[] | undefined;
  for (const item of out) {
    const t = moving.get(item);
    if (t !== undefined) (all ??= []).push(...t);
  }
  return all;
}

/** Drops what `out` moved from `moving` once sent (nothing to do unless a result moved). */
function forget(out: readonly EndItem[]): void {
  if (moving.size > 0) for (const item of out) moving.delete(item);
}

/**
 * Publishes `out` on the end ring; a result that cannot be cloned (or moved: a buffer named
 * twice, or moved already) fails its split alone: each is then sent alone.
 */
function publish(ring: EndRingWriter, out: EndItem[], transfer?: Transferable[]): void {
  try {
    ring.send(out, ring.extrasOf(out), transfer);
    forget(out);
  } catch {
    for (const item of out) {
      const moves = moving.get(item);
      moving.delete(item);
      try {
        // A buffer two results in the batch moved: the first took it.
        if (moves !== undefined && detachedAt(moves) >= 0) throw new Error('moved already');
        ring.send([item], ring.extrasOf([item]), moves);
      } catch (error) {
        const failed = unclonable(asReport(item), error);
        ring.send([failed], ring.extrasOf([failed]));
      }
    }
  }
}

/** One end as a message of its own (never when the main thread reads them from the ring). */
function postEnd(item: EndItem): void {
  const report = asReport(item);
  const moves = moving.get(item);
  moving.delete(item);
  try {
    const message = Array.isArray(item) ? item : { type: 'end', report };
    port.postMessage(message, moves === undefined ? undefined : [...moves]);
  } catch (error) {
    port.postMessage({ type: 'end', report: unclonable(report, error) });
  }
}

function asReport(item: EndItem): QuantumReport {
  return Array.isArray(item) ? unflattenReport(item as FlatEnd) : (item as QuantumReport);
}

/** Sends the gathered ends when there are enough of them or the first has waited long enough. */
function flushEndsIfDue(): void {
  if (ends.length >= FLUSH_ENDS || (ends.length > 0 && clock() - firstEndAt >= FLUSH_NANOS)) {
    flushEnds();
  }
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
    const last = lastRan[id];
    if (ends.length > 0 && (last === undefined || clock() - firstEndAt + last > FLUSH_NANOS)) {
      flushEnds();
    }
    report = runner.run(
      { splitId, workerId: data.workerId, quantumNanos, work, doneNanos: 0 },
      input,
    );
    if (!(report instanceof Promise)) lastRan[id] = report.endNanos - report.startNanos;
  } else if (message.type === 'batch') {
    waiting.unshift(...message.items); // its messages come before any that arrived after it
    return;
  } else if (message.type === 'calls') {
    for (const ref of message.refs) handle(ref);
    const { calls } = message;
    const each: ModuleCall[] = [];
    for (let at = 0; at < calls.length; at += MODULE_CALL_LENGTH) {
      each.push(calls.slice(at, at + MODULE_CALL_LENGTH) as unknown as ModuleCall);
    }
    waiting.unshift(...each);
    return;
  } else if (message.type === 'drop') {
    runner.drop(message.splitId);
    return;
  } else if (message.type === 'ref') {
    // One work object per module, so the runner finds its loaded function by identity.
    moduleWork[message.id] = { kernel: message.ref, totalNanos: 0 };
    return;
  } else {
    const { ticket } = message;
    if (ticket !== undefined && !takeTicket(control, ticket.word, ticket.value)) return; // revoked
    flushEnds();
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

function sendEnd(finished: QuantumReport): undefined {
  let report = finished;
  let moves = runner.transferOf(report);
  // `postMessage` would send a buffer moved already (an earlier call's result) empty, silently.
  if (moves !== undefined && detachedAt(moves) >= 0) {
    report = unclonable(report, new Error('ctx.move: its buffer was moved already'));
    moves = undefined;
  }
  const flat = flattenReport(report);
  if (flat !== null || endRing !== null) {
    if (ends.length === 0) firstEndAt = clock();
    const item = flat ?? report;
    ends.push(item);
    if (moves !== undefined) moving.set(item, moves);
    // An object-form report (a failure, a block) is published at once, as it was posted.
    if (flat === null) flushEnds();
    return undefined;
  }
  try {
    send({ type: 'end', report }, moves);
  } catch (error) {
    send({ type: 'end', report: unclonable(report, error) });
  }
  return undefined;
}

/** A result (or yielded state) that cannot be cloned fails its split instead of the worker. */
function unclonable(report: QuantumReport, error: unknown): QuantumReport {
  const why = error instanceof Error ? error.message : String(error);
  const what = report.outcome === 'yielded' ? 'yielded state' : 'result';
  const { result: _result, state: _state, ...rest } = report;
  return { ...rest, outcome: 'failed', error: `unclonable ${what}: ${why}` };
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
    // A dispatch queued behind the quantum that just ended is already in the ring or the port:
    // take it now rather than through another turn of the event loop (tens of µs a quantum on a
    // busy machine).
    const next =
      waiting.shift() ??
      ring?.next() ??
      (receiveMessageOnPort(port)?.message as ToQuantumWorker | undefined);
    if (next === undefined) {
      flushEnds();
      if (ring !== null && !ring.sleep()) continue; // a record came in as it was going idle
      busy = false;
      return;
    }
    const pending = handle(next as ToQuantumWorker);
    if (pending !== undefined) {
      flushEnds();
      void pending.then(drain);
      return;
    }
    flushEndsIfDue();
  }
  flushEnds();
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
// Records written while it started have woken nobody: read them, then sleep (dispatch-ring.ts).
if (ring !== null && !busy) {
  busy = true;
  drain();
}
