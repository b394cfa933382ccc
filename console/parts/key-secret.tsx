import { CopyButton } from './copy-button.js';

/** A new or rotated key's secret: shown this once, as the API gives it only once. */
export function KeySecret(props: { name: string; secret: string; note?: string; onDone: () => void }) {
  return (
    <div class="panel secret" role="status">
      <h2>Secret of “{props.name}”</h2>
      <p>Copy it now: it is shown only this once.</p>
      <div class="secret-row">
        <code data-testid="new-key-secret">{props.secret}</code>
        <CopyButton text={props.secret} />
      </div>
      {props.note === undefined ? null : <p class="hint">{props.note}</p>}
      <button type="button" class="quiet" onClick={props.onDone}>
        Done
      </button>
    </div>
  );
}
