import type { GatewayConfig } from '../config/config-schema.js';
import { openStorage } from '../storage/open-storage.js';
import { nanoToDecimal } from './keys-command.js';
import { UsageError } from './main.js';

/** `switchyard usage`: spend and tokens by key, model and UTC day, from the ledger. */
export async function runUsageCommand(config: GatewayConfig, options: { key?: string | undefined; since?: string | undefined; json?: boolean | undefined }): Promise<number> {
  if (options.since !== undefined && !/^\d{4}-\d{2}-\d{2}$/.test(options.since)) throw new UsageError(`--since: expected YYYY-MM-DD, got '${options.since}'`);
  const storage = await openStorage(config.database.url);
  try {
    await storage.migrate();
    const rows = await storage.ledger.totals({
      ...(options.key ? { keyId: options.key } : {}),
      ...(options.since ? { since: new Date(`${options.since}T00:00:00Z`) } : {}),
    });
    const described = rows.map((row) => ({ ...row, cost_usd: nanoToDecimal(row.costNanoUsd), costNanoUsd: row.costNanoUsd.toString() }));
    if (options.json) console.log(JSON.stringify(described));
    else for (const row of described) console.log(`${row.day}  ${row.keyId ?? '(anonymous)'}  ${row.model}  requests=${row.requests}  input=${row.inputTokens}  output=${row.outputTokens}  images=${row.images}  video_seconds=${row.videoSeconds}  cost=$${row.cost_usd}`);
    return 0;
  } finally {
    await storage.close();
  }
}
