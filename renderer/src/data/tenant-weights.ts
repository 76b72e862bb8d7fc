/**
 * The tenant weights under `fair` as an operator writes them: `gold=3, silver=2`, every tenant not
 * named weight 1 (the engine's `setTenantWeights`). Checked with the engine's own schema
 * (shared/job.ts) before anything is sent, so a bad weight is refused in the engine's words.
 */
import { tenantWeightsSchema } from '../../../shared/job.ts';
import { schemaError } from '../../../shared/schema-error.ts';
import type { AppStore } from '../store/app-store.ts';
import type { Transport } from '../transport/transport.ts';
import { sendCommand } from './commands.ts';

export const WEIGHTS_FIELD = 'tenantWeights';

export type WeightsParse =
  { ok: true; weights: Record<string, number> } | { ok: false; message: string };

/** `{ gold: 3, silver: 2 }` → `gold=3, silver=2`, by name; `''` when every tenant has weight 1. */
export function formatWeights(weights: Readonly<Record<string, number>>): string {
  return Object.keys(weights)
    .sort()
    .map((name) => `${name}=${weights[name]}`)
    .join(', ');
}

/**
 * `gold=3, silver=2` (commas or new lines between) → weights. A tenant's name is what comes
 * before the last `=`, trimmed; empty text sets every tenant back to 1.
 */
export function parseWeights(text: string): WeightsParse {
  const weights: Record<string, number> = {};
  for (const item of text.split(/[,\n]/)) {
    const entry = item.trim();
    if (entry === '') continue;
    const at = entry.lastIndexOf('=');
    const name = at < 0 ? entry : entry.slice(0, at).trim();
    const value = at < 0 ? '' : entry.slice(at + 1).trim();
    if (at <= 0 || name === '' || value === '' || !Number.isFinite(Number(value))) {
      return {
        ok: false,
        message: `${WEIGHTS_FIELD}: write each as tenant=weight, not '${entry}'`,
      };
    }
    if (name in weights) {
      return { ok: false, message: `${WEIGHTS_FIELD}.${name}: named twice` };
    }
    weights[name] = Number(value);
  }
  const parsed = tenantWeightsSchema.safeParse(weights);
  if (!parsed.success) {
    return {
      ok: false,
      message: schemaError(parsed.error, 'INVALID_ARGUMENT', [WEIGHTS_FIELD], WEIGHTS_FIELD)
        .message,
    };
  }
  return { ok: true, weights: parsed.data };
}

/**
 * Sends the weights written in `text` (`setTenantWeights`); a parse or engine error lands under
 * the field and changes nothing. Returns the weights now, or null when refused.
 */
export async function applyWeights(
  transport: Transport,
  store: AppStore,
  text: string,
): Promise<Record<string, number> | null> {
  const parsed = parseWeights(text);
  if (!parsed.ok) {
    store.getState().setFieldError(WEIGHTS_FIELD, parsed.message);
    return null;
  }
  const command = { type: 'setTenantWeights', weights: parsed.weights } as const;
  const result = await sendCommand(transport, store, command, WEIGHTS_FIELD);
  return result.ok ? result.weights : null;
}

/** The weights now (`tenantWeights`, read-only); null when the host refused or failed. */
export async function readWeights(transport: Transport): Promise<Record<string, number> | null> {
  const result = await transport.send({ type: 'tenantWeights' });
  return result.ok ? result.weights : null;
}
