// A knob's text field commits what the user typed, and nothing else: tabbing through Controls must
// not write each field's shown value back (another client's change would be reverted). The
// component holds no state of its own, so it is driven here by calling it as React would.
import type { FocusEvent, KeyboardEvent } from 'react';
import { describe, expect, it } from 'vitest';
import { CommitInput, CommitSlider } from './field-parts.tsx';

/** A field as its caller keeps it (draft text, whether it is being edited) and what it sent. */
function knobField(engineValue: string) {
  const state = { value: engineValue, editing: false };
  const committed: string[] = [];
  const input = () =>
    CommitInput({
      field: 'quantumMs',
      value: state.value,
      disabled: false,
      editing: state.editing,
      onEdit: (editing) => (state.editing = editing),
      onDraft: (text) => (state.value = text),
      onCommit: () => {
        committed.push(state.value);
        state.editing = false;
      },
      onCancel: () => (state.editing = false),
    }).props as {
      onFocus?: (e: FocusEvent) => void;
      onBlur: (e: FocusEvent) => void;
      onChange: (e: { target: { value: string } }) => void;
      onKeyDown: (e: Partial<KeyboardEvent>) => void;
    };
  const event = {} as FocusEvent;
  return {
    state,
    committed,
    focus: () => input().onFocus?.(event),
    blur: () => input().onBlur(event),
    type: (text: string) => input().onChange({ target: { value: text } }),
    key: (key: string) => input().onKeyDown({ key }),
  };
}

describe('a knob’s text field', () => {
  it('sends nothing when focused and left without typing (tabbing through Controls)', () => {
    const f = knobField('50');
    f.focus();
    f.blur();
    expect(f.committed).toEqual([]);
    // Not being edited, it is free to show the engine's value when that changes.
    expect(f.state.editing).toBe(false);
  });

  it('commits what the user typed, on leaving the field or on Enter', () => {
    const f = knobField('50');
    f.focus();
    f.type('20');
    f.blur();
    expect(f.committed).toEqual(['20']);
    f.focus();
    f.type('30');
    f.key('Enter');
    expect(f.committed).toEqual(['20', '30']);
  });

  it('Escape drops the edit, and leaving then sends nothing', () => {
    const f = knobField('50');
    f.focus();
    f.type('7');
    f.key('Escape');
    f.blur();
    expect(f.committed).toEqual([]);
  });
});

describe('the level time multiplier’s slider', () => {
  /** The slider at the engine's `value`; what it commits. */
  function slider(value: number) {
    const state = { value: String(value), moved: false };
    const committed: string[] = [];
    const input = () =>
      CommitSlider({
        field: 'levelTimeMultiplier',
        min: 1.1,
        max: 16,
        step: 0.1,
        value: Number(state.value),
        disabled: false,
        moved: state.moved,
        onMoved: (moved) => (state.moved = moved),
        onDraft: (text) => (state.value = text),
        onCommit: (text) => committed.push(text),
      }).props as {
        onChange: (e: { target: { value: string } }) => void;
        onKeyUp: (e: { currentTarget: { value: string } }) => void;
        onPointerUp: (e: { currentTarget: { value: string } }) => void;
      };
    const at = () => ({ currentTarget: { value: state.value } });
    return {
      committed,
      move: (text: string) => input().onChange({ target: { value: text } }),
      keyUp: () => input().onKeyUp(at()),
      pointerUp: () => input().onPointerUp(at()),
    };
  }

  it('sends nothing on the key up of the Tab that reached it, or a click that moved nothing', () => {
    const s = slider(2);
    s.keyUp();
    s.pointerUp();
    expect(s.committed).toEqual([]);
  });

  it('commits once where an arrow key or a drag left it', () => {
    const s = slider(2);
    s.move('2.1');
    s.keyUp();
    s.keyUp();
    s.move('3');
    s.move('4');
    s.pointerUp();
    expect(s.committed).toEqual(['2.1', '4']);
  });
});
