import { useState } from 'preact/hooks';
import { getJson, messageOf, sendJson } from '../api.js';
import { KeyForm, type KeySettings } from '../parts/key-form.js';
import { KeySecret } from '../parts/key-secret.js';
import { RotateForm, type RotateGrace } from '../parts/rotate-form.js';
import { ErrorNotice } from '../parts/notice.js';
import { SpendMeters } from '../parts/spend-meter.js';
import { showTime } from '../parts/time.js';
import { useLoad } from '../parts/use-load.js';
import type { KeyObject, KeyWithSecret, List } from '../types.js';

type Editing = { mode: 'none' } | { mode: 'create' } | { mode: 'edit'; key: KeyObject } | { mode: 'rotate'; key: KeyObject };

/** Every key with its scopes, limits and spend against its budgets; create, edit, rotate, revoke. */
export function KeysPage() {
  const keys = useLoad(() => getJson<List<KeyObject>>('/admin/keys'), [], 15_000);
  const [editing, setEditing] = useState<Editing>({ mode: 'none' });
  const [secret, setSecret] = useState<{ name: string; secret: string; note?: string }>();
  const [error, setError] = useState<string>();
  const act = async (action: () => Promise<void>) => {
    setError(undefined);
    try {
      await action();
      keys.reload();
    } catch (caught) {
      setError(messageOf(caught));
    }
  };
  const create = (settings: KeySettings) =>
    act(async () => {
      const created = await sendJson<KeyWithSecret>('/admin/keys', 'POST', settings);
      setSecret({ name: created.name, secret: created.key });
      setEditing({ mode: 'none' });
    });
  const update = (key: KeyObject) => (settings: KeySettings) =>
    act(async () => {
      await sendJson<KeyObject>(`/admin/keys/${encodeURIComponent(key.id)}`, 'PATCH', settings);
      setEditing({ mode: 'none' });
    });
  const rotate = (key: KeyObject) => (grace: RotateGrace) =>
    act(async () => {
      const rotated = await sendJson<KeyWithSecret>(`/admin/keys/${encodeURIComponent(key.id)}/rotate`, 'POST', grace === 'none' ? { grace_seconds: 0 } : {});
      const note = grace === 'none' ? 'The previous secret no longer works.' : `The previous secret works until ${showTime(rotated.previous_key_expires_at)}.`;
      setSecret({ name: rotated.name, secret: rotated.key, note });
      setEditing({ mode: 'none' });
    });
  const revoke = (key: KeyObject) =>
    act(async () => {
      if (!confirm(`Revoke “${key.name}”? Calls with it are refused from now on.`)) return;
      await getJson<KeyObject>(`/admin/keys/${encodeURIComponent(key.id)}`, { method: 'DELETE' });
    });
  return (
    <section>
      <div class="toolbar">
        <button type="button" onClick={() => setEditing({ mode: 'create' })} disabled={editing.mode === 'create'}>
          New key
        </button>
      </div>
      <ErrorNotice error={error ?? keys.error} />
      {secret === undefined ? null : <KeySecret {...secret} onDone={() => setSecret(undefined)} />}
      {editing.mode === 'create' ? <KeyForm onSubmit={create} onCancel={() => setEditing({ mode: 'none' })} /> : null}
      {editing.mode === 'edit' ? <KeyForm key={editing.key.id} apiKey={editing.key} onSubmit={update(editing.key)} onCancel={() => setEditing({ mode: 'none' })} /> : null}
      {editing.mode === 'rotate' ? (
        <RotateForm key={editing.key.id} apiKey={editing.key} onRotate={(grace) => void rotate(editing.key)(grace)} onCancel={() => setEditing({ mode: 'none' })} />
      ) : null}
      <div class="table-wrap">
        <table>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Status</th>
              <th scope="col">Scopes</th>
              <th scope="col">Limits</th>
              <th scope="col">Spend</th>
              <th scope="col">Last used</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {(keys.data?.data ?? []).map((key) => (
              <tr key={key.id} data-key-id={key.id}>
                <td>
                  <strong class="id">{key.name}</strong>
                  <div class="hint id">
                    {key.prefix}… · {key.id}
                  </div>
                </td>
                <td>
                  <span class={`badge ${key.status}`}>{key.status}</span>
                  {key.admin ? <span class="badge admin">admin</span> : null}
                </td>
                <td class="id">
                  {key.admin ? 'everything' : `${key.scopes.endpoints?.join(', ') ?? 'all endpoints'}; ${key.scopes.models?.join(', ') ?? 'all models'}`}
                </td>
                <td>{limitsOf(key)}</td>
                <td>
                  <SpendMeters apiKey={key} />
                </td>
                <td>{showTime(key.last_used_at)}</td>
                <td class="row-actions">
                  {key.status === 'revoked' ? null : (
                    <>
                      <button type="button" onClick={() => setEditing({ mode: 'edit', key })} aria-label={`Edit ${key.name}`}>
                        Edit
                      </button>
                      <button type="button" onClick={() => setEditing({ mode: 'rotate', key })} aria-label={`Rotate ${key.name}`}>
                        Rotate
                      </button>
                      <button type="button" class="danger" onClick={() => void revoke(key)} aria-label={`Revoke ${key.name}`}>
                        Revoke
                      </button>
                    </>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

function limitsOf(key: KeyObject): string {
  const limits = [
    key.rpm === null ? undefined : `${key.rpm} rpm`,
    key.tpm === null ? undefined : `${key.tpm} tpm`,
    key.concurrency === null ? undefined : `${key.concurrency} at once`,
    key.expires_at === null ? undefined : `expires ${showTime(key.expires_at)}`,
  ].filter((item) => item !== undefined);
  return limits.length === 0 ? 'none' : limits.join(' · ');
}
