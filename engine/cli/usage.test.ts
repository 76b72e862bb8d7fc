import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, tmpFile } from './cli-testing.ts';

const cli = (...argv: string[]) => runCli(argv);

const tiny = {
  name: 'tiny',
  classes: [{ name: 'a', arrival: { kind: 'once' }, splits: { leaf: 2 }, work: { totalMs: 30 } }],
};

describe('schedlab usage and bad input', () => {
  it('help prints the usage to stdout and exits 0; no command is a one-line error', async () => {
    for (const argv of [['--help'], ['help'], ['-h']]) {
      const r = await cli(...argv);
      expect(r).toMatchObject({ code: 0, err: '' });
      expect(r.out).toMatch(/^usage: schedlab <command>/);
    }
    expect(await cli()).toEqual({
      code: 2,
      out: '',
      err: 'schedlab: no command given (run, compare, presets, serve, attach, bench, worker; schedlab --help for usage) (INVALID_USAGE)\n',
    });
  });

  it('every command answers --help (and -h) with its own usage on stdout, exit 0, and runs nothing', async () => {
    for (const command of ['run', 'compare', 'presets', 'serve', 'bench']) {
      for (const flag of ['--help', '-h']) {
        // A workload that does not exist: help must not get as far as loading it.
        const r = await cli(command, 'no-such-workload', flag);
        expect({ command, flag, code: r.code, err: r.err }).toEqual({
          command,
          flag,
          code: 0,
          err: '',
        });
        expect(r.out.startsWith(`usage: schedlab ${command} `), r.out).toBe(true);
      }
    }
    const run = await cli('run', '--help');
    // The notes on the flags `run` takes come with it; `presets` names none of them.
    expect(run.out).toMatch(/--backend sim\|threads/);
    expect(run.out).toMatch(/^--duration is workload time/m);
    expect((await cli('presets', '--help')).out).not.toMatch(/--duration/);
    // The notes about serve alone come with serve's help, not run's or compare's (they did).
    for (const command of ['run', 'compare']) {
      expect((await cli(command, '--help')).out).not.toMatch(/^serve /m);
    }
    const serve = (await cli('serve', '--help')).out;
    expect(serve).toMatch(/^serve --keep-token keeps the token/m);
    expect(serve).toMatch(/^serve reads commands on stdin/m);
    expect(serve).toMatch(/^The app's header switches the backend live/m);
    // After `--`, --help is an argument, not a request for help.
    expect((await cli('run', '--', '--help')).code).toBe(2);
  });

  it('a wrong-typed --set value says what was expected, naming the field as a.b[3].c', async () => {
    const file = tmpFile('tiny.json', tiny);
    const expectations: [string, string][] = [
      ['workers=abc', 'workers must be a number (INVALID_CONFIG)'],
      ['workers=1.5', 'workers must be an integer (INVALID_CONFIG)'],
      ['seed=abc', 'seed must be a number (INVALID_WORKLOAD)'],
      ['classes[0].tasks=1.5', 'classes[0].tasks must be an integer (INVALID_WORKLOAD)'],
      [
        'classes[0].basePriority="x"',
        'classes[0].basePriority must be a number (INVALID_WORKLOAD)',
      ],
      [
        'classes[0].work.totalMs="ten"',
        'classes[0].work.totalMs must be a number of ms from 0 to 86400000 or a distribution object (INVALID_WORKLOAD)',
      ],
      [
        'classes[5].arrival.rate=1',
        '--set classes[5].arrival.rate: classes has no entry 5 to change (INVALID_USAGE)',
      ],
      ['name.x=1', '--set name.x: name is not an object (INVALID_USAGE)'],
      // Past a list's end: far past, the edit set a property no one reads and ran anyway.
      [
        'classes[4294967295]="x"',
        "--set classes[4294967295]: index 4294967295 is past any list's end (INVALID_USAGE)",
      ],
      [
        'classes[99999999999999999999].x=1',
        "--set classes[99999999999999999999].x: index 99999999999999999999 is past any list's end (INVALID_USAGE)",
      ],
      [
        'classes[7]={}',
        '--set classes[7]: classes has no entry 7 to change (it has 1) (INVALID_USAGE)',
      ],
    ];
    for (const [set, message] of expectations) {
      const r = await cli('run', file, '--set', set);
      expect({ set, ...r }).toEqual({ set, code: 2, out: '', err: `schedlab: ${message}\n` });
    }
  });

  it('a graph that names an unknown node is refused, naming graph.edges[i].to', async () => {
    const file = tmpFile('g.json', {
      graph: [
        { nodes: [{ id: 'a' }] },
        {
          nodes: [{ id: 'a' }, { id: 'b' }],
          edges: [
            { from: 'a', to: 'b' },
            { from: 'b', to: 'zz' },
          ],
        },
      ],
    });
    expect(await cli('run', file)).toEqual({
      code: 2,
      out: '',
      err: 'schedlab: graph[1].edges[1].to names no node "zz" (INVALID_GRAPH)\n',
    });
  });

  it('a --trace path that cannot be written is refused before the run', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'schedlab-trace-'));
    for (const path of [join(dir, 'missing', 'out.json'), dir]) {
      const r = await cli('run', 'interactive-vs-scan', '--trace', path);
      expect(r.code).toBe(2);
      expect(r.out).toBe('');
      expect(r.err).toMatch(
        new RegExp(`^schedlab: --trace ${path}: (cannot write|is a directory)`),
      );
    }
  });

  it('a trace that cannot be written at the end keeps the report: printed, then the error, exit 2', async () => {
    // /dev/full takes the open and fails the write (ENOSPC): only the error was printed.
    const r = await cli('run', 'interactive-vs-scan', '--json', '--trace', '/dev/full');
    expect(r.code).toBe(2);
    expect(JSON.parse(r.out)).toMatchObject({ workload: 'interactive-vs-scan' });
    expect(r.err).toMatch(
      /^schedlab: --trace \/dev\/full: cannot be written \(ENOSPC\); the report is above \(INVALID_USAGE\)\n$/,
    );
  });

  it('worker --threads takes decimal digits only', async () => {
    for (const threads of ['0x2', '2.0', '1e1', '']) {
      const r = await cli('worker', '--redis', 'redis://127.0.0.1:1', '--threads', threads);
      expect(r).toMatchObject({ code: 2, out: '' });
      expect(r.err).toContain(`must be an integer from 1 to 256`);
    }
  });

  it('compare takes at most 16 configs, refused before loading anything', async () => {
    const argv = ['compare', 'no-such-workload'];
    for (let i = 0; i < 17; i++) argv.push('--policy', 'fifo');
    expect(await cli(...argv)).toEqual({
      code: 2,
      out: '',
      err: 'schedlab: compare takes at most 16 configs (--policy and --config together), got 17 (INVALID_USAGE)\n',
    });
  });

  it('presets and attach refuse a repeated flag and a stray argument', async () => {
    for (const argv of [
      ['presets', '--json', '--json'],
      ['presets', 'extra'],
      ['attach', 'http://127.0.0.1:1/?token=x', 'http://127.0.0.1:2/?token=y'],
      ['attach', 'http://127.0.0.1:1/?token=x', '--browser', '--browser'],
    ]) {
      const r = await cli(...argv);
      // Asked for JSON, the failure is answered in JSON too.
      const out = argv.includes('--json')
        ? '{"error":{"code":"INVALID_USAGE","message":"--json is given twice: it takes one value","field":"--json"}}\n'
        : '';
      expect({ argv, code: r.code, out: r.out }).toEqual({ argv, code: 2, out });
      expect(r.err).toMatch(/is given twice|takes no arguments|takes one URL/);
    }
  });

  it("--duration past a workload's longest names the flag and its unit, not durationMs in ms", async () => {
    expect(await cli('run', 'interactive-vs-scan', '--duration', '2401h')).toEqual({
      code: 2,
      out: '',
      err: "schedlab: --duration 2401h: must be at most 2400h (100 days, a workload's longest) (INVALID_USAGE)\n",
    });
  });
});
