/**
 * What every knob's field shares (controls-view.tsx `Field`, tenant-weights-field.tsx): the frame
 * of label, range, help, the engine's echo and the error, and the text input applied with Enter or
 * on leaving it.
 */
import type { ReactNode } from 'react';

/** A knob's help on a read-only host (`Snapshot.readOnly`), where it is disabled. */
export const READ_ONLY_HELP =
  'read-only: the service’s console takes no changes (allowControl is off)';

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
 * the edit. The caller keeps the draft and whether it is being edited.
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
      onFocus={() => props.onEdit(true)}
      onChange={(e) => props.onDraft(e.target.value)}
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
