/**
 * The tenants' weights under `fair`, beside the other knobs: written as `gold=3, silver=2`,
 * applied with Enter (or on leaving the field), the engine's weights echoed under it. They are
 * read again whenever frames say they changed (another client, or the service itself).
 */
import { useEffect, useState } from 'react';
import { MAX_TENANT_WEIGHT, MIN_TENANT_WEIGHT } from '../../../shared/job.ts';
import { useApp, useAppState } from '../context.ts';
import { applyWeights, formatWeights, readWeights, WEIGHTS_FIELD } from '../data/tenant-weights.ts';
import { CommitInput, FieldShell } from './field-parts.tsx';
import { READ_ONLY_REASON } from '../store/app-store.ts';

export function TenantWeightsField() {
  const { transport, store } = useApp();
  const version = useAppState((s) => s.tenantWeightsVersion);
  const connected = useAppState((s) => s.status === 'open');
  const readOnly = useAppState((s) => s.readOnly);
  const error = useAppState((s) => s.fieldErrors[WEIGHTS_FIELD]);
  const [echo, setEcho] = useState<Record<string, number> | null>(null);
  const [draft, setDraft] = useState('');
  const [editing, setEditing] = useState(false);
  const reported = version !== null;
  const enabled = reported && connected;

  useEffect(() => {
    if (!enabled) return;
    let current = true;
    void readWeights(transport).then((w) => {
      if (current && w !== null) setEcho(w);
    });
    return () => {
      current = false;
    };
  }, [transport, enabled, version]);

  // Follow the engine's weights unless the user is typing.
  useEffect(() => {
    if (!editing && echo !== null) setDraft(formatWeights(echo));
  }, [echo, editing]);

  const commit = async () => {
    const weights = await applyWeights(transport, store, draft);
    if (weights !== null) {
      setEcho(weights);
      setEditing(false);
    }
  };

  const echoText = echo === null ? '—' : formatWeights(echo) || 'every tenant 1';
  return (
    <FieldShell
      field={WEIGHTS_FIELD}
      label="Weights"
      range={
        <>
          {MIN_TENANT_WEIGHT} – {MAX_TENANT_WEIGHT}
        </>
      }
      help={
        !reported
          ? 'this host does not report tenant weights'
          : !connected
            ? 'disconnected: changes wait for the engine'
            : readOnly
              ? READ_ONLY_REASON
              : 'each tenant’s share of the workers; tenants not named get 1'
      }
      echo={echoText}
      error={error}
    >
      <div className="field-inputs">
        <CommitInput
          field={WEIGHTS_FIELD}
          className="wide"
          placeholder="gold=3, silver=2"
          value={draft}
          disabled={!enabled || readOnly}
          editing={editing}
          onEdit={setEditing}
          onDraft={setDraft}
          onCommit={() => void commit()}
          onCancel={() => {
            setEditing(false);
            store.getState().setFieldError(WEIGHTS_FIELD, null);
          }}
        />
      </div>
    </FieldShell>
  );
}
