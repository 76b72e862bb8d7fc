/**
 * The question a switch asks while the old work still has live jobs — a preset switch
 * (Workloads) or a backend switch (the header): let them drain first, cancel them, or go back.
 * One dialog for both; `testId` names it and its buttons (`-drain`, `-cancel`, `-back`).
 * A keyboard user keeps their place: it takes the focus on its first choice, and gives it back
 * to the control that asked once answered (removed, it would leave the focus on the page).
 */
import { useEffect, useRef, type ReactNode, type RefObject } from 'react';
import type { SwitchChoice } from '../data/preset-switch.ts';

/** Focuses `first` while mounted; on unmount, gives the focus back to whatever had it before. */
function useFocusReturn(first: RefObject<HTMLButtonElement | null>): void {
  useEffect(() => {
    const opener = document.activeElement;
    const box = first.current?.closest('[role="dialog"]') ?? null;
    first.current?.focus();
    return () => {
      // Only when the focus was lost with the question (not when the user went elsewhere). The
      // browser may not have moved it off the removed button yet (Chromium does so later, at
      // its next rendering): still on it, or in the question, it is lost all the same.
      const active = document.activeElement;
      const lost =
        active === null ||
        active === document.body ||
        !active.isConnected ||
        (box !== null && box.contains(active));
      if (lost && opener instanceof HTMLElement && opener.isConnected) opener.focus();
    };
  }, [first]);
}

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
  const first = useRef<HTMLButtonElement>(null);
  useFocusReturn(first);
  return (
    <Box className={`preset-switch ${props.className ?? ''}`} role="dialog" data-testid={id}>
      <span>{props.children}</span>
      <Box className="actions">
        <button
          ref={first}
          className="btn"
          data-testid={`${id}-drain`}
          onClick={() => props.onChoose('drain')}
        >
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
