import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { runCli, tmpFile, TINY_WORKLOAD } from './cli-testing.ts';

const run = promisify(execFile);
const bin = fileURLToPath(new URL('../../bin/schedlab.js', import.meta.url));

const cli = (...argv: string[]) => runCli(argv);
const tiny = TINY_WORKLOAD;

describe('schedlab CLI', () => {
  it(
    'run --json prints exactly one JSON report with the contract fields',
    { timeout: 30_000 },
    async () => {
      const file = tmpFile('tiny.json', tiny);
      const { code, out } = await cli('run', file, '--json', '--policy', 'fair');
      expect(code).toBe(0);
      const report = JSON.parse(out) as Record<string, unknown>;
      expect(Object.keys(report)).toEqual(
        expect.arrayContaining([
          'workload',
          'backend',
          'seed',
          'config',
          'makespanMs',
          'classes',
          'levels',
          'workers',
          'fairness',
        ]),
      );
      expect(report).toMatchObject({
        workload: 'tiny',
        backend: 'sim',
        seed: 3,
        config: { policy: 'fair', workers: 2 },
      });
      const a = (report['classes'] as Record<string, Record<string, unknown>>)['a']!;
      expect(a).toMatchObject({ jobs: 5, succeeded: 5, failed: 0, cancelled: 0, rejected: 0 });
      for (const key of ['latencyMs', 'waitMs'])
        expect(Object.keys(a[key] as object).sort()).toEqual(['max', 'mean', 'p50', 'p95', 'p99']);
      expect(report['workers']).toMatchObject({ count: 2 });
      expect(typeof (report['fairness'] as { jain: number }).jain).toBe('number');
    },
  );

  it('run prints a human summary and writes a Perfetto trace', { timeout: 30_000 }, async () => {
    const trace = join(mkdtempSync(join(tmpdir(), 'schedlab-trace-')), 'out.json');
    const { code, out, err } = await cli(
      'run',
      'interactive-vs-scan',
      '--trace',
      trace,
      '--seed',
      '2',
    );
    expect(code).toBe(0);
    expect(out).toMatch(/^interactive-vs-scan · sim · seed 2 · policy mlfq/);
    expect(out).toMatch(/interactive\s+50\s+1400\s+1400/);
    expect(err).toMatch(/events written/);
    const events = (JSON.parse(readFileSync(trace, 'utf8')) as { traceEvents: { ph: string }[] })
      .traceEvents;
    expect(events.filter((e) => e.ph === 'X').length).toBeGreaterThan(1000);
  });

  it(
    '--set reaches engine settings and workload fields; a bad one names the field and exits 2',
    { timeout: 30_000 },
    async () => {
      const file = tmpFile('tiny.json', tiny);
      const ok = await cli(
        'run',
        file,
        '--json',
        '--set',
        'levelTimeMultiplier=4',
        '--set',
        'classes[0].arrival.count=3',
      );
      expect(ok.code).toBe(0);
      const report = JSON.parse(ok.out) as {
        config: { levelTimeMultiplier: number };
        classes: Record<string, { jobs: number }>;
      };
      expect(report.config.levelTimeMultiplier).toBe(4);
      expect(report.classes['a']!.jobs).toBe(3);

      const badKnob = await cli('run', file, '--set', 'levelTimeMultiplier=1');
      expect(badKnob).toMatchObject({
        code: 2,
        out: '',
        err: 'schedlab: levelTimeMultiplier must be > 1 (INVALID_CONFIG)\n',
      });
      const badField = await cli(
        'run',
        file,
        '--set',
        'classes[1].arrival.kind=poisson',
        '--set',
        'classes[1].arrival.rate=-1',
        '--set',
        'durationMs=100',
      );
      expect(badField.err).toBe(
        'schedlab: classes[1].arrival.rate must be > 0 (INVALID_WORKLOAD)\n',
      );
      const unknown = await cli('run', file, '--set', 'colour=red');
      expect(unknown.code).toBe(2);
      expect(unknown.err).toMatch(/--set colour: unknown setting/);
    },
  );

  it(
    'jobs the bounded queue turns away are reported as rejected, not lost',
    { timeout: 30_000 },
    async () => {
      const file = tmpFile('tiny.json', tiny);
      const { code, out } = await cli('run', file, '--json', '--set', 'maxQueued=3');
      expect(code).toBe(0);
      const classes = (JSON.parse(out) as { classes: Record<string, Record<string, number>> })
        .classes;
      expect(classes['b']).toMatchObject({ jobs: 1, rejected: 1, succeeded: 0 });
      const a = classes['a']!;
      expect(a['rejected']).toBeGreaterThan(0);
      expect(a['succeeded']! + a['rejected']!).toBe(a['jobs']);
    },
  );

  it(
    'bad input exits 2 with one line: unknown preset, bad JSON, bad flag, bad duration',
    { timeout: 30_000 },
    async () => {
      for (const argv of [
        ['run', 'no-such-preset'],
        ['run', tmpFile('bad.json', '{ nope')],
        ['run', 'interactive-vs-scan', '--bogus'],
        ['run', 'interactive-vs-scan', '--duration', 'soon'],
        ['run', 'interactive-vs-scan', '--policy', 'random'],
        ['compare', 'interactive-vs-scan', '--policy', 'mlfq'],
        ['frobnicate'],
        [],
      ]) {
        const r = await cli(...argv);
        expect(r.code, argv.join(' ')).toBe(2);
        expect(r.err.trim().split('\n'), argv.join(' ')).toHaveLength(1);
        expect(r.out).toBe('');
      }
    },
  );

  it(
    'compare runs each config on the same seeded workload, side by side',
    { timeout: 30_000 },
    async () => {
      const file = tmpFile('tiny.json', tiny);
      const cfg = tmpFile('four-workers.json', { workers: 4 });
      const text = await cli(
        'compare',
        file,
        '--policy',
        'mlfq',
        '--policy',
        'fifo',
        '--config',
        cfg,
      );
      expect(text.code).toBe(0);
      expect(text.out).toMatch(/\s+mlfq\s+fifo\s+four-workers\n/);
      const json = JSON.parse(
        (await cli('compare', file, '--policy', 'mlfq', '--policy', 'fifo', '--json')).out,
      ) as {
        runs: { label: string; report: { config: { policy: string }; seed: number } }[];
      };
      expect(json.runs.map((r) => [r.label, r.report.config.policy, r.report.seed])).toEqual([
        ['mlfq', 'mlfq', 3],
        ['fifo', 'fifo', 3],
      ]);
    },
  );

  it('presets lists every shipped workload', async () => {
    const { code, out } = await cli('presets', '--json');
    expect(code).toBe(0);
    const names = (JSON.parse(out) as { name: string }[]).map((p) => p.name);
    expect(names).toEqual(
      expect.arrayContaining([
        'interactive-vs-scan',
        'batch-service',
        'trino-overloaded',
        'diamond',
      ]),
    );
  });

  it(
    'the bin script runs as a process: exit 0 with JSON on stdout, exit 2 on bad input',
    { timeout: 60_000 },
    async () => {
      const file = tmpFile('tiny.json', tiny);
      const { stdout } = await run(process.execPath, [bin, 'run', file, '--json']);
      expect((JSON.parse(stdout) as { workload: string }).workload).toBe('tiny');
      const failure = await run(process.execPath, [bin, 'run', file, '--set', 'workers=0']).then(
        () => null,
        (e: { code: number; stderr: string }) => e,
      );
      expect(failure?.code).toBe(2);
      expect(failure?.stderr).toBe('schedlab: workers must be >= 1 (INVALID_CONFIG)\n');
    },
  );
});
