// The app's backend switch (`setBackend`): like a preset switch, `cancel` leaves nothing of the
// old backend's work and switches at once, `drain` lets the old jobs finish first; clients are
// told to start over (a fresh snapshot) and frames name the backend running.
import { describe, expect, it } from 'vitest';
import type { Frame } from '../../../shared/protocol.ts';
import { Session } from '../session/index.ts';
import { startLiveSession, type LiveSession } from './live-session.ts';

const PRESET = 'batch-service';

function resets(live: LiveSession): { count: number; next: Promise<void> } {
  const state = { count: 0, next: Promise.resolve() };
  let resolve = () => {};
  const arm = () => (state.next = new Promise<void>((r) => (resolve = r)));
  arm();
  live.onReset(() => {
    state.count++;
    resolve();
    arm();
  });
  return state;
}

describe('setBackend', () => {
  it('cancel: the old jobs are cancelled, the new backend runs the preset, clients start over', async () => {
    const live = await startLiveSession({
      backend: 'threads',
      config: { workers: 1 },
      preset: PRESET,
    });
    try {
      const reset = resets(live);
      const old = live.session;
      await expect.poll(() => old.executor.counters.live, { timeout: 30_000 }).toBeGreaterThan(0);
      expect(live.snapshot().frame.backendName).toBe('threads');
      expect(live.snapshot().backends).toEqual(['threads', 'sim']);
      const r = await live.handleCommand({
        id: 4,
        type: 'setBackend',
        backend: 'sim',
        mode: 'cancel',
        seed: 3,
      });
      expect(r).toMatchObject({ ok: true, id: 4, backend: 'sim', mode: 'cancel' });
      expect(r.ok && r['cancelled']).toBeGreaterThan(0);
      // Nothing of the old workload is live; the old session is closed.
      expect(old.executor.counters.live).toBe(0);
      expect(old.running).toBe(false);
      expect(reset.count).toBe(1);
      expect(live.session).not.toBe(old);
      expect(live.backendName).toBe('sim');
      const snap = live.snapshot();
      expect(snap.frame).toMatchObject({ backend: 'sim', backendName: 'sim' });
      expect(snap.frame.backendSwitch).toBeUndefined();
      // Frames keep reaching the host's listeners, now from the sim, running the same preset.
      const frame = await new Promise<Frame>((resolve) => {
        const off = live.onFrame((f) => {
          off();
          resolve(f);
        });
      });
      expect(frame).toMatchObject({ backend: 'sim', backendName: 'sim' });
      await expect.poll(() => live.session.executor.counters.submitted).toBeGreaterThan(0);
      expect(live.session.executor.config.aging).toBe(true); // batch-service's knobs
    } finally {
      await live.close();
    }
  }, 60_000);

  it('drain: frames say a switch waits for the old jobs, which finish before it happens', async () => {
    const live = await startLiveSession({ backend: 'sim', seed: 5, preset: PRESET });
    try {
      const reset = resets(live);
      const old = live.session;
      old.stop(); // stepped by hand below
      old.advance(2_000);
      const liveJobs = old.executor.counters.live;
      expect(liveJobs).toBeGreaterThan(0);
      const r = await live.handleCommand({
        type: 'setBackend',
        backend: 'sim',
        mode: 'drain',
        seed: 6,
      });
      expect(r).toEqual({ ok: true, backend: 'sim', mode: 'drain', draining: liveJobs });
      const submitted = old.executor.counters.submitted;
      const switched = reset.next;
      const seen: Frame[] = [];
      const off = live.onFrame((f) => seen.push(f));
      for (let i = 0; i < 600 && reset.count === 0; i++) {
        old.advance(1_000);
        await new Promise((resolve) => setImmediate(resolve));
      }
      off();
      await switched;
      const draining = seen.filter((f) => f.backendSwitch !== undefined);
      expect(draining.length).toBeGreaterThan(0);
      expect(draining[0]!.backendSwitch).toEqual({ to: 'sim', live: draining[0]!.counters.live });
      // The old jobs all ended, none cancelled, and no new one arrived while draining.
      expect(old.executor.counters).toMatchObject({ live: 0, cancelled: 0, submitted });
      expect(live.session).not.toBe(old);
    } finally {
      await live.close();
    }
  }, 60_000);

  it('drain: a workload started while draining drops the switch', async () => {
    const live = await startLiveSession({ backend: 'sim', seed: 5, preset: PRESET });
    try {
      const old = live.session;
      old.stop();
      old.advance(2_000);
      await live.handleCommand({ type: 'setBackend', backend: 'sim', mode: 'drain' });
      expect(live.snapshot().frame.backendSwitch).toMatchObject({ to: 'sim' });
      expect(await live.handleCommand({ type: 'runPreset', preset: PRESET })).toMatchObject({
        ok: true,
      });
      expect(live.snapshot().frame.backendSwitch).toBeUndefined();
      const frames = old.advance(3_000);
      expect(frames.every((f) => f.backendSwitch === undefined)).toBe(true);
      expect(frames.flatMap((f) => f.events).map((e) => e.detail)).toContain(
        'switch to sim dropped: a workload started',
      );
      expect(live.session).toBe(old);
    } finally {
      await live.close();
    }
  });

  it('refuses what it cannot do, naming the field', async () => {
    const live = await startLiveSession({ backend: 'sim', preset: null });
    try {
      const error = async (command: object) => {
        const r = await live.handleCommand({ type: 'setBackend', ...command });
        return r.ok ? null : r.error;
      };
      expect(await error({ backend: 'cluster', mode: 'cancel' })).toMatchObject({
        code: 'INVALID_ARGUMENT',
        field: 'backend',
      });
      expect(await error({ backend: 'threads', mode: 'cancel', speed: 2 })).toMatchObject({
        code: 'INVALID_ARGUMENT',
        field: 'speed',
      });
      expect(await error({ backend: 'sim', mode: 'later' })).toMatchObject({
        code: 'BAD_MESSAGE',
        field: 'mode',
      });
      expect(await error({ backend: 'gpu', mode: 'cancel' })).toMatchObject({
        code: 'BAD_MESSAGE',
        field: 'backend',
      });
      // A plain engine session (the CLI, a library console) has one backend.
      const plain = new Session();
      const r = await plain.handleCommand({
        type: 'setBackend',
        backend: 'threads',
        mode: 'drain',
      });
      expect(r).toMatchObject({ ok: false, error: { code: 'INVALID_ARGUMENT', field: 'backend' } });
      await plain.close();
    } finally {
      await live.close();
    }
  });
});
