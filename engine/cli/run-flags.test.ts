import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { runCli, tmpFile, TINY_WORKLOAD } from './cli-testing.ts';

const cli = runCli;
/** Two classes, one of which the bounded queue turns away whole (`maxQueued=3`). */
const tiny = TINY_WORKLOAD;

const ESC = '\x1b';

describe('schedlab run and compare flags', () => {
  it('--set takes every workload field, tenantWeights too', async () => {
    // Before: "unknown setting", so compare could not vary a tenant's weight.
    const json = await cli([
      'run',
      'noisy-tenants',
      '--duration',
      '1s',
      '--set',
      'tenantWeights={"initech":3}',
      '--json',
    ]);
    expect(json.code, json.err).toBe(0);
    const report = JSON.parse(json.out) as { fairness: { tenantWeights?: object } };
    expect(report.fairness.tenantWeights).toEqual({ initech: 3 });
  });

  it('says why jobs did not succeed, by code, in the text and the JSON report', async () => {
    const file = tmpFile('tiny.json', tiny);
    const json = await cli(['run', file, '--set', 'maxQueued=3', '--json']);
    expect(json.code, json.err).toBe(0);
    const report = JSON.parse(json.out) as {
      classes: Record<string, { failed: number; cancelled: number; rejected: number }>;
      failures: Record<string, { jobs: number; first: string }>;
    };
    const notOk = Object.values(report.classes).reduce(
      (n, c) => n + c.failed + c.cancelled + c.rejected,
      0,
    );
    expect(notOk).toBeGreaterThan(0);
    // A class with no job finished has no latency: null, as in `compare --json` (the text says
    // `-`). It read 0, the best latency of the report.
    const classes = Object.values(
      report.classes as unknown as Record<string, { succeeded: number; latencyMs: unknown }>,
    );
    expect(classes.some((c) => c.succeeded === 0)).toBe(true);
    for (const c of classes) {
      if (c.succeeded === 0) expect(c.latencyMs).toBeNull();
      else expect(c.latencyMs).toMatchObject({ p95: expect.any(Number) });
    }
    expect(report.failures).toEqual({
      QUEUE_FULL: {
        jobs: notOk,
        first: expect.stringMatching(/^job \d+ \(\w\): maxQueued 3 reached/),
      },
    });
    const text = await cli(['run', file, '--set', 'maxQueued=3']);
    expect(text.out).toMatch(
      /not succeeded, by code[^\n]*\n {2}QUEUE_FULL \d+ · job \d+ \(\w\): maxQueued 3/,
    );
    // Every job succeeded: no such section.
    const clean = await cli(['run', file, '--json']);
    expect(JSON.parse(clean.out)).not.toHaveProperty('failures');
  });

  it('refuses a duration on a graph workload, which ignored it and lost its time limit', async () => {
    // A node of a day's work: with `--duration 1s` the run went on for the day (a duration
    // turned the default time limit off, and graph runs never read it).
    const day = tmpFile('day-graph.json', { graph: { nodes: [{ id: 'a', cost: 86_400_000 }] } });
    const flag = await cli(['run', day, '--duration', '1s']);
    expect(flag.code).toBe(2);
    expect(flag.err).toMatch(
      /durationMs is not taken by a graph workload, which runs until its graphs end/,
    );
    expect(flag.err).toContain('INVALID_WORKLOAD');
    const field = tmpFile('dur-graph.json', {
      durationMs: 1000,
      graph: { nodes: [{ id: 'a', cost: 5000 }] },
    });
    const inFile = await cli(['run', field]);
    expect(inFile.code).toBe(2);
    expect(inFile.err).toMatch(
      /durationMs is not taken by a graph workload, which runs until its graphs end/,
    );
  });

  it('--time-limit stops a simulated run too, whose clock loop no timer interrupts', async () => {
    // A day of work in one split: about a million simulator steps, minutes of wall time.
    const long = tmpFile('long.json', {
      classes: [
        {
          name: 'a',
          arrival: { kind: 'once' },
          splits: { leaf: 1 },
          work: { totalMs: 86_400_000 },
        },
      ],
    });
    const r = await cli(['run', long, '--time-limit', '1s']);
    expect(r.code).toBe(1);
    expect(r.err).toContain(
      'passed its time limit of 1s (wall clock) and was stopped; give the workload a durationMs (or --duration), or raise --time-limit',
    );
  }, 60_000);

  it('--time-limit stops a run even inside one step of simulated time holding 10^7 calls', async () => {
    // 10,000 splits of 1 ms on one worker, each in the most calls a split may make (100,000 of
    // 10 ns): ten million dispatches inside the first 100 ms step, which the limit was only
    // looked at between (a split of 1 ns calls went on for hours before calls were bounded).
    const tiny = tmpFile('tiny-calls.json', {
      config: { workers: 1 },
      classes: [
        {
          name: 'a',
          arrival: { kind: 'once' },
          splits: { intermediate: 10_000 },
          work: { totalMs: 1, perCallMs: 0 },
        },
      ],
    });
    const r = await cli(['run', tiny, '--time-limit', '1s']);
    expect(r.code).toBe(1);
    expect(r.err).toContain('passed its time limit of 1s');
  }, 60_000);

  it('--time-limit stops a graph run on the simulator, which drives its clock to idle in one call', async () => {
    // 500,000 nodes that fail every attempt, 100 retries each: fifty million attempts (minutes
    // here), run on past the limit before.
    const graph = tmpFile('retries.json', {
      name: 'retries',
      graph: {
        generator: 'independent',
        count: 500_000,
        cost: 1,
        retries: 100,
        failProbability: 1,
        errorMode: 'continue',
      },
    });
    const r = await cli(['run', graph, '--time-limit', '1s']);
    expect(r.code).toBe(1);
    // A graph workload refuses a duration: the advice is the limit alone (it said to add one).
    expect(r.err).toContain(
      'passed its time limit of 1s (wall clock) and was stopped; raise --time-limit (TIME_LIMIT)\n',
    );
  }, 60_000);

  it('--time-limit past Node’s longest timer is refused, naming the flag and its maximum', async () => {
    // It used to stop the run at once: setTimeout fires at once past 2^31 − 1 ms.
    const r = await cli(['run', 'interactive-vs-scan', '--time-limit', '597h']);
    expect(r.code).toBe(2);
    expect(r.err).toContain('--time-limit 597h: must be at most 596h');
  });

  it('a graph run names the seeds its generators drew from, which reproduce it', async () => {
    // Before: the header said seed 1 (the workload's), and --seed 1 drew another graph.
    const doc = {
      generator: 'layered-random',
      levels: 12,
      width: 16,
      seed: 3,
      cost: 5,
      maxCost: 20,
    };
    const file = tmpFile('lr.json', { graph: doc });
    const plain = JSON.parse((await cli(['run', file, '--json'])).out) as {
      seed: number;
      graphSeeds: number[];
      makespanMs: number;
    };
    expect(plain.graphSeeds).toEqual([3]);
    const again = JSON.parse((await cli(['run', file, '--json', '--seed', '3'])).out) as {
      makespanMs: number;
    };
    expect(again.makespanMs).toBe(plain.makespanMs);
    expect((await cli(['run', file])).out).toMatch(/seed 1 · graph seed 3 ·/);
    const compared = await cli(['compare', file, '--policy', 'fifo', '--policy', 'sjf']);
    expect(compared.out).toMatch(/· seed 1 · graph seed 3\n/);
  });

  it('a flag given twice, a duration under 1 ns and a --config of null are refused, exit 2', async () => {
    // Before: the last --seed silently won, 0.0000001ms ran an empty 0 ns run, and a null config
    // file read as an empty one.
    const twice = await cli(['run', 'interactive-vs-scan', '--seed', '1', '--seed', '2']);
    expect(twice.code).toBe(2);
    expect(twice.err).toContain('--seed is given twice: it takes one value');
    const tiny = await cli(['run', 'interactive-vs-scan', '--duration', '0.0000001ms']);
    expect(tiny.code).toBe(2);
    expect(tiny.err).toContain('--duration 0.0000001ms: must be at least 1 ns');
    const nothing = tmpFile('null.json', null);
    const argv = ['compare', 'interactive-vs-scan', '--config', nothing, '--policy', 'fifo'];
    const compared = await cli(argv);
    expect(compared.code).toBe(2);
    expect(compared.err).toContain('INVALID_CONFIG');
    // A flag that takes many stays repeatable.
    const policies = ['--policy', 'mlfq', '--policy', 'fifo', '--duration', '1s'];
    expect((await cli(['compare', 'interactive-vs-scan', ...policies])).code).toBe(0);
  });

  it('--progress off a terminal writes plain progress lines to stderr, none to stdout', async () => {
    const r = await cli(['run', 'interactive-vs-scan', '--progress', '--json']);
    expect(r.code).toBe(0);
    expect((JSON.parse(r.out) as { workload: string }).workload).toBe('interactive-vs-scan');
    expect(r.err).not.toContain(ESC);
    const lines = r.err.trimEnd().split('\n');
    expect(lines.length).toBeGreaterThanOrEqual(1);
    for (const line of lines) expect(line).toMatch(/^progress: t \d+\.\d s · jobs done \d+/);
    // The last line is where the run ended: every job done.
    expect(lines.at(-1)).toMatch(/jobs done 1401 · live 0/);
    const quiet = await cli(['run', 'interactive-vs-scan', '--json']);
    expect(quiet.err).toBe('');
  }, 30_000);

  it('on a terminal the progress line is drawn in place, and left out under --json', async () => {
    const r = await cli(['run', 'interactive-vs-scan'], true);
    expect(r.err.startsWith('\r\x1b[2K  t ')).toBe(true);
    expect(r.err.endsWith('\r\x1b[2K')).toBe(true);
    expect(r.out).not.toContain(ESC);
    expect((await cli(['run', 'interactive-vs-scan', '--json'], true)).err).toBe('');
  }, 30_000);

  it('--seed must be an integer from 0 to 2^32 − 1; the error names --seed', async () => {
    // 2^32 drew the same run as 0 (the PRNG takes 32 bits); on a graph the error named graph.seed.
    for (const bad of ['', '-1', 'abc', '1.5', '1e3', '4294967296']) {
      for (const preset of ['diamond', 'interactive-vs-scan']) {
        const r = await cli(['run', preset, '--seed', bad]);
        expect(r.code, bad).toBe(2);
        expect(r.out).toBe('');
        expect(r.err, bad).toMatch(
          /^schedlab: --seed \S+: must be an integer from 0 to 4294967295 \(INVALID_USAGE\)\n$/,
        );
      }
    }
  });

  it('--seed reseeds a graph preset: a different seed draws a different graph', async () => {
    const dag = async (seed: string) => {
      const r = await cli(['run', 'random-layered-dag', '--seed', seed, '--json']);
      expect(r.code).toBe(0);
      return JSON.parse(r.out) as { seed: number; dag: { workMs: number } };
    };
    const [one, two, twoAgain] = [await dag('1'), await dag('2'), await dag('2')];
    expect(two.seed).toBe(2);
    expect(two.dag.workMs).not.toBe(one.dag.workMs);
    expect(twoAgain).toEqual(two);
  }, 30_000);

  it('--policy on a graph workload picks the graph ready-queue policy', async () => {
    const r = await cli([
      'compare',
      'diamond',
      '--policy',
      'fifo',
      '--policy',
      'critical-path',
      '--json',
    ]);
    expect(r.code).toBe(0);
    const runs = (JSON.parse(r.out) as { runs: { report: { makespanMs: number } }[] }).runs;
    const [fifo, cp] = runs.map((x) => x.report.makespanMs);
    // The diamond's long branch started first (critical path) finishes the graph sooner.
    expect(cp).toBeLessThan(fifo!);
    const single = JSON.parse((await cli(['run', 'diamond', '--policy', 'fifo', '--json'])).out);
    expect((single as { makespanMs: number }).makespanMs).toBe(fifo);

    for (const argv of [
      ['compare', 'diamond', '--policy', 'mlfq', '--policy', 'fifo'],
      ['run', 'diamond', '--policy', 'priority'],
    ]) {
      const bad = await cli(argv);
      expect(bad.code).toBe(2);
      expect(bad.err).toMatch(
        /^schedlab: --policy \w+: a graph workload takes a graph policy, one of fifo, lifo, most-successors, sjf, ljf, critical-path \(INVALID_USAGE\)\n$/,
      );
    }
    const splitQueue = await cli(['run', 'interactive-vs-scan', '--policy', 'critical-path']);
    expect(splitQueue.code).toBe(2);
    expect(splitQueue.err).toMatch(/must be one of mlfq, priority, fifo, fair/);
  }, 30_000);

  it('compare shows no latency ("-", null) for a class none of whose jobs finished', async () => {
    const file = tmpFile('tiny.json', tiny);
    const argv = ['compare', file, '--policy', 'mlfq', '--policy', 'fifo', '--set', 'maxQueued=3'];
    const text = await cli(argv);
    expect(text.code).toBe(0);
    expect(text.out).toMatch(/^b latency p50\s+-\s+-$/m);
    expect(text.out).toMatch(/^b latency p95\s+-\s+-$/m);
    expect(text.out).toMatch(/^a latency p50\s+\d/m);
    const json = JSON.parse((await cli([...argv, '--json'])).out) as {
      runs: { report: { classes: Record<string, { latencyMs: unknown; succeeded: number }> } }[];
    };
    for (const run of json.runs) {
      expect(run.report.classes['b']).toMatchObject({ succeeded: 0, latencyMs: null });
      expect(run.report.classes['a']!.latencyMs).toMatchObject({ p50: expect.any(Number) });
    }
  }, 30_000);

  it('--duration stops an open-ended run there', async () => {
    const overloaded = {
      name: 'overloaded',
      config: { workers: 1 },
      classes: [
        {
          name: 'q',
          arrival: { kind: 'periodic', everyMs: 100 },
          splits: { leaf: 1 },
          work: { totalMs: 150 },
        },
      ],
    };
    const r = await cli(['run', tmpFile('o.json', overloaded), '--duration', '2s', '--json']);
    expect(r.code).toBe(0);
    const report = JSON.parse(r.out) as { makespanMs: number; stoppedAtMs: number | null };
    expect(report.stoppedAtMs).toBe(2000);
    expect(report.makespanMs).toBeCloseTo(2000, 0);
  });

  it('--backend threads runs the workload on real worker threads', async () => {
    const small = {
      name: 'small',
      config: { workers: 2 },
      classes: [
        {
          name: 'w',
          arrival: { kind: 'periodic', everyMs: 5, count: 6 },
          splits: { leaf: 2 },
          work: { totalMs: 4 },
        },
      ],
    };
    const r = await cli(['run', tmpFile('s.json', small), '--backend', 'threads', '--json']);
    expect(r.code).toBe(0);
    const report = JSON.parse(r.out) as {
      backend: string;
      workers: { count: number; utilization: number };
      classes: Record<string, { jobs: number; succeeded: number }>;
    };
    expect(report.backend).toBe('threads');
    expect(report.workers.count).toBe(2);
    expect(report.classes['w']).toMatchObject({ jobs: 6, succeeded: 6 });
    expect(report.workers.utilization).toBeGreaterThan(0);
  }, 60_000);

  it('exits 2 with one line naming the port when serve is given one already taken', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = taken.address() as { port: number };
      const r = await cli(['serve', '--port', String(port), '--no-build']);
      expect(r.code).toBe(2);
      expect(r.out).toBe('');
      const last = r.err.trimEnd().split('\n').at(-1);
      expect(last).toBe(
        `schedlab: port ${port} is in use on 127.0.0.1: pick another, or 0 for a free one (INVALID_ARGUMENT)`,
      );
    } finally {
      await new Promise((resolve) => taken.close(resolve));
    }
  }, 30_000);
  it('--pipeline takes on or off, with --backend cluster only (run and serve)', async () => {
    const cases: [string[], RegExp][] = [
      [['run', 'diamond', '--pipeline', 'off'], /--pipeline goes with --backend cluster/],
      [
        [
          'run',
          'diamond',
          '--backend',
          'cluster',
          '--redis',
          'redis://127.0.0.1:1',
          '--pipeline',
          'no',
        ],
        /--pipeline no: must be on or off/,
      ],
      [['serve', '--no-build', '--pipeline', 'on'], /--pipeline goes with --redis URL/],
    ];
    for (const [argv, message] of cases) {
      const r = await cli(argv);
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.out).toBe('');
      expect(r.err).toMatch(message);
    }
  }, 30_000);
});
