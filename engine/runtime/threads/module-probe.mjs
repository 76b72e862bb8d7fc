// Loads one user module as a threads worker would (tsx registered) and says whether the named
// export is a function: null when it is, else the reason. Run in a throwaway worker by
// module-probe.ts, so a module's top-level code never runs in the host's own thread.
import { parentPort, workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
try {
  const ns = await import(workerData.url);
  parentPort.postMessage(
    typeof ns[workerData.exportName] === 'function'
      ? null
      : `has no function export ${workerData.exportName}`,
  );
} catch (e) {
  parentPort.postMessage(`cannot be loaded: ${e instanceof Error ? e.message : String(e)}`);
}
