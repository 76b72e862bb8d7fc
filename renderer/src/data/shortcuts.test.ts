import { describe, expect, it } from 'vitest';
import { shortcutOf, type FocusTarget } from './shortcuts.ts';

/** A focused element as the keydown sees it: its tag, its role, whether it is editable. */
function el(tagName: string, attrs: Record<string, string> = {}, editable = false): FocusTarget {
  return { tagName, isContentEditable: editable, getAttribute: (n) => attrs[n] ?? null };
}

describe('keyboard shortcuts', () => {
  it('space pauses when the focus is on no control (the page, a panel)', () => {
    expect(shortcutOf(' ', el('BODY'))).toEqual({ kind: 'pause' });
    expect(shortcutOf(' ', el('DIV'))).toEqual({ kind: 'pause' });
    expect(shortcutOf(' ', null)).toEqual({ kind: 'pause' });
  });

  it('space on a focused button, tab, link or summary presses it instead of pausing', () => {
    for (const target of [
      el('BUTTON'),
      el('BUTTON', { role: 'tab' }),
      el('A', { href: '#' }),
      el('SUMMARY'),
      el('SPAN', { role: 'button' }),
      el('DIV', { role: 'tab' }),
    ]) {
      expect(shortcutOf(' ', target), target.tagName).toBeNull();
    }
  });

  it('space in any input (a radio, a checkbox, a slider, text) or editable text is the field’s', () => {
    for (const type of ['radio', 'checkbox', 'range', 'text']) {
      expect(shortcutOf(' ', el('INPUT', { type }))).toBeNull();
    }
    expect(shortcutOf(' ', el('SELECT'))).toBeNull();
    expect(shortcutOf(' ', el('DIV', {}, true))).toBeNull();
  });

  it('the other shortcuts work with a button focused, never while typing', () => {
    expect(shortcutOf('f', el('BUTTON'))).toEqual({ kind: 'follow' });
    expect(shortcutOf('2', el('BUTTON', { role: 'tab' }))).toEqual({ kind: 'view', index: 1 });
    expect(shortcutOf('/', el('BODY'))).toEqual({ kind: 'search' });
    expect(shortcutOf('+', el('BODY'))).toEqual({ kind: 'zoom', factor: 1 / 1.5 });
    expect(shortcutOf('f', el('INPUT', { type: 'search' }))).toBeNull();
    expect(shortcutOf('x', el('BODY'))).toBeNull();
  });
});
