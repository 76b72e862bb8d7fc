/**
 * The threads backend's clock: integer nanoseconds of the process-wide monotonic clock, counted
 * from an origin the pool picks once. `process.hrtime` reads the same clock in every thread, so a
 * worker that gets the origin stamps its quanta in the backend's own time.
 */
export function originNow(): bigint {
  return process.hrtime.bigint();
}

export function nanosSince(origin: bigint): number {
  return Number(process.hrtime.bigint() - origin);
}
