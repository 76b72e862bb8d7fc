// Plain BullMQ's processor for the cluster bench (bench/cluster.ts), run on a worker thread
// (BullMQ's sandbox, `useWorkerThreads`): it does the same computation as a `spin` split of
// `job.data.ms`, counted the way the threads backend counts it (engine/runtime/threads/
// unit-meter.ts): the same spin unit, sized to about 100 µs, each credited the time it took but
// at most 3× the fastest seen — so a loaded machine makes both sides do the same work, not the
// same wall time (a wall-time spin does less work the less CPU it gets).
const TARGET_UNIT_NANOS = 100_000;
const OUTLIER = 3;

function unit(size) {
  let x = size | 0;
  for (let i = 0; i < size; i++) x = (Math.imul(x, 1103515245) + 12345) | 0;
  return x;
}

const nanos = () => Number(process.hrtime.bigint());
let size = 1024;
let best = Infinity;

/** Grows the unit until one takes about the target (once per thread, as the lanes calibrate). */
function calibrate() {
  for (let tries = 0; tries < 40; tries++) {
    const t = nanos();
    unit(size);
    const took = Math.max(1, nanos() - t);
    if (took >= TARGET_UNIT_NANOS / 2 || size >= 1 << 30) {
      best = Math.min(best, took);
      return;
    }
    size = Math.min(1 << 30, Math.round(size * Math.min(16, TARGET_UNIT_NANOS / took)));
  }
}

export default async function spin(job) {
  if (best === Infinity) calibrate();
  const target = job.data.ms * 1e6;
  let done = 0;
  let x = 0;
  while (done < target) {
    const t = nanos();
    x ^= unit(size);
    const took = nanos() - t;
    if (took < best) best = took;
    done += Math.min(took, best * OUTLIER);
  }
  return x;
}
