/** What the CLI tests share: running `main` in memory, a scratch file, a small two-class workload. */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from './cli.ts';
import { memoryIo } from './io.ts';

/** Runs `schedlab <argv…>` in this process; stderr is a terminal when `errIsTty`. */
export async function runCli(
  argv: readonly string[],
  errIsTty = false,
): Promise<{ code: number; out: string; err: string }> {
  const io = memoryIo(errIsTty);
  const code = await main([...argv], io);
  return { code, ...io.text };
}

/** Writes `content` (JSON unless a string) to a fresh temporary folder; returns the path. */
export function tmpFile(name: string, content: unknown): string {
  const path = join(mkdtempSync(join(tmpdir(), 'schedlab-cli-')), name);
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
  return path;
}

/** Two classes: five periodic jobs of two leaf splits, and one job of four intermediate splits. */
export const TINY_WORKLOAD = {
  name: 'tiny',
  seed: 3,
  config: { workers: 2 },
  classes: [
    {
      name: 'a',
      arrival: { kind: 'periodic', everyMs: 10, count: 5 },
      splits: { leaf: 2 },
      work: { totalMs: 30 },
    },
    { name: 'b', arrival: { kind: 'once' }, splits: { intermediate: 4 }, work: { totalMs: 200 } },
  ],
};
