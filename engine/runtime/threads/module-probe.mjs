// Loads one user module as a threads worker would and says whether the named export is a
// function: null when it is, else the reason. Run in a throwaway worker by module-probe.ts, so a
// module's top-level code never runs in the host's own thread. A worker of the engine run as
// TypeScript has tsx registered (boot.mjs), a compiled one does not: the probe does the same, so
// it accepts exactly the modules the workers can load, and compiled code never needs tsx.
import { parentPort, workerData } from 'node:worker_threads';

if (workerData.tsx) (await import('tsx/esm/api')).register();
try {
  // Through a module re-exporting the namespace, as user-module.ts loads it: a namespace with a
  // `then` export is a thenable, which `import()` adopts, so it never settles.
  const source = `import * as ns from ${JSON.stringify(workerData.url)}; export { ns };`;
  const { ns } = await import(`data:text/javascript,${encodeURIComponent(source)}`);
  // As user-module.ts `exportOf`: a CommonJS module's `module.exports` (the namespace's default)
  // is searched too, where Node's named-export detection missed the function.
  const name = workerData.exportName;
  const cjs = typeof ns.default === 'object' && ns.default !== null ? ns.default : {};
  parentPort.postMessage(
    typeof ns[name] === 'function' || typeof cjs[name] === 'function'
      ? null
      : `has no function export ${workerData.exportName}`,
  );
} catch (e) {
  parentPort.postMessage(`cannot be loaded: ${e instanceof Error ? e.message : String(e)}`);
}
