/**
 * The question a switch asks while the old work still has live jobs — a preset switch
 * (Workloads) or a backend switch (the header): let them drain first, cancel them, or go back.
 * One dialog for both; `testId` names it and its buttons (`-drain`, `-cancel`, `-back`).
 */
import type { ReactNode } from 'react';
import type { SwitchChoice } from '../data/preset-switch.ts';

export function SwitchQuestion(props: {
  testId: string;
  /** Drawn inline (in the header) rather than as a block (in a panel). */
  inline?: boolean;
  className?: string;
  drainLabel: string;
  cancelLabel: string;
  onChoose: (choice: SwitchChoice) => void;
  onBack: () => void;
  children: ReactNode;
}) {
  const Box = props.inline === true ? 'span' : 'div';
  const id = props.testId;
  return (
    <Box className={`preset-switch ${props.className ?? ''}`} role="dialog" data-testid={id}>
      <span>{props.children}</span>
      <Box className="actions">
        <button className="btn" data-testid={`${id}-drain`} onClick={() => props.onChoose('drain')}>
          {props.drainLabel}
        </button>
        <button
          className="btn danger"
          data-testid={`${id}-cancel`}
          onClick={() => props.onChoose('cancel')}
        >
          {props.cancelLabel}
        </button>
        <button className="btn" data-testid={`${id}-back`} onClick={props.onBack}>
          back
        </button>
      </Box>
    </Box>
  );
}
