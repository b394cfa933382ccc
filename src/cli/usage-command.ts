import type { GatewayConfig } from '../config/config-schema.js';
import type { ApiKeyRecord } from '../keys/api-key.js';
import type { LedgerTotals } from '../metering/usage-ledger.js';
import { openStorage } from '../storage/open-storage.js';
import { nanoToDecimal } from './keys-command.js';
import { UsageError } from './main.js';

/**
 * The key `--key` names: a key id, or the name a key was given (what operators remember). A name
 * several keys share is refused with their ids, so the wrong key's spend is never shown.
 */
function keyNamed(keys: readonly ApiKeyRecord[], wanted: string): ApiKeyRecord {
  const byId = keys.find((key) => key.id === wanted);
  if (byId !== undefined) return byId;
  const byName = keys.filter((key) => key.name === wanted);
  if (byName.length === 1 && byName[0] !== undefined) return byName[0];
  if (byName.length > 1) throw new UsageError(`--key: ${byName.length} keys are named '${wanted}' (${byName.map((key) => key.id).join(', ')}); give the id`);
  throw new UsageError(`--key: no key has the id or name '${wanted}' (switchyard keys list shows them)`);
}

/** One row as a machine reads it: the admin API's snake_case names (`GET /admin/usage`). */
function usageRow(row: LedgerTotals, names: ReadonlyMap<string, string>) {
  return {
    day: row.day,
    key_id: row.keyId,
    key_name: row.keyId === null ? null : (names.get(row.keyId) ?? null),
    model: row.model,
    requests: row.requests,
    input_tokens: row.inputTokens,
    output_tokens: row.outputTokens,
    cache_read_tokens: row.cacheReadTokens,
    cache_write_tokens: row.cacheWriteTokens,
    reasoning_tokens: row.reasoningTokens,
    images: row.images,
    video_seconds: row.videoSeconds,
    cost_usd: nanoToDecimal(row.costNanoUsd),
  };
}

/** `switchyard usage`: spend and tokens by key, model and UTC day, from the ledger. */
export async function runUsageCommand(config: GatewayConfig, options: { key?: string | undefined; since?: string | undefined; json?: boolean | undefined }): Promise<number> {
  if (options.since !== undefined && !/^\d{4}-\d{2}-\d{2}$/.test(options.since)) throw new UsageError(`--since: expected YYYY-MM-DD, got '${options.since}'`);
  const storage = await openStorage(config.database.url);
  try {
    await storage.migrate();
    const keys = await storage.keys.list();
    const keyId = options.key ? keyNamed(keys, options.key).id : undefined;
    const names = new Map(keys.map((key) => [key.id, key.name]));
    const rows = await storage.ledger.totals({
      ...(keyId === undefined ? {} : { keyId }),
      ...(options.since ? { since: new Date(`${options.since}T00:00:00Z`) } : {}),
    });
    const described = rows.map((row) => usageRow(row, names));
    if (options.json) console.log(JSON.stringify(described));
    else {
      for (const row of described) {
        const key = row.key_id === null ? '(anonymous)' : `${row.key_name ?? '(unnamed)'} (${row.key_id})`;
        console.log(
          `${row.day}  ${key}  ${row.model}  requests=${row.requests}  input=${row.input_tokens}  output=${row.output_tokens}  images=${row.images}  video_seconds=${row.video_seconds}  cost=$${row.cost_usd}`,
        );
      }
    }
    return 0;
  } finally {
    await storage.close();
  }
}
