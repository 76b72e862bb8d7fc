/**
 * Client-side validation of one config field with the engine's own schema (shared/config.ts), so
 * a value out of range is refused before it is sent, in the engine's own words
 * (shared/schema-error.ts: `levelThresholdsMs[2] must be > the previous threshold`).
 */
import { engineConfigPatchSchema, type EngineConfigPatch } from '../../../shared/config.ts';
import { graphConfigPatchSchema, type GraphConfigPatch } from '../../../shared/protocol.ts';
import { PRIORITY_MAX, PRIORITY_MIN } from '../../../shared/lib/priority-bands.ts';
import { schemaError } from '../../../shared/schema-error.ts';

export type FieldCheck =
  | { ok: true; patch: EngineConfigPatch | GraphConfigPatch }
  | { ok: false; field: string; message: string };

/** `field` is the control's key, so the message lands under that control whatever it names. */
export function checkField(field: string, value: unknown): FieldCheck {
  const schema =
    field in graphConfigPatchSchema.shape ? graphConfigPatchSchema : engineConfigPatchSchema;
  const parsed = schema.safeParse({ [field]: value });
  if (parsed.success)
    return { ok: true, patch: parsed.data as EngineConfigPatch | GraphConfigPatch };
  return {
    ok: false,
    field,
    message: schemaError(parsed.error, 'INVALID_CONFIG', [], 'config').message,
  };
}

/** Parses a number field's text; NaN for text that is not a number. */
export function numberOf(text: string): number {
  return text.trim() === '' ? Number.NaN : Number(text);
}

export type PriorityCheck = { ok: true; priority: number } | { ok: false; message: string };

/**
 * A PRIO priority typed in a box: a plain decimal whole number in range. `Number` alone would
 * take '' as 0 and '0x10' as 16, sending a priority the user never typed. `field`: the name the
 * refusal gives it (a submitted job's is `basePriority`).
 */
export function priorityOf(text: string, field = 'priority'): PriorityCheck {
  const t = text.trim();
  const n = /^\d{1,3}$/.test(t) ? Number(t) : Number.NaN;
  if (n >= PRIORITY_MIN && n <= PRIORITY_MAX) return { ok: true, priority: n };
  return {
    ok: false,
    message: `${field} must be a whole number from ${PRIORITY_MIN} to ${PRIORITY_MAX}`,
  };
}
