/**
 * A `TaskPool` worker: loads its task functions, then serves its ring (task-ring.ts) until
 * terminated — runs every published task in order, writes results into the slots, and posts a
 * progress message when main asked for one (`WANT`) or when the ring runs dry, then sleeps on
 * `Atomics.wait` until main publishes more. No message per task in either direction.
 */
import { parentPort, receiveMessageOnPort, workerData } from 'node:worker_threads';
import type { FromTaskWorker, TaskFunctionRef, TaskWorkerData } from './protocol.ts';
import { BUILTIN_TASKS, type TaskFunction } from './task-functions.ts';
import { ARG, HEADER, RESULT, TaskRing } from './task-ring.ts';
import { isThenable, loadUserFunction } from './user-module.ts';

const data = workerData as TaskWorkerData;
const port = parentPort!;
const ring = new TaskRing(data.ring);
const { header, meta, numbers, mask } = ring;
const functions = await Promise.all(data.functions.map(load));

function send(message: FromTaskWorker): void {
  port.postMessage(message);
}

/** A function that cannot be loaded fails each of its tasks with the reason, not the worker. */
async function load(ref: TaskFunctionRef): Promise<TaskFunction> {
  try {
    if (ref.kind === 'builtin') {
      const fn = BUILTIN_TASKS[ref.name];
      if (fn === undefined) throw new Error(`no built-in task named ${ref.name}`);
      return fn;
    }
    const fn = await loadUserFunction(ref.ref);
    // Tasks run to completion (non-preemptive): there is no quantum to yield to.
    const ctx = {
      shouldYield: () => false,
      yield: () => Promise.resolve(),
      signal: new AbortController().signal,
      quantumNanos: 0,
    };
    return (arg) => fn(arg, ctx);
  } catch (error) {
    const why = describe(error);
    return () => {
      throw new Error(why);
    };
  }
}

let values: unknown[] = [];
let count = 0;
let busySince = 0;
let busyNanos = 0;

function flush(tail: number): void {
  if (count === 0) return;
  Atomics.store(header, HEADER.TAIL, tail);
  try {
    send({ type: 'progress', upTo: tail, values, busyNanos, count });
  } catch {
    // A value that cannot be cloned fails its own task, not the batch: find it before resending.
    let next = 0;
    for (let seq = (tail - count) | 0; seq !== tail; seq = (seq + 1) | 0) {
      const slot = 2 * (seq & mask) + 1;
      if (meta[slot] === RESULT.NUMBER) continue;
      const index = next++;
      if (meta[slot] !== RESULT.VALUE) continue;
      try {
        structuredClone(values[index]);
      } catch (error) {
        values[index] = `unclonable result: ${describe(error)}`;
        meta[slot] = RESULT.ERROR;
      }
    }
    send({ type: 'progress', upTo: tail, values, busyNanos, count });
  }
  values = [];
  count = 0;
  busyNanos = 0;
}

async function serve(): Promise<void> {
  let tail = 0;
  for (;;) {
    const head = Atomics.load(header, HEADER.HEAD);
    if (head === tail) {
      flush(tail);
      Atomics.wait(header, HEADER.HEAD, head);
      continue;
    }
    busySince = performance.now();
    while (tail !== head) {
      const slot = tail & mask;
      const fn = functions[meta[2 * slot]!];
      const arg =
        meta[2 * slot + 1] === ARG.NUMBER
          ? numbers[slot]
          : receiveMessageOnPort(data.argPort)?.message;
      try {
        let result = fn === undefined ? missing(meta[2 * slot]!) : fn(arg);
        if (isThenable(result)) result = await result;
        if (typeof result === 'number') {
          numbers[slot] = result;
          meta[2 * slot + 1] = RESULT.NUMBER;
        } else {
          values.push(result);
          meta[2 * slot + 1] = RESULT.VALUE;
        }
      } catch (error) {
        values.push(describe(error));
        meta[2 * slot + 1] = RESULT.ERROR;
      }
      tail = (tail + 1) | 0;
      count++;
      if (tail === Atomics.load(header, HEADER.WANT)) {
        busyNanos += (performance.now() - busySince) * 1e6;
        busySince = performance.now();
        flush(tail);
      }
    }
    busyNanos += (performance.now() - busySince) * 1e6;
  }
}

function missing(id: number): never {
  throw new Error(`no task function with id ${id}`);
}

function describe(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

send({ type: 'ready' });
await serve();
