import { describe, expect, it } from 'vitest';
import { SimBackend } from '../sim/sim-backend.ts';
import { Executor } from './executor.ts';
import { MS, intermediates, oneTaskJob, simRig, spin } from './testing.ts';

/**
 * Plays a backend whose worker `down` is being replaced (the threads backend after a worker
 * died, waiting out its restart backoff): within the count, but neither idle nor running.
 */
class RespawningSim extends SimBackend {
  down = -1;
  override idleWorkers(): number[] {
    return super.idleWorkers().filter((w) => w !== this.down);
  }
  override firstIdleWorker(): number {
    return this.idleWorkers()[0] ?? -1;
  }
}

const states = (ex: Executor) => ex.workers().map((w) => `${w.id}:${w.state}`);

describe('worker rows', () => {
  it('a worker being replaced within the count is starting, not retiring, and gets no work', () => {
    const sim = new RespawningSim({ workers: 3 });
    sim.down = 1;
    const ex = new Executor(sim, { workers: 3, quantumMs: 10, policy: 'fifo' });
    expect(states(ex)).toEqual(['0:idle', '1:starting', '2:idle']);
    ex.submitJob(oneTaskJob('a', intermediates(3, spin(30))));
    expect(states(ex)).toEqual(['0:running', '1:starting', '2:running']);
    sim.down = -1; // replaced: it takes work at the next dispatch
    sim.runUntil(10 * MS);
    expect(states(ex)).toEqual(['0:running', '1:running', '2:running']);
  });

  it('after a shrink under load, a worker beyond the count finishing its quantum is retiring', () => {
    const { sim, ex } = simRig({ workers: 3, quantumMs: 10, policy: 'fifo' });
    ex.submitJob(oneTaskJob('a', intermediates(6, spin(30))));
    sim.runUntil(5 * MS);
    ex.setWorkers(1);
    expect(ex.workers().map((w) => [w.id, w.state, w.jobId])).toEqual([
      [0, 'running', 1],
      [1, 'retiring', 1],
      [2, 'retiring', 1],
    ]);
    sim.runUntil(10 * MS); // their quanta end: they leave the table
    expect(states(ex)).toEqual(['0:running']);
  });
});
