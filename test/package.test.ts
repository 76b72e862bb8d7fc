// The compiled package as a user gets it: plain Node (no tsx, no loader) imports 'schedlab'
// through package.json `exports`, and its worker threads start from compiled entries.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
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

describe('the compiled package', () => {
  it('declares its entry and types in package.json exports, built to dist/lib', () => {
    expect(existsSync('dist/lib/engine/index.js')).toBe(true);
    expect(existsSync('dist/lib/engine/index.d.ts')).toBe(true);
    expect(existsSync('dist/lib/engine/runtime/threads/worker-entry.js')).toBe(true);
  });

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
