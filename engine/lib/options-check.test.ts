// Options a service gets wrong at construction: each a coded error naming the field, at once,
// rather than a pool that hangs, a worker that cannot start, or a console on a pipe.
import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Pool } from './pool.ts';
import { Scheduler } from './scheduler.ts';
import { MAX_MODULE_EXPORTS } from '../../shared/limits.ts';
import type { SchedulerOptions } from './options.ts';

const TASKS = new URL('./fixtures/tasks.mjs', import.meta.url);

describe('constructor options', () => {
  it('worker resource limits are checked: known limits only, each in its range', () => {
    const cases: [unknown, string][] = [
      [5, 'resourceLimits'],
      [{ maxOldGenerationSizeMb: 'x' }, 'resourceLimits.maxOldGenerationSizeMb'],
      // Too small for a worker to start: the pool would respawn it forever, runs queued for good.
      [{ maxOldGenerationSizeMb: 1 }, 'resourceLimits.maxOldGenerationSizeMb'],
      // Too small a stack overflows while the thread boots, which takes the whole process down.
      [{ stackSizeMb: 0.1 }, 'resourceLimits.stackSizeMb'],
      [{ stackSizeMb: 100_000 }, 'resourceLimits.stackSizeMb'],
      [{ maxOldGenerationSizeMB: 64 }, 'resourceLimits.maxOldGenerationSizeMB'],
    ];
    for (const [resourceLimits, field] of cases) {
      const options = { workers: 1, resourceLimits } as unknown as SchedulerOptions;
      expect(() => new Scheduler(options), field).toThrow(
        expect.objectContaining({ code: 'INVALID_CONFIG', field }),
      );
    }
    expect(() => new Scheduler({ resourceLimits: { stackSizeMb: 0.1 } })).toThrow(
      /resourceLimits\.stackSizeMb must be a number of MB from 1 to 256, got 0\.1/,
    );
  });

  it('null options are a coded error, not a TypeError', () => {
    expect(() => new Scheduler(null as unknown as SchedulerOptions)).toThrow(
      expect.objectContaining({ code: 'INVALID_CONFIG', field: 'options' }),
    );
  });

  it('a misspelt setting names itself, and configure(null) or configure() is refused, not a no-op', async () => {
    // Before: the field was `config` (the message named the key), and null changed nothing quietly.
    expect(() => new Scheduler({ polcy: 'fair' } as unknown as SchedulerOptions)).toThrow(
      expect.objectContaining({ code: 'INVALID_CONFIG', field: 'polcy' }),
    );
    const s = new Scheduler({ workers: 1 });
    try {
      expect(() => s.configure({ quantumMz: 5 } as never)).toThrow(
        expect.objectContaining({ code: 'INVALID_CONFIG', field: 'quantumMz' }),
      );
      expect(() => s.configure(null as never)).toThrow(
        expect.objectContaining({ code: 'INVALID_CONFIG' }),
      );
      // A patch left out is the same mistake as null (it answered the config and changed nothing).
      expect(() => (s.configure as (p?: unknown) => unknown)()).toThrow(
        expect.objectContaining({
          code: 'INVALID_CONFIG',
          message: expect.stringMatching(/object/),
        }),
      );
    } finally {
      await s.close();
    }
  });

  it('a setting given as undefined keeps its default, as if absent', async () => {
    // Before: `quantumMs: undefined` ran 1000 ms quanta (the app's default, not the library's),
    // `fairness: undefined` turned per-tenant fairness off, `workers: undefined` gave 4 workers.
    const plain = new Scheduler();
    // (Types without exactOptionalPropertyTypes, and plain JavaScript, allow them.)
    const blank = new Scheduler({
      workers: undefined,
      quantumMs: undefined,
      fairness: undefined,
    } as unknown as SchedulerOptions);
    const pool = new Pool({ filename: TASKS, maxThreads: undefined, workers: undefined } as never);
    try {
      expect(plain.config).toMatchObject({ quantumMs: 10, fairness: 'query' });
      expect(blank.config).toEqual(plain.config);
      expect(pool.scheduler.config).toEqual(plain.config);
    } finally {
      await Promise.all([plain.close(), blank.close(), pool.close()]);
    }
  });

  it("a Pool's filename is checked at construction; its maxThreads is named as written", () => {
    for (const filename of ['./tasks.mjs', '/no/such/tasks.mjs', 42]) {
      expect(() => new Pool({ filename } as never)).toThrow(
        expect.objectContaining({ code: 'INVALID_ARGUMENT', field: 'filename' }),
      );
    }
    expect(() => new Pool({ filename: TASKS, maxThreads: 0 })).toThrow(
      expect.objectContaining({ code: 'INVALID_CONFIG', field: 'maxThreads' }),
    );
  });
});

describe('serveConsole options', () => {
  let s: Scheduler;
  let busy: Server;
  beforeAll(async () => {
    s = new Scheduler({ workers: 1 });
    busy = createServer();
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
  });
  afterAll(async () => {
    busy.close();
    await s.close();
  });

  it('a port that is not a TCP port, a misspelt option or a non-boolean switch is refused', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ port: 'sock' }, 'port'],
      [{ port: 70_000 }, 'port'],
      [{ port: 1.5 }, 'port'],
      [{ prot: 8080 }, 'prot'],
      [{ allowControl: 'yes' }, 'allowControl'],
      [{ frameHz: 0 }, 'frameHz'],
    ];
    for (const [options, field] of cases) {
      await expect(s.serveConsole({ build: false, ...options }), field).rejects.toMatchObject({
        code: 'INVALID_ARGUMENT',
        field,
      });
    }
    // Node would have taken 'sock' as a pipe's path and made it here.
    expect(existsSync('sock')).toBe(false);
  });

  it('a console that failed to listen can be served again, at the rate it was asked at', async () => {
    const port = (busy.address() as { port: number }).port;
    await expect(s.serveConsole({ build: false, port, frameHz: 5 })).rejects.toMatchObject({
      code: 'EADDRINUSE',
    });
    await expect(s.serveConsole({ build: false, frameHz: 20 })).rejects.toThrow(
      "frameHz is 5 for this scheduler's console (its first serveConsole set it) and cannot change",
    );
    const served = await s.serveConsole({ build: false, frameHz: 5 });
    try {
      expect(served.port).toBeGreaterThan(0);
    } finally {
      await served.close();
    }
  });
});

describe('run options', () => {
  /** Run options whose `tenant` getter throws a RangeError. */
  function throwingTenant(): object {
    return Object.defineProperty({}, 'tenant', {
      get: () => {
        throw new RangeError('boom');
      },
      enumerable: true,
    });
  }

  /** An option whose getter answers `first`, then `later` on every read after. */
  function changing(key: string, first: unknown, later: unknown): object {
    let reads = 0;
    return Object.defineProperty({}, key, {
      get: () => (reads++ === 0 ? first : later),
      enumerable: true,
    });
  }

  it('each is read once: what was checked is what runs, and a getter that throws is named', async () => {
    const s = new Scheduler({ workers: 1 });
    try {
      // Before: the checked value was read again to be used, so a getter could slip in another:
      // this run timed out at once (TIMEOUT, "within timeoutMs -5").
      const timed = changing('timeoutMs', 60_000, -5) as never;
      await expect(s.run({ module: TASKS }, 4, timed)).resolves.toBe(8);
      // A class checked as a string, then used as an object.
      await expect(
        s.run({ module: TASKS }, 4, changing('class', 'web', {}) as never),
      ).resolves.toBe(8);
      // Before: the getter's own RangeError, uncoded.
      const throwing = throwingTenant();
      const error = await s.run({ module: TASKS }, 4, throwing as never).then(
        () => null,
        (e: unknown) => e,
      );
      expect(error).toMatchObject({
        code: 'INVALID_ARGUMENT',
        field: 'tenant',
        message: 'tenant could not be read: RangeError: boom',
        cause: expect.objectContaining({ message: 'boom' }),
      });
      expect(s.stats().runs).toMatchObject({ submitted: 2, succeeded: 2, cancelled: 0 });
    } finally {
      await s.close();
    }
    // A Pool's run too: before, the getter's error was thrown at the caller, not a rejection.
    const pool = new Pool({ filename: TASKS.href, maxThreads: 1 });
    try {
      const run = pool.run(4, throwingTenant() as never);
      await expect(run).rejects.toMatchObject({ code: 'INVALID_ARGUMENT', field: 'options' });
    } finally {
      await pool.destroy();
    }
  });
});

describe('task names', () => {
  it('are bounded in length, and in how many distinct module exports a scheduler runs', async () => {
    const s = new Scheduler({ workers: 1 });
    try {
      // Before: a 16 MiB export name was sent to the workers and failed there, 1 MB of message.
      await expect(s.run({ module: TASKS, export: 'e'.repeat(201) }, 1)).rejects.toMatchObject({
        code: 'INVALID_ARGUMENT',
        field: 'task.export',
      });
      await expect(s.run({ module: `/tmp/${'m'.repeat(5000)}.mjs` }, 1)).rejects.toMatchObject({
        code: 'INVALID_ARGUMENT',
        field: 'task.module',
      });
      // Before: every distinct export stayed in the pool for good, however many.
      await expect(s.run({ module: TASKS }, 4)).resolves.toBe(8);
      // All at once: a name is taken as its run is queued (taken at dispatch, a burst passed).
      const missing = Array.from({ length: MAX_MODULE_EXPORTS + 9 }, (_, i) =>
        s.run({ module: TASKS, export: `e${i}` }, 1).catch((e: { code?: string }) => e.code),
      );
      const codes = await Promise.all(missing);
      expect(codes.filter((c) => c === 'KERNEL_FAILED')).toHaveLength(MAX_MODULE_EXPORTS - 1);
      expect(codes.filter((c) => c === 'INVALID_ARGUMENT')).toHaveLength(10);
      await expect(s.run({ module: TASKS, export: 'one-more' }, 1)).rejects.toMatchObject({
        code: 'INVALID_ARGUMENT',
        field: 'task',
      });
      await expect(s.run({ module: TASKS }, 5)).resolves.toBe(10);
      await expect(s.run({ module: TASKS, export: 'e7' }, 1)).rejects.toMatchObject({
        code: 'KERNEL_FAILED',
      });
    } finally {
      await s.close();
    }
  }, 60_000);
});

describe('workers that cannot start', () => {
  it('runs queued while a worker waits out its boot backoff fail when it dies again, not hang', async () => {
    const s = new Scheduler({ workers: 1 });
    try {
      await s.ready();
      // A broken environment, made here by lowering the heap under the floor the options check
      // enforces (nothing public can): every fresh worker now dies while it starts.
      const pool = (s as unknown as { backend: { workers: WorkerPoolView } }).backend.workers;
      pool.limits.maxOldGenerationSizeMb = 1;
      for (const w of pool.all()) await w.host.worker.terminate();
      await new Promise((resolve) => setTimeout(resolve, 300)); // in its backoff now
      const error = await s.run('spin', { ms: 1 }).then(
        () => null,
        (e: unknown) => e,
      );
      expect(error).toMatchObject({
        code: 'WORKER_LOST',
        message: expect.stringMatching(/worker lost: .*memory/),
      });
    } finally {
      await s.close({ cancel: true });
    }
  }, 30_000);
});

/** The parts of the threads backend's worker pool the test above reaches into. */
interface WorkerPoolView {
  limits: { maxOldGenerationSizeMb?: number };
  all(): Iterable<{ host: { worker: { terminate(): Promise<number> } } }>;
}
