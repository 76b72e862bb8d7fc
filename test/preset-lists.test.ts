// The renderer may not import the engine, so it keeps its own list of presets (shown before the
// host answers) and of the graph ones (whose compare columns take graph policies). This test keeps
// those lists true to the engine's presets.
import { describe, expect, it } from 'vitest';
import { PRESET_NAMES, loadPreset } from '../engine/core/workload/presets/index.ts';
import { DEFAULT_PRESETS, GRAPH_PRESETS } from '../renderer/src/store/app-store.ts';

describe("the renderer's preset lists", () => {
  it('name every engine preset, and exactly the graph ones as graphs', () => {
    expect([...DEFAULT_PRESETS].sort()).toEqual([...PRESET_NAMES].sort());
    const graphs = PRESET_NAMES.filter((name) => loadPreset(name).graph !== undefined);
    expect([...GRAPH_PRESETS].sort()).toEqual(graphs.sort());
  });
});
