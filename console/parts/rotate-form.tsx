import { useState } from 'preact/hooks';
import type { KeyObject } from '../types.js';

/** How long the current secret keeps working after a rotation: the configured grace, or none at all. */
export type RotateGrace = 'configured' | 'none';

/**
 * The rotation dialog: a new secret, and a choice of what becomes of the current one — working for
 * the configured grace period (clients move over without an outage), or ended at once (a leaked
 * secret, `grace_seconds: 0`).
 */
export function RotateForm(props: { apiKey: KeyObject; onRotate: (grace: RotateGrace) => void; onCancel: () => void }) {
  const [grace, setGrace] = useState<RotateGrace>('configured');
  return (
    <form
      class="panel"
      aria-label="Rotate key"
      onSubmit={(event) => {
        event.preventDefault();
        props.onRotate(grace);
      }}
    >
      <h2>Rotate “{props.apiKey.name}”</h2>
      <p>A new secret is made and shown once. The current secret:</p>
      <label class="check">
        <input type="radio" name="grace" checked={grace === 'configured'} onChange={() => setGrace('configured')} /> keeps working for the grace period, while
        clients move over
      </label>
      <label class="check">
        <input type="radio" name="grace" checked={grace === 'none'} onChange={() => setGrace('none')} /> stops working now (it leaked)
      </label>
      <div class="toolbar">
        <button type="submit">Rotate</button>
        <button type="button" class="quiet" onClick={props.onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
