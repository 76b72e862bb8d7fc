/**
 * The random graphs the graph executors' property tests draw (fast-check): node order, edges,
 * costs, retries and which nodes fail, for `randomDag` (core/graph/random-dag.ts). Only tests
 * import this file, so fast-check never reaches compiled code.
 */
import fc from 'fast-check';

const MS = 1e6;

/** Graphs of 1 to `maxNodes` nodes; a node fails with probability 1/8 where a test keeps it. */
export function dagInput(maxNodes: number) {
  return fc.integer({ min: 1, max: maxNodes }).chain((n) =>
    fc.record({
      order: fc.shuffledSubarray([...Array(n).keys()], { minLength: n, maxLength: n }),
      pairs: fc.array(fc.tuple(fc.nat(n - 1), fc.nat(n - 1)), { maxLength: 3 * n }),
      costs: fc.array(
        fc.integer({ min: 0, max: 20 }).map((ms) => ms * MS),
        { minLength: n, maxLength: n },
      ),
      retries: fc.array(fc.integer({ min: 0, max: 2 }), { minLength: n, maxLength: n }),
      failProbability: fc.array(
        fc.integer({ min: 0, max: 7 }).map((k) => (k === 0 ? 1 : 0)),
        { minLength: n, maxLength: n },
      ),
    }),
  );
}
