/**
 * The app's keyboard shortcuts (the footer lists them): which one a key press means, given the
 * element that has the focus. Pure, so it is tested without a DOM; app.tsx acts on the answer.
 */

export type Shortcut =
  | { kind: 'pause' }
  | { kind: 'search' }
  | { kind: 'zoom'; factor: number }
  | { kind: 'follow' }
  | { kind: 'view'; index: number };

/** What the decision reads of the focused element (an `HTMLElement` has all of it). */
export interface FocusTarget {
  readonly tagName: string;
  readonly isContentEditable: boolean;
  getAttribute(name: string): string | null;
}

const TYPING_TAGS = new Set(['INPUT', 'SELECT', 'TEXTAREA']);
const CONTROL_TAGS = new Set([...TYPING_TAGS, 'BUTTON', 'A', 'SUMMARY']);
const CONTROL_ROLES = new Set([
  'button',
  'tab',
  'link',
  'checkbox',
  'radio',
  'switch',
  'menuitem',
  'option',
  'slider',
  'spinbutton',
  'textbox',
  'combobox',
]);

function asTarget(target: EventTarget | FocusTarget | null): FocusTarget | null {
  const el = target as Partial<FocusTarget> | null;
  return el !== null && typeof el.tagName === 'string' ? (el as FocusTarget) : null;
}

/** Keys typed here are text: no shortcut may take them. */
function isTyping(el: FocusTarget): boolean {
  return el.isContentEditable || TYPING_TAGS.has(el.tagName.toUpperCase());
}

/** Space on a control presses, ticks or types it; the browser must get it, not the pause. */
function isControl(el: FocusTarget): boolean {
  const role = el.getAttribute('role');
  return (
    isTyping(el) || CONTROL_TAGS.has(el.tagName.toUpperCase()) || CONTROL_ROLES.has(role ?? '')
  );
}

/** The shortcut `key` means with the focus on `target` (the keydown's target), or null. */
export function shortcutOf(key: string, target: EventTarget | FocusTarget | null): Shortcut | null {
  const el = asTarget(target);
  if (el !== null && isTyping(el)) return null;
  if (key === ' ') return el !== null && isControl(el) ? null : { kind: 'pause' };
  if (key === '/') return { kind: 'search' };
  if (key === '+' || key === '=') return { kind: 'zoom', factor: 1 / 1.5 };
  if (key === '-' || key === '_') return { kind: 'zoom', factor: 1.5 };
  if (key === 'f') return { kind: 'follow' };
  if (key >= '1' && key <= '5' && key.length === 1) return { kind: 'view', index: Number(key) - 1 };
  return null;
}
