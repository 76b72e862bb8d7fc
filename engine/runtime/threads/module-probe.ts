/**
 * Checks, before a run starts, that a user module loads and has its export (docs/design.md §4): in a
 * throwaway worker with a time limit, so a missing file, a syntax error or a missing export is a
 * coded error up front rather than every job failing later, and a module whose top-level code
 * never finishes cannot hang the host.
 */
import { Worker } from 'node:worker_threads';
import { pathToFileURL } from 'node:url';
import { COMPILED } from '../compiled.ts';

const PROBE = new URL('./module-probe.mjs', import.meta.url);

/** Resolves null when `path` loads and exports a function `exportName`, else the reason. */
export function probeModule(
  path: string,
  exportName: string,
  timeoutMs = 10_000,
): Promise<string | null> {
  return new Promise((resolve) => {
    const worker = new Worker(PROBE, {
      workerData: { url: pathToFileURL(path).href, exportName, tsx: !COMPILED },
      stdout: true,
      stderr: true,
    });
    const done = (reason: string | null) => {
      clearTimeout(timer);
      resolve(reason);
      void worker.terminate();
    };
    const timer = setTimeout(
      () => done(`did not finish loading within ${timeoutMs / 1000} s`),
      timeoutMs,
    );
    worker.once('message', (reason: string | null) => done(reason));
    worker.once('error', (e) => done(`cannot be loaded: ${e.message}`));
    worker.once('exit', (code) => done(`cannot be loaded: the worker exited (${code})`));
  });
}
