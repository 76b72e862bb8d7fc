/**
 * What every knob's field shares (controls-view.tsx `Field`, tenant-weights-field.tsx): the frame
 * of label, range, help, the engine's echo and the error, the text input applied with Enter or
 * on leaving it, and the slider applied on letting go.
 */
import type { ReactNode } from 'react';

export function FieldShell(props: {
  /** The control's key: ids and test ids (`field-…`, `echo-…`, `error-…`) derive from it. */
  field: string;
  label: ReactNode;
  range: ReactNode;
  help: ReactNode;
  echo: ReactNode;
  error: string | undefined;
  children: ReactNode;
}) {
  const { field, error } = props;
  return (
    <div className={error === undefined ? 'field' : 'field invalid'}>
      <label htmlFor={`field-${field}`}>
        {props.label}
        <span className="range">{props.range}</span>
      </label>
      {props.children}
      <div className="field-meta">
        <span className="help">{props.help}</span>
        <span className="echo" data-testid={`echo-${field}`}>
          engine: {props.echo}
        </span>
      </div>
      {error !== undefined && (
        <div className="field-error" role="alert" data-testid={`error-${field}`}>
          {error}
        </div>
      )}
    </div>
  );
}

/**
 * A text input the user edits freely: Enter or leaving it (while editing) commits, Escape drops
 * the edit. The caller keeps the draft and whether it is being edited, which starts with the
 * first keystroke, not with focus: a field only passed through (Tab) sends nothing, and keeps
 * showing the engine's value, which another client may change meanwhile.
 */
export function CommitInput(props: {
  field: string;
  value: string;
  disabled: boolean;
  editing: boolean;
  className?: string;
  placeholder?: string;
  inputMode?: 'decimal';
  onEdit(editing: boolean): void;
  onDraft(text: string): void;
  onCommit(): void;
  onCancel(): void;
}) {
  const id = `field-${props.field}`;
  return (
    <input
      id={id}
      data-testid={id}
      className={props.className}
      placeholder={props.placeholder}
      inputMode={props.inputMode}
      value={props.value}
      disabled={props.disabled}
      onChange={(e) => {
        props.onEdit(true);
        props.onDraft(e.target.value);
      }}
      onBlur={() => {
        if (props.editing) props.onCommit();
      }}
      onKeyDown={(e) => {
        if (e.key === 'Enter') props.onCommit();
        if (e.key === 'Escape') props.onCancel();
      }}
    />
  );
}

/**
 * A slider beside a number field: dragging or arrow keys move the draft, and letting go (pointer
 * or key up) commits it, only when it moved: the key up of the Tab that reached it, or a click
 * that leaves it where it was, sends nothing. The caller keeps whether it moved.
 */
export function CommitSlider(props: {
  field: string;
  min: number | undefined;
  max: number | undefined;
  step: number | undefined;
  value: number;
  disabled: boolean;
  moved: boolean;
  onMoved(moved: boolean): void;
  onDraft(text: string): void;
  onCommit(text: string): void;
}) {
  const release = (text: string) => {
    if (!props.moved) return;
    props.onMoved(false);
    props.onCommit(text);
  };
  return (
    <input
      type="range"
      data-testid={`slider-${props.field}`}
      min={props.min}
      max={props.max}
      step={props.step}
      value={props.value}
      disabled={props.disabled}
      onChange={(e) => {
        props.onMoved(true);
        props.onDraft(e.target.value);
      }}
      onPointerUp={(e) => release(e.currentTarget.value)}
      onKeyUp={(e) => release(e.currentTarget.value)}
    />
  );
}
