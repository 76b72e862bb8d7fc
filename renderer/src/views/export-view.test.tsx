// The Export view's time windows are radios drawn as chips: a keyboard user must reach and pick
// them (Tab, arrows), so the input is hidden only visually, and the chip shows where focus is.
// That part is styles.css (`.chip input`), which unit tests cannot see: vitest hands them CSS
// as empty text and there is no DOM; here, that the radios are there, grouped and named.
import { describe, expect, it } from 'vitest';
import { renderStatic } from '../testing.tsx';
import { ExportView } from './export-view.tsx';

describe('the Export view’s time windows', () => {
  it('are four radios in one named group, each named by its chip’s text', () => {
    const html = renderStatic(<ExportView />);
    expect(html).toContain('role="radiogroup" aria-label="trace window"');
    const radios = [
      ...html.matchAll(/<label[^>]*class="chip[^"]*"><input type="radio"[^>]*>([^<]*)</g),
    ];
    expect(radios.map((m) => m[1])).toEqual([
      'visible Gantt window',
      'last 5 s',
      'last 30 s',
      'everything retained',
    ]);
  });
});
