import { useState } from 'preact/hooks';
import type { KeyObject } from '../types.js';

/** The endpoint families a key may be scoped to (docs/api.md, "Authentication"). */
const endpointFamilies = ['chat', 'responses', 'messages', 'images', 'videos', 'models'] as const;

export type KeySettings = Record<string, unknown>;

interface Fields {
  name: string;
  admin: boolean;
  allEndpoints: boolean;
  endpoints: string[];
  models: string;
  budget_usd: string;
  daily_budget_usd: string;
  monthly_budget_usd: string;
  rpm: string;
  tpm: string;
  concurrency: string;
  expires_at: string;
}

function fieldsOf(key: KeyObject | undefined): Fields {
  return {
    name: key?.name ?? '',
    admin: key?.admin ?? false,
    allEndpoints: key?.scopes.endpoints === null || key === undefined,
    endpoints: key?.scopes.endpoints ?? [],
    models: key?.scopes.models?.join(', ') ?? '',
    budget_usd: key?.budget_usd ?? '',
    daily_budget_usd: key?.daily_budget_usd ?? '',
    monthly_budget_usd: key?.monthly_budget_usd ?? '',
    rpm: key?.rpm?.toString() ?? '',
    tpm: key?.tpm?.toString() ?? '',
    concurrency: key?.concurrency?.toString() ?? '',
    expires_at: key?.expires_at?.slice(0, 10) ?? '',
  };
}

/** The form's fields as the admin API takes them: an empty field is `null` (no limit) when editing, left out when creating. */
function settingsOf(fields: Fields, editing: boolean): KeySettings {
  const blank = (value: string) => (value.trim() === '' ? (editing ? null : undefined) : value.trim());
  const whole = (value: string) => (value.trim() === '' ? (editing ? null : undefined) : Number(value));
  const models = fields.models.split(',').map((model) => model.trim()).filter((model) => model !== '');
  const settings: KeySettings = {
    name: fields.name.trim(),
    budget_usd: blank(fields.budget_usd),
    daily_budget_usd: blank(fields.daily_budget_usd),
    monthly_budget_usd: blank(fields.monthly_budget_usd),
    rpm: whole(fields.rpm),
    tpm: whole(fields.tpm),
    concurrency: whole(fields.concurrency),
    expires_at: blank(fields.expires_at),
  };
  if (!editing) settings.admin = fields.admin;
  if (!fields.admin) settings.scopes = { endpoints: fields.allEndpoints ? null : fields.endpoints, models: models.length === 0 ? null : models };
  for (const name of Object.keys(settings)) if (settings[name] === undefined) delete settings[name];
  return settings;
}

/** When editing, only what the form changed is sent: an untouched expiry is not rounded to its day. */
function changedSettings(before: Fields, after: Fields): KeySettings {
  const old = settingsOf(before, true);
  const changed = settingsOf(after, true);
  for (const name of Object.keys(changed)) if (JSON.stringify(changed[name]) === JSON.stringify(old[name])) delete changed[name];
  return changed;
}

/** Creating a key (no `apiKey`) or editing one: name, scopes, limits, budgets and expiry. */
export function KeyForm(props: { apiKey?: KeyObject; onSubmit: (settings: KeySettings) => Promise<void>; onCancel: () => void }) {
  const editing = props.apiKey !== undefined;
  const [fields, setFields] = useState(() => fieldsOf(props.apiKey));
  const [busy, setBusy] = useState(false);
  const set = (name: keyof Fields) => (event: Event) => {
    const input = event.currentTarget as HTMLInputElement;
    setFields({ ...fields, [name]: input.type === 'checkbox' ? input.checked : input.value });
  };
  const text = (name: keyof Fields, label: string, hint?: string) => (
    <label class="field">
      <span>{label}</span>
      <input name={name} value={fields[name] as string} onInput={set(name)} inputMode={hint === 'number' ? 'numeric' : undefined} placeholder={hint === 'number' ? 'no limit' : hint} />
    </label>
  );
  return (
    <form
      class="panel form"
      aria-label={editing ? `Edit ${props.apiKey?.name ?? ''}` : 'New key'}
      onSubmit={(event) => {
        event.preventDefault();
        setBusy(true);
        props.onSubmit(editing ? changedSettings(fieldsOf(props.apiKey), fields) : settingsOf(fields, false)).finally(() => setBusy(false));
      }}
    >
      <h2>{editing ? `Edit “${props.apiKey?.name ?? ''}”` : 'New key'}</h2>
      <div class="grid">
        <label class="field">
          <span>Name</span>
          <input name="name" required value={fields.name} onInput={set('name')} />
        </label>
        {editing ? null : (
          <label class="check">
            <input type="checkbox" name="admin" checked={fields.admin} onChange={set('admin')} /> Admin key
          </label>
        )}
        {fields.admin ? null : (
          <>
            {text('models', 'Models (comma-separated; empty: all)', 'all models')}
            <fieldset class="endpoints">
              <legend>Endpoints</legend>
              <label class="check">
                <input type="checkbox" checked={fields.allEndpoints} onChange={set('allEndpoints')} /> All
              </label>
              {fields.allEndpoints
                ? null
                : endpointFamilies.map((family) => (
                    <label class="check" key={family}>
                      <input
                        type="checkbox"
                        checked={fields.endpoints.includes(family)}
                        onChange={(event) =>
                          setFields({ ...fields, endpoints: event.currentTarget.checked ? [...fields.endpoints, family] : fields.endpoints.filter((item) => item !== family) })
                        }
                      />{' '}
                      {family}
                    </label>
                  ))}
            </fieldset>
          </>
        )}
        {text('budget_usd', 'Budget, total (USD)', 'no budget')}
        {text('monthly_budget_usd', 'Budget per month (USD)', 'no budget')}
        {text('daily_budget_usd', 'Budget per day (USD)', 'no budget')}
        {text('rpm', 'Requests per minute', 'number')}
        {text('tpm', 'Tokens per minute', 'number')}
        {text('concurrency', 'Concurrent calls', 'number')}
        {text('expires_at', 'Expires (YYYY-MM-DD)', 'never')}
      </div>
      <div class="actions">
        <button type="submit" disabled={busy}>
          {editing ? 'Save' : 'Create key'}
        </button>
        <button type="button" class="quiet" onClick={props.onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
