import { describe, expect, it } from 'vitest';
import { syntheticFrame } from '../data/synthetic-frame.ts';
import { createAppStore } from './app-store.ts';

describe('app store reducers on frames', () => {
  it('mirrors the engine echo from the first frame', () => {
    const store = createAppStore();
    store
      .getState()
      .applyFrame(
        syntheticFrame({ seq: 1, timeMs: 100, workers: 3, config: { levelTimeMultiplier: 3 } }),
      );
    const s = store.getState();
    expect(s.config?.levelTimeMultiplier).toBe(3);
    expect(s.workerCount).toBe(3);
    expect(s.policy).toBe('mlfq');
  });

  it('mirrors the sim’s pacing when the host reports it', () => {
    const store = createAppStore();
    store.getState().applyFrame(syntheticFrame({ seq: 1, timeMs: 100 }));
    expect(store.getState().speed).toBeNull();
    store.getState().applyFrame({ ...syntheticFrame({ seq: 2, timeMs: 200 }), speed: 'max' });
    expect(store.getState().speed).toBe('max');
  });

  it('does not notify subscribers for frames whose metadata did not change', () => {
    const store = createAppStore();
    store.getState().applyFrame(syntheticFrame({ seq: 1, timeMs: 100 }));
    let notified = 0;
    store.subscribe(() => notified++);
    for (let seq = 2; seq < 50; seq++)
      store.getState().applyFrame(syntheticFrame({ seq, timeMs: seq * 100 }));
    expect(notified).toBe(0);
  });

  it('updates when the engine echoes a new config, policy or pause state', () => {
    const store = createAppStore();
    store.getState().applyFrame(syntheticFrame({ seq: 1, timeMs: 100 }));
    const before = store.getState().config;
    store.getState().applyFrame(
      syntheticFrame({
        seq: 2,
        timeMs: 200,
        config: { levelTimeMultiplier: 4, policy: 'fifo' },
        paused: true,
      }),
    );
    const s = store.getState();
    expect(s.config).not.toBe(before);
    expect(s.config?.levelTimeMultiplier).toBe(4);
    expect(s.policy).toBe('fifo');
    expect(s.paused).toBe(true);
  });

  it('mirrors the graph-run choices when the host reports them', () => {
    const store = createAppStore();
    const graphConfig = {
      graphPolicy: 'critical-path' as const,
      executor: null,
      graphErrorMode: null,
    };
    store.getState().applyFrame({ ...syntheticFrame({ seq: 1, timeMs: 1 }), graphConfig });
    expect(store.getState().graphConfig).toEqual(graphConfig);
    let notified = 0;
    store.subscribe(() => notified++);
    store
      .getState()
      .applyFrame({ ...syntheticFrame({ seq: 2, timeMs: 2 }), graphConfig: { ...graphConfig } });
    expect(notified).toBe(0);
  });

  it('applies a snapshot: policies, echo, and marks the UI as synced', () => {
    const store = createAppStore();
    const frame = syntheticFrame({ seq: 9, timeMs: 900 });
    store.getState().applySnapshot({
      type: 'snapshot',
      frame,
      spans: frame.spans,
      events: [],
      policies: ['fifo', 'mlfq'],
      frameHz: 10,
    });
    expect(store.getState().hasSnapshot).toBe(true);
    expect(store.getState().policies).toEqual(['fifo', 'mlfq']);
  });

  it('keeps field errors per field and clears them', () => {
    const store = createAppStore();
    store.getState().setFieldError('levelTimeMultiplier', 'levelTimeMultiplier must be > 1');
    expect(store.getState().fieldErrors).toEqual({
      levelTimeMultiplier: 'levelTimeMultiplier must be > 1',
    });
    store.getState().setFieldError('levelTimeMultiplier', null);
    expect(store.getState().fieldErrors).toEqual({});
  });

  it('selects one job at a time, and a repeated selection notifies no one', () => {
    const store = createAppStore();
    let changes = 0;
    store.subscribe(() => changes++);
    store.getState().selectJob(7);
    store.getState().selectJob(7);
    expect(store.getState().selectedJob).toBe(7);
    expect(changes).toBe(1);
    store.getState().selectJob(null);
    expect(store.getState().selectedJob).toBeNull();
  });
});

describe('app store: the selected time range', () => {
  it('brushing a range stops following; the live button (range null) follows again', () => {
    const store = createAppStore();
    expect(store.getState()).toMatchObject({ follow: true, range: null });
    store.getState().setRange({ fromMs: 1000, toMs: 4000 });
    expect(store.getState()).toMatchObject({
      follow: false,
      range: { fromMs: 1000, toMs: 4000 },
    });
    store.getState().setRange(null);
    expect(store.getState()).toMatchObject({ follow: true, range: null });
  });

  it('turning follow back on (the f key, the Gantt button) drops the range', () => {
    const store = createAppStore();
    store.getState().setRange({ fromMs: 0, toMs: 10 });
    store.getState().setFollow(true);
    expect(store.getState().range).toBeNull();
    // Panning the Gantt (follow off) keeps a range selected.
    store.getState().setRange({ fromMs: 0, toMs: 10 });
    store.getState().setFollow(false);
    expect(store.getState().range).toEqual({ fromMs: 0, toMs: 10 });
  });
});
