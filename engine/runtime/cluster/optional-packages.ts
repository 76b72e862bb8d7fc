/**
 * The cluster backend's packages, `bullmq` and `ioredis`, are optional peers of schedlab
 * (package.json): a service that imports `Scheduler` or runs on threads never loads them, and
 * whoever runs a cluster installs them. The modules that import them are loaded through here, so
 * a missing one is a coded error that says what to install, not Node's "Cannot find package".
 * This file imports neither.
 */
import { SchedLabError } from '../../../shared/errors.ts';

export const CLUSTER_PACKAGES = ['bullmq', 'ioredis'] as const;

/** `load()` (a dynamic import of a module that needs the cluster packages), or the error above. */
export async function loadClusterModule<T>(load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (e) {
    const missing = missingPackage(e, CLUSTER_PACKAGES);
    if (missing === null) throw e;
    throw new SchedLabError(
      'CLUSTER_UNAVAILABLE',
      `the cluster backend needs the packages ${CLUSTER_PACKAGES.join(' and ')}, optional peers of schedlab, and ${missing} is not installed: npm install ${CLUSTER_PACKAGES.join(' ')}`,
      'backend',
    );
  }
}

/** The package among `names` whose absence `e` reports (Node's ERR_MODULE_NOT_FOUND), or null. */
function missingPackage(e: unknown, names: readonly string[]): string | null {
  if ((e as { code?: unknown } | null)?.code !== 'ERR_MODULE_NOT_FOUND') return null;
  const named = /Cannot find package '([^']+)'/.exec((e as Error).message)?.[1];
  return named !== undefined && names.includes(named) ? named : null;
}
