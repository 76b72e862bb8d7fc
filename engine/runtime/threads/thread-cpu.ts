/**
 * The CPU time of the calling thread, for CPU time next to wall time per quantum. Node has no
 * per-thread CPU clock before v23 (`process.cpuUsage()` is the whole process's), so this reads
 * Linux's `/proc/thread-self/schedstat`, whose first field is the time the thread has spent on a
 * CPU (ns). The file is opened once and read in place (≈ 5–15 µs a read; two reads a quantum).
 * For a thread that is running, the kernel brings that figure up to date only at its scheduler
 * ticks (and when the thread sleeps), so a read can lag by up to a tick (4 ms at HZ = 250): a
 * quantum's CPU time is accurate to about a tick, and never reported above its wall time.
 * Elsewhere (macOS, Windows, a kernel without schedstat) there is no clock and no CPU time.
 */
import { openSync, readSync } from 'node:fs';

const ZERO = 0x30;
const NINE = 0x39;

/** A reader of this thread's CPU time (ns), or null where the platform has none. */
export function threadCpuClock(): (() => number) | null {
  let fd: number;
  try {
    // /proc/thread-self resolves to this thread when opened: the descriptor stays bound to it.
    fd = openSync('/proc/thread-self/schedstat', 'r');
  } catch {
    return null;
  }
  const buf = Buffer.alloc(64);
  const read = (): number => {
    const n = readSync(fd, buf, 0, buf.length, 0);
    let nanos = 0;
    for (let i = 0; i < n; i++) {
      const c = buf[i]!;
      if (c < ZERO || c > NINE) break;
      nanos = nanos * 10 + (c - ZERO);
    }
    return nanos;
  };
  try {
    read();
  } catch {
    return null;
  }
  return read;
}
