// Paths the CLI reads or writes that are not regular files: a FIFO blocked the command for good
// (as `cat` does), /dev/zero was read up to the byte limit. Each runs in a child process with a
// timeout, since a blocking open stops the whole thread: a hang fails the test, it does not stall it.
import { execFile, execFileSync } from 'node:child_process';
import {
  closeSync,
  constants,
  createReadStream,
  existsSync,
  mkdtempSync,
  openSync,
  rmSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { tmpFile, TINY_WORKLOAD } from './cli-testing.ts';

const bin = fileURLToPath(new URL('../../bin/schedlab.js', import.meta.url));
const root = mkdtempSync(join(tmpdir(), 'schedlab-special-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** `schedlab argv…` as a process, killed after 30 s (a hang reads as `code: null`). */
function schedlab(argv: string[]): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [bin, ...argv], { timeout: 30_000 }, (e, out, err) =>
      resolve({ code: e === null ? 0 : typeof e.code === 'number' ? e.code : null, out, err }),
    );
  });
}

function fifo(name: string): string {
  const path = join(root, name);
  execFileSync('mkfifo', [path]);
  return path;
}

async function untilOpens(path: string): Promise<number> {
  for (;;) {
    try {
      return openSync(path, constants.O_WRONLY | constants.O_NONBLOCK);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENXIO') throw e;
      await new Promise((r) => setImmediate(r));
    }
  }
}

const hasFifos = process.platform !== 'win32';

describe.runIf(hasFifos)('files that are not regular files', () => {
  it('a FIFO as the workload is refused at once, unread, naming it (it blocked for good)', async () => {
    const path = fifo('workload.fifo');
    const r = await schedlab(['run', path, '--json']);
    expect(r.code).toBe(2);
    expect(r.err).toBe(
      `schedlab: workload ${path}: is a FIFO (named pipe), not a regular file (INVALID_USAGE)\n`,
    );
    expect(JSON.parse(r.out)).toMatchObject({
      error: { code: 'INVALID_USAGE', field: 'workload' },
    });
  }, 60_000);

  it('a FIFO as a compare --config is refused the same way', async () => {
    const path = fifo('config.fifo');
    const r = await schedlab([
      'compare',
      'interactive-vs-scan',
      '--config',
      path,
      '--policy',
      'fifo',
    ]);
    expect(r.code).toBe(2);
    expect(r.err).toContain(`--config ${path}: is a FIFO (named pipe), not a regular file`);
  }, 60_000);

  it('/dev/zero is refused as a device, before a byte is read', async () => {
    if (!existsSync('/dev/zero')) return;
    const r = await schedlab(['run', '/dev/zero']);
    expect(r.code).toBe(2);
    expect(r.err).toContain('workload /dev/zero: is a character device, not a regular file');
  }, 60_000);

  it('a --trace FIFO nobody reads is refused before the run (it blocked for good at the end)', async () => {
    const path = fifo('trace-unread.fifo');
    const workload = tmpFile('tiny.json', TINY_WORKLOAD);
    const r = await schedlab(['run', workload, '--trace', path]);
    expect(r.code).toBe(2);
    expect(r.err).toContain(`--trace ${path}: is a FIFO that nobody reads`);
    expect(r.out).toBe('');
  }, 60_000);

  it('a --trace FIFO with a reader gets the trace (--trace >(gzip > t.json.gz))', async () => {
    const path = fifo('trace-read.fifo');
    const chunks: Buffer[] = [];
    const read = new Promise<string>((resolve, reject) => {
      createReadStream(path)
        .on('data', (c) => chunks.push(c as Buffer))
        .on('end', () => resolve(Buffer.concat(chunks).toString('utf8')))
        .on('error', reject);
    });
    // The reader's open runs in the thread pool: a writer's non-blocking open fails (ENXIO)
    // until it is there. This writer stays open while the run writes, so the reader sees the
    // end only when both have closed.
    const writer = await untilOpens(path);
    const workload = tmpFile('tiny.json', TINY_WORKLOAD);
    const r = await schedlab(['run', workload, '--trace', path]);
    closeSync(writer);
    expect(r.code, r.err).toBe(0);
    const trace = JSON.parse(await read) as { traceEvents: unknown[] };
    expect(trace.traceEvents.length).toBeGreaterThan(0);
  }, 60_000);
});
