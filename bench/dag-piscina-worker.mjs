// Piscina baseline for bench/dag.ts: one task per graph node, the same tiny integer kernel as the
// work-stealing executor's `add` (engine/runtime/stealing/kernels.ts).
export default function add(node) {
  return (Math.imul(node, 0x9e3779b1) + 12345) ^ (node >>> 3);
}
