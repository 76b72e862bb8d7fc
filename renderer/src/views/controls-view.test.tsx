// Each knob's label states the range the engine accepts (shared/config.ts), not the input's steps.
import { describe, expect, it } from 'vitest';
import { DEFAULT_ENGINE_CONFIG } from '../../../shared/config.ts';
import { renderStatic } from '../testing.tsx';
import { ControlsView } from './controls-view.tsx';

/** The range a knob's label states. */
function rangeOf(html: string, key: string): string | undefined {
  const label = html.slice(html.indexOf(`<label for="field-${key}"`));
  return /<span class="range">([^<]*)<\/span>/.exec(label)?.[1];
}

describe('the Controls view’s ranges', () => {
  const html = renderStatic(<ControlsView />, {
    state: { status: 'open', config: DEFAULT_ENGINE_CONFIG, policy: 'mlfq' },
  });

  it('the level time multiplier takes any value above 1, as the engine does (1.05 too)', () => {
    expect(rangeOf(html, 'levelTimeMultiplier')).toBe('&gt; 1 – 16');
  });

  it('a knob whose least value is allowed states it as is', () => {
    expect(rangeOf(html, 'quantumMs')).toBe('0.01 – 600000');
  });
});
