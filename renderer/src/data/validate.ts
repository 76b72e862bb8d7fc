/**
 * Client-side validation of one config field with the engine's own schema (shared/config.ts), so
 * a value out of range is refused before it is sent, in the engine's own words
 * (shared/schema-error.ts: `levelThresholdsMs[2] must be > the previous threshold`).
 */
import { engineConfigPatchSchema, type EngineConfigPatch } from '../../../shared/config.ts';
import { graphConfigPatchSchema, type GraphConfigPatch } from '../../../shared/protocol.ts';
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
