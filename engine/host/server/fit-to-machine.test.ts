import { describe, expect, it } from 'vitest';
import { parseWorkload } from '../../../shared/workload.ts';
import { loadPreset } from '../../core/workload/presets/index.ts';
import { ThreadsBackend } from '../../runtime/threads/index.ts';
import { Session } from '../session/index.ts';
import { fitToMachine } from './fit-to-machine.ts';
import { liveWorkloads } from './live-workloads.ts';

const preset = loadPreset('interactive-vs-scan');

describe('fitting a preset to the machine', () => {
  it('runs one worker per core and scales the offered work alike: slower arrivals, a smaller scan', () => {
    const { workload, note } = fitToMachine(preset, 2);
    expect(workload.threads).toMatchObject({ workers: 2 });
    const [scan, interactive] = workload.classes!;
    expect(scan).toEqual({ ...preset.classes![0], tasks: 4 }); // arrives once: half the tasks
    expect(interactive!.arrival).toMatchObject({ kind: 'poisson', rate: 70, count: 1400 });
    expect(interactive!.work).toEqual(preset.classes![1]!.work);
    expect(note).toBe(
      'interactive-vs-scan asks for 4 workers; this machine has 2 cores: ' +
        "running 2 workers with 50% of the preset's work",
    );
  });

  it('stretches a periodic arrival and leaves a preset that fits alone', () => {
    const doc = parseWorkload({
      name: 'p',
      config: { workers: 8 },
      classes: [
        {
          name: 'c',
          arrival: { kind: 'periodic', everyMs: 100, count: 5 },
          splits: { intermediate: 1 },
          work: { kernel: 'spin', totalMs: 1 },
        },
      ],
    });
    expect(fitToMachine(doc, 4).workload.classes![0]!.arrival).toMatchObject({ everyMs: 200 });
    expect(fitToMachine(preset, 4)).toEqual({ workload: preset, note: null });
    expect(fitToMachine(preset, 16).note).toBeNull();
  });

  it('the live app on threads starts the fitted preset and says so in the answer', async () => {
    const lines: string[] = [];
    const backend = new ThreadsBackend({ workers: 1 });
    const session = new Session({
      backend,
      workloads: liveWorkloads({ cores: 1, log: (l) => lines.push(l) }),
    });
    try {
      const result = await session.handleCommand({
        type: 'runPreset',
        preset: 'interactive-vs-scan',
      });
      expect(result).toMatchObject({
        ok: true,
        result: { fitted: expect.stringContaining('running 1 worker with') },
      });
      expect(session.executor.config.workers).toBe(1);
      expect(lines).toHaveLength(1);
    } finally {
      await session.close();
    }
  }, 20_000);
});
