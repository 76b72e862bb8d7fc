import { describe, expect, it } from 'vitest';
import { DEFAULT_ENGINE_CONFIG } from '../../../shared/config.ts';
import { parseWorkload } from '../../../shared/workload.ts';
import { checkTaskDriverLimits } from './driver-limits.ts';
import { drawJob } from './jobs.ts';
import { loadPreset } from './presets/index.ts';
import { createRng } from '../../../shared/lib/rng.ts';

const workload = (maxDriversPerTask: number) =>
  parseWorkload({
    classes: [
      {
        name: 'scan',
        arrival: { kind: 'once' },
        tasks: 2,
        splits: { leaf: 3 },
        work: { totalMs: 5 },
        maxDriversPerTask,
      },
    ],
  });

describe("a workload's per-task maxDriversPerTask (Trino's addTask)", () => {
  it("goes into every task of the class's jobs", () => {
    const job = drawJob(createRng(1), workload(2).classes![0]!);
    expect(job.tasks.map((t) => t.maxDriversPerTask)).toEqual([2, 2]);
  });

  it("is rejected above the engine's maxDriversPerTask, naming both", () => {
    const config = { ...DEFAULT_ENGINE_CONFIG, maxDriversPerTask: 8 };
    expect(() => checkTaskDriverLimits(workload(8), config)).not.toThrow();
    expect(() => checkTaskDriverLimits(workload(9), config)).toThrow(
      expect.objectContaining({
        code: 'INVALID_WORKLOAD',
        field: 'classes[0].maxDriversPerTask',
        message: "classes[0].maxDriversPerTask 9 must be <= the engine's maxDriversPerTask 8",
      }),
    );
    const trino = loadPreset('trino-overloaded');
    const specs = trino.trino!.specs.map((s, i) => (i === 1 ? { ...s, maxDriversPerTask: 9 } : s));
    expect(() =>
      checkTaskDriverLimits({ ...trino, trino: { ...trino.trino!, specs } }, config),
    ).toThrow(/trino\.specs\[1\]\.maxDriversPerTask 9 must be <= the engine's maxDriversPerTask 8/);
  });
});
