// The compiled package as a user gets it: plain Node (no tsx, no loader) imports 'schedlab'
// through package.json `exports`, and its worker threads start from compiled entries.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const TASKS = new URL('../engine/lib/fixtures/tasks.mjs', import.meta.url).href;

const SCRIPT = `
import { Scheduler, SchedLabError } from 'schedlab';
const s = new Scheduler({ workers: 2 });
const doubled = await s.run({ module: ${JSON.stringify(TASKS)} }, 21, { tenant: 'a' });
const code = await s.run({ module: ${JSON.stringify(TASKS)}, export: 'boom' }).catch((e) => e instanceof SchedLabError && e.code);
await s.close();
console.log(JSON.stringify({ doubled, code }));
`;

/** tsc as a service's build runs it: strict, Node's module rules, the package by its name. */
const TSC_ARGS = [
  '--ignoreConfig',
  '--noEmit',
  '--strict',
  '--exactOptionalPropertyTypes',
  '--module',
  'nodenext',
  '--moduleResolution',
  'nodenext',
  '--target',
  'es2022',
  '--skipLibCheck',
  '--types',
  'node',
];

describe('the compiled package', () => {
  it('declares its entry and types in package.json exports, built to dist/lib', () => {
    expect(existsSync('dist/lib/engine/index.js')).toBe(true);
    expect(existsSync('dist/lib/engine/index.d.ts')).toBe(true);
    expect(existsSync('dist/lib/engine/runtime/threads/worker-entry.js')).toBe(true);
  });

  it("a TypeScript service type-checks against its declarations: the names are the library's", () => {
    // test/package-types/service.ts imports RunOptions, SchedulerOptions, TaskContext, … from
    // 'schedlab' and uses them as the README does; a misspelt option must be a type error there.
    const tsc = fileURLToPath(new URL('../node_modules/typescript/bin/tsc', import.meta.url));
    const file = fileURLToPath(new URL('./package-types/service.ts', import.meta.url));
    const result = spawnSync(process.execPath, [tsc, ...TSC_ARGS, file], {
      encoding: 'utf8',
      timeout: 120_000,
    });
    expect(result.stdout + result.stderr).toBe('');
    expect(result.status).toBe(0);
  }, 130_000);

  it("runs a task from plain node with `import { Scheduler } from 'schedlab'`", () => {
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', SCRIPT], {
      encoding: 'utf8',
      timeout: 60_000,
      // A loader vitest or tsx put in NODE_OPTIONS would hide a missing compiled file.
      env: { ...process.env, NODE_OPTIONS: '' },
    });
    expect(JSON.parse(out.trim().split('\n').at(-1)!)).toEqual({
      doubled: 42,
      code: 'KERNEL_FAILED',
    });
  });
});
