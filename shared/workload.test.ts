import { describe, expect, it } from 'vitest';
import { SchedLabError } from './errors.ts';
import { parseWorkload } from './workload.ts';

const klass = (over: Record<string, unknown> = {}) => ({
  name: 'q',
  arrival: { kind: 'once' },
  splits: { leaf: 2 },
  work: { totalMs: 10 },
  ...over,
});

function errorOf(input: unknown): SchedLabError {
  try {
    parseWorkload(input);
  } catch (e) {
    if (e instanceof SchedLabError) return e;
    throw e;
  }
  throw new Error('expected the workload to be rejected');
}

describe('workload schema', () => {
  it('fills defaults and accepts a bare number as a fixed distribution', () => {
    const w = parseWorkload({ seed: 3, classes: [klass()] });
    expect(w.classes?.[0]).toMatchObject({
      tasks: 1,
      basePriority: 50,
      retries: 0,
      splits: { leaf: 2, intermediate: 0 },
      work: { kernel: 'spin', totalMs: { kind: 'fixed', ms: 10 } },
    });
    expect(w.timeScale).toBe(1);
  });

  it('names the exact field of a bad Poisson rate', () => {
    const e = errorOf({
      durationMs: 1000,
      classes: [klass(), klass({ name: 'b', arrival: { kind: 'poisson', rate: 0 } })],
    });
    expect(e.code).toBe('INVALID_WORKLOAD');
    expect(e.message).toBe('classes[1].arrival.rate must be > 0');
    expect(e.field).toBe('classes[1].arrival.rate');
  });

  it('names bad priorities, kinds, kernels and unknown fields', () => {
    expect(errorOf({ classes: [klass({ basePriority: 101 })] }).message).toBe(
      'classes[0].basePriority must be <= 100',
    );
    expect(errorOf({ classes: [klass({ arrival: { kind: 'daily' } })] }).message).toBe(
      'classes[0].arrival.kind must be one of once, periodic, poisson',
    );
    expect(errorOf({ classes: [klass({ work: { totalMs: 1, kernel: 'nope' } })] }).message).toMatch(
      /^classes\[0\]\.work\.kernel must be one of hash, sort/,
    );
    expect(errorOf({ classes: [klass({ colour: 'red' })] }).message).toBe(
      'classes[0] has unknown field colour',
    );
    expect(errorOf({ classes: [klass({ work: {} })] }).message).toBe(
      'classes[0].work needs exactly one of totalMs or generator',
    );
  });

  it('bounds every time and length of work, naming the field as written', () => {
    // 1e303 ms used to pass, then overflow to Infinity ns when a job was drawn mid-run.
    const cases: [Record<string, unknown>, string][] = [
      [
        { classes: [klass({ work: { totalMs: 1e303 } })] },
        'classes[0].work.totalMs must be <= 86400000',
      ],
      [{ classes: [klass({ work: { totalMs: -1 } })] }, 'classes[0].work.totalMs must be >= 0'],
      [
        {
          classes: [
            klass({ work: { totalMs: 1, perCallMs: { kind: 'exponential', meanMs: 1e12 } } }),
          ],
        },
        'classes[0].work.perCallMs.meanMs must be <= 86400000',
      ],
      [
        { classes: [klass({ work: { totalMs: 'long' } })] },
        'classes[0].work.totalMs must be a number of ms from 0 to 86400000 or a distribution object',
      ],
      [
        { classes: [klass({ work: { generator: { simple: { totalMs: 1e20, perCallMs: 1 } } } })] },
        'classes[0].work.generator.simple.totalMs must be <= 86400000',
      ],
      [{ durationMs: 1e303, classes: [klass()] }, 'durationMs must be <= 8640000000'],
      [
        { classes: [klass({ arrival: { kind: 'once', atMs: 1e300 } })] },
        'classes[0].arrival.atMs must be <= 8640000000',
      ],
    ];
    for (const [input, message] of cases) expect(errorOf(input).message).toBe(message);
  });

  it('requires an end for open-ended arrivals and known specs on the timeline', () => {
    expect(
      errorOf({ classes: [klass({ arrival: { kind: 'periodic', everyMs: 5 } })] }).message,
    ).toBe('classes[0].arrival.count is required when durationMs is not set');
    const trino = {
      durationMs: 1000,
      trino: {
        specs: [
          { name: 'a', type: 'leaf', concurrentTasks: 1, splitsPerTask: 1, generator: 'fast-leaf' },
        ],
        timeline: [{ atMs: 0, action: 'enable', spec: 'b' }],
      },
    };
    expect(errorOf(trino).message).toBe('trino.timeline[0].spec names no spec "b"');
    expect(errorOf({}).message).toBe('classes needs classes, trino or graph');
    expect(errorOf({ graph: { generator: 'chain', length: 3 }, classes: [klass()] }).field).toBe(
      'graph',
    );
  });

  it('a wrong-typed value says what was expected; only a missing one "is required"', () => {
    expect(errorOf({ classes: [klass({ tasks: 1.5 })] }).message).toBe(
      'classes[0].tasks must be an integer',
    );
    expect(errorOf({ classes: [klass({ basePriority: 'x' })] }).message).toBe(
      'classes[0].basePriority must be a number',
    );
    expect(errorOf({ seed: 'abc', classes: [klass()] }).message).toBe('seed must be a number');
    // The PRNG takes 32 bits: 2^32 drew the same run as 0.
    expect(errorOf({ seed: 2 ** 32, classes: [klass()] }).message).toBe(
      'seed must be <= 4294967295',
    );
    expect(errorOf({ classes: [klass({ work: { totalMs: 'ten' } })] }).message).toBe(
      'classes[0].work.totalMs must be a number of ms from 0 to 86400000 or a distribution object',
    );
    expect(errorOf({ classes: [klass({ arrival: 'daily' })] }).message).toBe(
      'classes[0].arrival must be an object',
    );
    expect(errorOf({ classes: [klass({ splits: null })] }).message).toBe(
      'classes[0].splits must be an object',
    );
    const { name: _name, ...nameless } = klass();
    expect(errorOf({ classes: [nameless] }).message).toBe('classes[0].name is required');
    expect(errorOf({ classes: [klass({ work: { totalMs: { kind: 'fixed' } } })] }).message).toBe(
      'classes[0].work.totalMs.ms is required',
    );
  });
});
