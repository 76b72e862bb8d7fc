// A switch to the cluster whose Redis does not answer: the running session is left as it was
// (its jobs, its preset), and the answer says why within a few seconds. Before, the old jobs were
// cancelled first, then the switch waited 30 s in silence and failed, leaving nothing running.
import { describe, expect, it } from 'vitest';
import { freePort } from '../../../test/redis-server.ts';
import { startLiveSession } from './live-session.ts';

describe('setBackend cluster with Redis away', () => {
  it('cancel: nothing of the running session is touched; CLUSTER_UNAVAILABLE names the URL, not its password', async () => {
    const port = await freePort();
    const live = await startLiveSession({
      backend: 'threads',
      config: { workers: 1 },
      preset: 'batch-service',
      redis: `redis://:hunter2@127.0.0.1:${port}`,
    });
    try {
      const old = live.session;
      await expect.poll(() => old.executor.counters.live, { timeout: 30_000 }).toBeGreaterThan(0);
      const started = Date.now();
      const r = await live.handleCommand({
        id: 7,
        type: 'setBackend',
        backend: 'cluster',
        mode: 'cancel',
      });
      // Its bound is 5 s; before, the 30 s wait for a node came first. Loose: a busy machine is
      // no failure, only the old wait must be gone.
      expect(Date.now() - started).toBeLessThan(25_000);
      expect(r).toMatchObject({ ok: false, id: 7, error: { code: 'CLUSTER_UNAVAILABLE' } });
      const message = r.ok ? '' : r.error.message;
      expect(message).toContain(`127.0.0.1:${port}`);
      expect(message).not.toContain('hunter2');
      // The same session runs on, its jobs not cancelled and its preset still arriving.
      expect(live.session).toBe(old);
      expect(live.backendName).toBe('threads');
      expect(old.running).toBe(true);
      expect(old.executor.counters.cancelled).toBe(0);
      const submitted = old.executor.counters.submitted;
      await expect
        .poll(() => old.executor.counters.submitted, { timeout: 30_000 })
        .toBeGreaterThan(submitted);
      // A drain is refused the same way, its arrivals left running.
      const d = await live.handleCommand({ type: 'setBackend', backend: 'cluster', mode: 'drain' });
      expect(d).toMatchObject({ ok: false, error: { code: 'CLUSTER_UNAVAILABLE' } });
      expect(live.snapshot().frame.backendSwitch).toBeUndefined();
      expect(old.executor.counters.cancelled).toBe(0);
    } finally {
      await live.close();
    }
  }, 90_000);
});
