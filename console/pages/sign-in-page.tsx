import { useState } from 'preact/hooks';
import { ApiError, call, messageOf } from '../api.js';
import { saveAdminKey } from '../session.js';

/**
 * Sign-in with an admin key. The key is tried on the admin API before it is kept: a key that is
 * not an admin key (403) or not a key at all (401) is refused here with the reason.
 */
export function SignInPage(props: { onSignedIn: () => void }) {
  const [key, setKey] = useState('');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      await call('/admin/keys?limit=1', {}, key.trim());
      saveAdminKey(key.trim());
      props.onSignedIn();
    } catch (caught) {
      if (caught instanceof ApiError && caught.status === 403) setError('This key is not an admin key. The console needs a key created with --admin.');
      else if (caught instanceof ApiError && caught.status === 401) setError('This key is not valid: it is unknown, revoked or expired.');
      else setError(`Sign-in failed: ${messageOf(caught)}`);
    } finally {
      setBusy(false);
    }
  };
  return (
    <main class="sign-in">
      <h1>Switchyard console</h1>
      <form onSubmit={submit}>
        <label for="admin-key">Admin key</label>
        <input id="admin-key" name="admin-key" type="password" autocomplete="off" required value={key} onInput={(event) => setKey(event.currentTarget.value)} />
        <p class="hint">Kept in this tab only (sessionStorage) and sent only to this gateway.</p>
        <button type="submit" disabled={busy || key.trim() === ''}>
          Sign in
        </button>
        {error === undefined ? null : (
          <p class="error" role="alert">
            {error}
          </p>
        )}
      </form>
    </main>
  );
}
