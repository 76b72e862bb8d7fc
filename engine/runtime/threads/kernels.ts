/**
 * The built-in kernels: real computation cut into small units (≈100 µs each) so a quantum can end
 * at a unit boundary. Every worker holds the same registry by name; closures never cross threads.
 *
 * A unit's size and cost are calibrated once per worker (`calibrate`), because the same kernel
 * costs different time on different machines; `UnitMeter` keeps both right as the worker runs
 * and counts work as computation done, not wall time.
 */
import { createHash } from 'node:crypto';
import { deflateSync } from 'node:zlib';
import type { KernelName } from '../backend.ts';

/** A CPU kernel: one unit of `size` (kernel-specific: bytes, elements, matrix order, loop steps). */
export interface CpuKernel {
  readonly initialSize: number;
  readonly maxSize: number;
  unit(size: number): number;
}

export const TARGET_UNIT_NANOS = 100_000;
const WARM_UP_UNITS = 10;
/** Time each kernel runs before it is measured, so the JIT has optimised it. */
const WARM_UP_NANOS = 5_000_000;
const TIMING_RUNS = 5;
const CALIBRATION_ROUNDS = 8;
/** One rescale grows a unit at most this much, so one noisy reading cannot make it huge. */
const MAX_RESCALE = 64;
const MAX_BYTES = 1 << 22;

/** Semi-compressible bytes shared by `hash` and `compress`: words from a small alphabet. */
const bytes = makeBytes(MAX_BYTES);
const sortSource = makeFloats(1 << 18);
const matrices: Record<'a' | 'b' | 'c', Float64Array> = {
  a: new Float64Array(0),
  b: new Float64Array(0),
  c: new Float64Array(0),
};

export const CPU_KERNELS: Readonly<Record<Exclude<KernelName, 'sleep'>, CpuKernel>> = {
  hash: {
    initialSize: 4096,
    maxSize: MAX_BYTES,
    unit: (size) => createHash('sha256').update(bytes.subarray(0, size)).digest()[0]!,
  },
  sort: {
    initialSize: 256,
    maxSize: sortSource.length,
    unit: (size) => {
      const a = sortSource.slice(0, size).sort();
      return a[size >> 1]!;
    },
  },
  compress: {
    initialSize: 4096,
    maxSize: MAX_BYTES,
    unit: (size) => deflateSync(bytes.subarray(0, size), { level: 6 }).length,
  },
  matmul: {
    initialSize: 8,
    maxSize: 256,
    unit: (size) => multiply(size),
  },
  spin: {
    initialSize: 1024,
    maxSize: 1 << 30,
    unit: (size) => {
      let x = size | 0;
      for (let i = 0; i < size; i++) x = (Math.imul(x, 1103515245) + 12345) | 0;
      return x;
    },
  },
};

export function isKernelName(name: string): name is KernelName {
  return name === 'sleep' || Object.hasOwn(CPU_KERNELS, name);
}

/** Sizes per kernel so that one unit takes about `TARGET_UNIT_NANOS` here, and what they took. */
export interface Calibration {
  readonly sizes: Record<string, number>;
  readonly unitNanos: Record<string, number>;
}

/**
 * Sizes each kernel's unit by measuring and rescaling until a unit takes about the target time.
 * Several rounds, because the first runs are slow (the JIT has not optimised the kernel yet) and a
 * size taken from them would be far too small once it has.
 */
export function calibrate(clock: () => number): Calibration {
  const into: Calibration = { sizes: {}, unitNanos: {} };
  for (const name of Object.keys(CPU_KERNELS)) calibrateKernel(name, clock, into);
  return into;
}

/**
 * Calibrates one CPU kernel into `into` (a worker does it before the first quantum of that kernel,
 * so a service that runs only its own modules never pays for it: about 10 ms a kernel at boot).
 */
export function calibrateKernel(name: string, clock: () => number, into: Calibration): void {
  const kernel = CPU_KERNELS[name as keyof typeof CPU_KERNELS];
  const warmUntil = clock() + WARM_UP_NANOS;
  while (clock() < warmUntil) sink ^= kernel.unit(kernel.initialSize);
  // matmul grows as n³; everything else about linearly.
  const exponent = name === 'matmul' ? 1 / 3 : 1;
  let size = kernel.initialSize;
  for (let round = 0; round < CALIBRATION_ROUNDS; round++) {
    const took = timeUnit(kernel, size, clock);
    const scale = Math.min(MAX_RESCALE, TARGET_UNIT_NANOS / Math.max(took, 1));
    if (scale > 0.8 && scale < 1.25) break;
    size = Math.max(1, Math.min(kernel.maxSize, Math.round(size * scale ** exponent)));
  }
  into.sizes[name] = size;
  for (let i = 0; i < WARM_UP_UNITS; i++) sink ^= kernel.unit(size);
  into.unitNanos[name] = timeUnit(kernel, size, clock);
}

function timeUnit(kernel: CpuKernel, size: number, clock: () => number): number {
  // Best of several: a descheduled thread must not make the unit look slower than it is.
  let best = Infinity;
  for (let i = 0; i < TIMING_RUNS; i++) {
    const start = clock();
    sink ^= kernel.unit(size);
    best = Math.min(best, clock() - start);
  }
  return best;
}

/** Keeps results observable so the JIT cannot drop the work. */
export let sink = 0;

function multiply(n: number): number {
  if (matrices.a.length !== n * n) {
    matrices.a = makeFloats(n * n);
    matrices.b = makeFloats(n * n);
    matrices.c = new Float64Array(n * n);
  }
  const { a, b, c } = matrices;
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      let sum = 0;
      for (let k = 0; k < n; k++) sum += a[i * n + k]! * b[k * n + j]!;
      c[i * n + j] = sum;
    }
  }
  return c[n + 1] ?? 0;
}

function makeBytes(length: number): Uint8Array {
  const out = new Uint8Array(length);
  let seed = 0x9e3779b9;
  for (let i = 0; i < length; i++) {
    seed = (Math.imul(seed, 1664525) + 1013904223) | 0;
    out[i] = 97 + ((seed >>> 24) % 8);
  }
  return out;
}

function makeFloats(length: number): Float64Array {
  const out = new Float64Array(length);
  let seed = 12345;
  for (let i = 0; i < length; i++) {
    seed = (Math.imul(seed, 1664525) + 1013904223) | 0;
    out[i] = (seed >>> 0) / 4294967296;
  }
  return out;
}
