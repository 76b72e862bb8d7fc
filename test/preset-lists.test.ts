// The renderer may not import the engine, so it learns the presets from the host's snapshot (shown
// on the Workloads view; the graph ones give compare columns graph policies). This test keeps
// what a browser-mode host sends, as the renderer's store reads it, true to the engine's presets.
import { afterEach, describe, expect, it } from 'vitest';
import { PRESET_NAMES, loadPreset } from '../engine/core/workload/presets/index.ts';
import { liveWorkloads } from '../engine/host/server/live-workloads.ts';
import { Session } from '../engine/host/session/index.ts';
import { createAppStore } from '../renderer/src/store/app-store.ts';

let session: Session | null = null;
afterEach(async () => {
  await session?.close();
  session = null;
});

describe("the renderer's preset lists", () => {
  it('are empty before the host answers, then name every engine preset and exactly the graph ones', () => {
    const store = createAppStore();
    expect(store.getState().presets).toEqual([]);
    session = new Session({ workloads: liveWorkloads({ loop: false }) });
    store.getState().applySnapshot(session.snapshot());
    expect([...store.getState().presets].sort()).toEqual([...PRESET_NAMES].sort());
    const graphs = PRESET_NAMES.filter((name) => loadPreset(name).graph !== undefined);
    expect(graphs.length).toBeGreaterThan(0);
    expect([...store.getState().graphPresets].sort()).toEqual(graphs.sort());
  });
});
