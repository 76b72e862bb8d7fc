// Plain BullMQ's processor for the cluster bench (bench/cluster.ts): spins `job.data.ms` of wall
// time on a worker thread (BullMQ's sandbox, `useWorkerThreads`), like a `spin` split.
export default async function spin(job) {
  const end = performance.now() + job.data.ms;
  let x = 0;
  while (performance.now() < end) x = (x * 31 + 7) | 0;
  return x;
}
