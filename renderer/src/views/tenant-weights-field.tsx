/**
 * The tenants' weights under `fair`, beside the other knobs: written as `gold=3, silver=2`,
 * applied with Enter (or on leaving the field), the engine's weights echoed under it. They are
 * read again whenever frames say they changed (another client, or the service itself).
 */
import { useEffect, useState } from 'react';
import { MAX_TENANT_WEIGHT, MIN_TENANT_WEIGHT } from '../../../shared/job.ts';
import { useApp, useAppState } from '../context.ts';
import { applyWeights, formatWeights, readWeights, WEIGHTS_FIELD } from '../data/tenant-weights.ts';

export function TenantWeightsField() {
  const { transport, store } = useApp();
  const version = useAppState((s) => s.tenantWeightsVersion);
  const connected = useAppState((s) => s.status === 'open');
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

  const id = `field-${WEIGHTS_FIELD}`;
  const echoText = echo === null ? '—' : formatWeights(echo) || 'every tenant 1';
  return (
    <div className={error === undefined ? 'field' : 'field invalid'}>
      <label htmlFor={id}>
        Weights
        <span className="range">
          {MIN_TENANT_WEIGHT} – {MAX_TENANT_WEIGHT}
        </span>
      </label>
      <div className="field-inputs">
        <input
          id={id}
          data-testid={id}
          className="wide"
          placeholder="gold=3, silver=2"
          value={draft}
          disabled={!enabled}
          onFocus={() => setEditing(true)}
          onChange={(e) => setDraft(e.target.value)}
          onBlur={() => {
            if (editing) void commit();
          }}
          onKeyDown={(e) => {
            if (e.key === 'Enter') void commit();
            if (e.key === 'Escape') {
              setEditing(false);
              store.getState().setFieldError(WEIGHTS_FIELD, null);
            }
          }}
        />
      </div>
      <div className="field-meta">
        <span className="help">
          {!reported
            ? 'this host does not report tenant weights'
            : connected
              ? 'each tenant’s share of the workers; tenants not named get 1'
              : 'disconnected: changes wait for the engine'}
        </span>
        <span className="echo" data-testid={`echo-${WEIGHTS_FIELD}`}>
          engine: {echoText}
        </span>
      </div>
      {error !== undefined && (
        <div className="field-error" role="alert" data-testid={`error-${WEIGHTS_FIELD}`}>
          {error}
        </div>
      )}
    </div>
  );
}
