import type { GatewayConfig } from '../config/config-schema.js';
import { openStorage } from '../storage/open-storage.js';

export async function runMigrateCommand(config: GatewayConfig): Promise<number> {
  const storage = await openStorage(config.database.url);
  try {
    await storage.migrate();
    console.log(`database schema is up to date (${storage.dialect})`);
    return 0;
  } finally {
    await storage.close();
  }
}
