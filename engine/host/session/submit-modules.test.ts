// A job a client submits by command that names a user module is held to the operator's module
// directories, as a workload is: `submitJob` used to run any module file on the host.
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ThreadsBackend } from '../../runtime/threads/index.ts';
import { liveWorkloads } from '../server/live-workloads.ts';
import { Session } from './index.ts';

let allowed: string;
let outside: string;
let session: Session | null = null;

beforeAll(() => {
  allowed = realpathSync(mkdtempSync(join(tmpdir(), 'schedlab-allowed-')));
  outside = realpathSync(mkdtempSync(join(tmpdir(), 'schedlab-outside-')));
  for (const dir of [allowed, outside]) {
    writeFileSync(join(dir, 'task.mjs'), 'export default (x) => ({ doubled: x * 2 });\n');
  }
});
afterAll(() => {
  for (const dir of [allowed, outside]) rmSync(dir, { recursive: true, force: true });
});
afterEach(async () => {
  await session?.close();
  session = null;
});

function open(modules: readonly string[] | null): Session {
  const s = new Session({
    backend: new ThreadsBackend({ workers: 1 }),
    config: { workers: 1 },
    ...(modules === null ? {} : { workloads: liveWorkloads({ modules }) }),
  });
  session = s;
  return s;
}

const job = (module: string) => ({
  class: 'mine',
  tasks: [
    {
      splits: [
        { kind: 'leaf', work: { kernel: { module }, input: 21, totalNanos: 1 } },
        { kind: 'leaf', work: { kernel: 'spin', totalNanos: 1000 } },
      ],
    },
  ],
});
const FIELD = 'job.tasks[0].splits[0].work.kernel.module';

describe('submitJob naming a user module', () => {
  it('runs a module inside the module directories, and refuses one outside them naming the field', async () => {
    const s = open([allowed]);
    const refused = await s.handleCommand({
      type: 'submitJob',
      job: job(join(outside, 'task.mjs')),
    } as never);
    expect(refused).toMatchObject({
      ok: false,
      error: { code: 'MODULE_NOT_ALLOWED', field: FIELD },
    });
    expect(s.executor.counters.submitted).toBe(0);
    const ran = await s.handleCommand({
      type: 'submitJob',
      job: job(join(allowed, 'task.mjs')),
    } as never);
    expect(ran).toMatchObject({ ok: true });
    await s.executor.drain();
    expect(s.executor.counters).toMatchObject({ submitted: 1, succeeded: 1 });
  });

  it('refuses every module where the session has no module directories (a service console)', async () => {
    const s = open(null);
    const refused = await s.handleCommand({
      type: 'submitJob',
      job: job(join(allowed, 'task.mjs')),
    } as never);
    expect(refused).toMatchObject({
      ok: false,
      error: { code: 'MODULE_NOT_ALLOWED', field: FIELD },
    });
    // A job of built-in kernels goes in as before.
    const builtIn = { class: 'mine', tasks: [{ splits: [job('x').tasks[0]!.splits[1]!] }] };
    expect(await s.handleCommand({ type: 'submitJob', job: builtIn } as never)).toMatchObject({
      ok: true,
    });
  });
});
