// User modules load only from allowed directories, run on threads only, are checked before the
// run, and a run that never ends of itself is bounded by --time-limit.
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './cli-testing.ts';

const run = promisify(execFile);
const bin = fileURLToPath(new URL('../../bin/schedlab.js', import.meta.url));

let root: string;
let here: string;
let elsewhere: string;

/** A workload file in `dir` whose one job runs `module`'s export `name`. */
function workloadIn(dir: string, module: string, name = 'work', extra: object = {}): string {
  const path = join(dir, `w-${Math.random().toString(36).slice(2)}.json`);
  const doc = {
    config: { workers: 1 },
    classes: [
      {
        name: 'mod',
        arrival: { kind: 'once' },
        splits: { leaf: 1 },
        work: { kernel: { module, exportName: name }, totalMs: 1 },
      },
    ],
    ...extra,
  };
  writeFileSync(path, JSON.stringify(doc));
  return path;
}

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'schedlab-modules-'));
  here = join(root, 'here');
  elsewhere = join(root, 'elsewhere');
  mkdirSync(here);
  mkdirSync(elsewhere);
  const body = `export function work() { return 42; }
export function forever(input) { return { yield: input ?? 0 }; }
export const notAFunction = 1;
`;
  writeFileSync(join(here, 'mod.mjs'), body);
  writeFileSync(join(elsewhere, 'mod.mjs'), body);
  writeFileSync(join(here, 'broken.mjs'), 'export function work( {');
  // Its namespace is a thenable: `import()` adopted it and never settled (probe and worker hung).
  writeFileSync(join(here, 'then.mjs'), `${body}export function then() {}\n`);
  symlinkSync(join(elsewhere, 'mod.mjs'), join(here, 'link.mjs'));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('schedlab run and user modules', () => {
  it('refuses a module outside the allowed directories, naming the field', async () => {
    const threads = (file: string) => runCli(['run', file, '--backend', 'threads']);
    const outside = await threads(workloadIn(here, join(elsewhere, 'mod.mjs')));
    expect(outside.code).toBe(2);
    expect(outside.err).toContain('classes[0].work.kernel.module');
    expect(outside.err).toContain('outside the module directories');
    // `..` and a symlink are resolved before the check.
    const dotdot = await threads(workloadIn(here, `${here}/../elsewhere/mod.mjs`));
    expect(dotdot.err).toContain('outside the module directories');
    const link = await threads(workloadIn(here, join(here, 'link.mjs')));
    expect(link.err).toContain('outside the module directories');
  });

  it('refuses a module on the simulator instead of ignoring it', async () => {
    const sim = await runCli(['run', workloadIn(here, join(here, 'mod.mjs'))]);
    expect(sim.code).toBe(2);
    expect(sim.err).toContain(
      'classes[0].work.kernel.module: a user module runs on real workers (--backend threads or cluster), not on the simulator',
    );
  });

  it('on threads, refuses a missing, broken or exportless module before running', async () => {
    const threads = (file: string) => runCli(['run', file, '--backend', 'threads']);
    const missing = await threads(workloadIn(here, join(here, 'nope.mjs')));
    expect(missing.code).toBe(2);
    expect(missing.err).toContain('no such file');
    const broken = await threads(workloadIn(here, join(here, 'broken.mjs')));
    expect(broken.code).toBe(2);
    expect(broken.err).toContain('cannot be loaded');
    const noExport = await threads(workloadIn(here, join(here, 'mod.mjs'), 'notAFunction'));
    expect(noExport.code).toBe(2);
    expect(noExport.err).toContain('has no function export notAFunction');
  }, 60_000);

  it('runs a module from the workload directory, or from a --modules directory', async () => {
    const own = await runCli([
      'run',
      workloadIn(here, join(here, 'mod.mjs')),
      '--backend',
      'threads',
      '--json',
    ]);
    expect(own.code, own.err).toBe(0);
    const other = workloadIn(here, join(elsewhere, 'mod.mjs'));
    const allowed = await runCli([
      'run',
      other,
      '--backend',
      'threads',
      '--modules',
      elsewhere,
      '--json',
    ]);
    expect(allowed.code, allowed.err).toBe(0);
    expect(JSON.parse(allowed.out)).toMatchObject({ classes: { mod: { jobs: 1, succeeded: 1 } } });
    // A file: URL names the same module (it was probed as a path relative to the working folder).
    const url = workloadIn(here, pathToFileURL(join(here, 'mod.mjs')).href);
    const byUrl = await runCli(['run', url, '--backend', 'threads', '--json']);
    expect(byUrl.code, byUrl.err).toBe(0);
    expect(JSON.parse(byUrl.out)).toMatchObject({ classes: { mod: { jobs: 1, succeeded: 1 } } });
  }, 120_000);

  it('runs a module that also exports a function named then', async () => {
    const r = await runCli([
      'run',
      workloadIn(here, join(here, 'then.mjs')),
      '--backend',
      'threads',
      '--json',
      '--time-limit',
      '20s',
    ]);
    expect(r.code, r.err).toBe(0);
    expect(JSON.parse(r.out)).toMatchObject({ classes: { mod: { jobs: 1, succeeded: 1 } } });
  }, 60_000);

  it('stops a run with no duration whose module never ends at --time-limit, exit 1', async () => {
    const file = workloadIn(here, join(here, 'mod.mjs'), 'forever');
    const outcome = await run(
      process.execPath,
      [bin, 'run', file, '--backend', 'threads', '--time-limit', '3s'],
      {
        timeout: 90_000,
      },
    ).then(
      () => ({ code: 0, stderr: '' }),
      (e: { code: number; stderr: string }) => e,
    );
    expect(outcome.code).toBe(1);
    expect(outcome.stderr).toContain('passed its time limit of 3s');
  }, 120_000);
});
