/**
 * Client-side validation of one config field with the engine's own schema (shared/config.ts), so
 * a value out of range is refused before it is sent, with the same wording the engine would use.
 */
import {
  engineConfigPatchSchema,
  issueField,
  type EngineConfigPatch,
} from '../../../shared/config.ts';
import { graphConfigPatchSchema, type GraphConfigPatch } from '../../../shared/protocol.ts';

export type FieldCheck =
  | { ok: true; patch: EngineConfigPatch | GraphConfigPatch }
  | { ok: false; field: string; message: string };

export function checkField(field: string, value: unknown): FieldCheck {
  const schema =
    field in graphConfigPatchSchema.shape ? graphConfigPatchSchema : engineConfigPatchSchema;
  const parsed = schema.safeParse({ [field]: value });
  if (parsed.success)
    return { ok: true, patch: parsed.data as EngineConfigPatch | GraphConfigPatch };
  const issue = parsed.error.issues[0];
  const path = issue === undefined ? field : issueField(issue.path);
  return {
    ok: false,
    field,
    message: `${path} ${issue === undefined ? 'is invalid' : requirement(issue)}`,
  };
}

/** zod's issue as the engine words it: `must be > 1`, `must be ≤ 16`, `must be a number`. */
function requirement(issue: {
  code: string;
  message: string;
  minimum?: unknown;
  maximum?: unknown;
  inclusive?: boolean;
  expected?: unknown;
}): string {
  if (issue.code === 'too_small' && typeof issue.minimum === 'number') {
    return `must be ${issue.inclusive === true ? '≥' : '>'} ${issue.minimum}`;
  }
  if (issue.code === 'too_big' && typeof issue.maximum === 'number') {
    return `must be ${issue.inclusive === true ? '≤' : '<'} ${issue.maximum}`;
  }
  if (issue.code === 'invalid_type') return `must be a ${String(issue.expected)}`;
  return issue.message;
}

/** Parses a number field's text; NaN for text that is not a number. */
export function numberOf(text: string): number {
  return text.trim() === '' ? Number.NaN : Number(text);
}
