/**
 * Running a comparison from the Compare view's form in the app store, so the run and its answer
 * land in the store even when the view was left (unmounted) meanwhile; one run at a time, which
 * the user may cancel.
 */
import { COMPARE_FILE, type AppStore } from '../store/app-store.ts';
import type { Transport } from '../transport/transport.ts';
import { errorText } from './commands.ts';
import { buildCompare, type CompareSource } from './compare-rows.ts';

/** The workload the form picked; null when it picked a file and none is loaded yet. */
export function compareSource(preset: string, doc: { doc: unknown } | null): CompareSource | null {
  if (preset !== COMPARE_FILE) return { kind: 'preset', preset };
  return doc === null ? null : { kind: 'workload', doc: doc.doc };
}

/** The preset the form shows: the one picked, or the classic one, or the first the host has. */
export function comparePreset(picked: string | null, presets: readonly string[]): string {
  if (picked !== null) return picked;
  return presets.includes('interactive-vs-scan')
    ? 'interactive-vs-scan'
    : (presets[0] ?? COMPARE_FILE);
}

export async function runCompare(transport: Transport, store: AppStore): Promise<void> {
  const { compare: form, presets, setCompare } = store.getState();
  if (form.running) return;
  const source = compareSource(comparePreset(form.preset, presets), form.doc);
  if (source === null) return setCompare({ error: 'workload: choose a workload file first' });
  const built = buildCompare(source, form.forms, form.durationS * 1000, form.seed);
  if (!built.ok) return setCompare({ error: built.message });
  setCompare({ error: null, cancelled: false, running: true });
  const r = await transport.send(built.command);
  if (r.ok) setCompare({ running: false, result: r });
  // Stopped by the user (`cancelCompare`): said as such, not as an error; the last result stays.
  else if (r.error.code === 'CANCELLED') setCompare({ running: false, cancelled: true });
  else setCompare({ running: false, error: errorText(r.error) });
}

/** Stops the comparison running (the Cancel button, Esc): its answer then says CANCELLED. */
export async function cancelCompare(transport: Transport, store: AppStore): Promise<void> {
  if (!store.getState().compare.running) return;
  const r = await transport.send({ type: 'cancelCompare' });
  if (!r.ok) store.getState().setCompare({ error: errorText(r.error) });
}
