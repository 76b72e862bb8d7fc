// examples/fair-http: the same node:http service on SchedLab's Pool and on Piscina, tenant A
// flooding, tenant B sending a small request every 200 ms. The bound, stated: B's p95 time in
// the service stays under half of what it is on Piscina (FIFO) in the same run on the same
// machine, and under 3 s. Ratios, not absolute speed: the machine's cores are shared and busy.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { afterEach, describe, expect, it } from 'vitest';
// @ts-expect-error: a plain JavaScript example, no types
import { runLoad } from '../examples/fair-http/load.mjs';

interface LoadResult {
  b: { count: number; p50: number; p95: number; serverP95: number };
  a: { count: number };
  errors: number;
}

const SERVER = new URL('../examples/fair-http/server.mjs', import.meta.url).pathname;
const children: ChildProcess[] = [];

afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
});

/** Starts the example service (plain node, the compiled package); resolves with its URL. */
async function startService(args: string[]): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, [SERVER, ...args], {
    env: { ...process.env, NODE_OPTIONS: '' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(child);
  let out = '';
  for await (const chunk of child.stdout!) {
    out += String(chunk);
    const url = /listening (http:\/\/\S+)/.exec(out)?.[1];
    if (url !== undefined) return { url, child };
  }
  throw new Error(`the service exited before listening: ${out}`);
}

async function measure(args: string[]): Promise<LoadResult> {
  const { url, child } = await startService(args);
  const result = (await runLoad({
    base: url,
    seconds: 4,
    flood: 64,
    ms: 50,
    bMs: 10,
    everyMs: 200,
    warmupMs: 1000,
  })) as LoadResult;
  child.kill('SIGTERM');
  await once(child, 'exit');
  expect(result.errors).toBe(0);
  expect(result.b.count).toBeGreaterThanOrEqual(10);
  return result;
}

describe('examples/fair-http: a light tenant next to a flooding one', () => {
  it('keeps B within the bound under fair and mlfq; Piscina violates it', async () => {
    const piscina = await measure(['--pool', 'piscina']);
    const fair = await measure(['--pool', 'schedlab', '--policy', 'fair']);
    const mlfq = await measure(['--pool', 'schedlab', '--policy', 'mlfq']);
    const figures = { piscina: piscina.b, fair: fair.b, mlfq: mlfq.b };
    console.log(`fair-http B latencies (ms): ${JSON.stringify(figures)}`);
    const bound = Math.min(3000, piscina.b.serverP95 / 2);
    expect(fair.b.serverP95).toBeLessThanOrEqual(bound);
    expect(mlfq.b.serverP95).toBeLessThanOrEqual(bound);
    // Piscina is over the bound the others meet: its B waits behind A's whole queue.
    expect(piscina.b.serverP95).toBeGreaterThan(2 * Math.max(fair.b.serverP95, mlfq.b.serverP95));
  }, 120_000);

  it('with --max-live-per-tenant, the flooding tenant is told 429 and the other is served', async () => {
    const { url, child } = await startService(['--max-live-per-tenant', '4']);
    const get = async (tenant: string) => {
      const res = await fetch(`${url}/work?tenant=${tenant}&ms=30`);
      return { status: res.status, body: (await res.json()) as { error?: string } };
    };
    // 12 of A's requests at once: 4 are taken, the rest refused at once (nothing has ended yet).
    const flood = Array.from({ length: 12 }, () => get('a'));
    const b = await get('b');
    const statuses = (await Promise.all(flood)).map((r) => r.status);
    expect(b.status).toBe(200);
    expect(statuses.filter((s) => s === 200).length).toBeGreaterThanOrEqual(4);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThan(0);
    expect(statuses.every((s) => s === 200 || s === 429)).toBe(true);
    expect((await get('a')).status).toBe(200); // A's earlier ones ended: it is served again
    child.kill('SIGTERM');
    await once(child, 'exit');
  }, 60_000);
});
