// The CPU work of one request: `ms` milliseconds of hashing-like arithmetic. Under SchedLab it
// checks `ctx.shouldYield()` and hands the worker back between quanta; Piscina passes no `ctx`,
// so there it runs to the end in one go (what a plain FIFO pool does with any task).
export default function work(input, ctx) {
  const start = performance.now();
  let left = input.ms;
  let acc = input.acc ?? 0;
  while (performance.now() - start < left) {
    for (let i = 0; i < 1000; i++) acc = (acc * 31 + i) % 1_000_003;
    if (ctx?.shouldYield()) {
      left -= performance.now() - start;
      return { yield: { ms: left, acc } };
    }
  }
  return acc;
}
