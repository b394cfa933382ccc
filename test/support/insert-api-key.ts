import { displayPrefix, hashApiKey, mintApiKeySecret, mintKeyId } from '../../src/keys/api-key-secret.js';
import type { ApiKeyScopes } from '../../src/keys/api-key.js';
import type { Storage } from '../../src/storage/ports.js';
import { apiKeyRecord } from '../../src/keys/api-key-record.js';

/** Stores a new active key straight in the database, as the CLI would; answers its secret. */
export async function insertApiKey(storage: Storage, name: string, scopes: ApiKeyScopes = { endpoints: null, models: null }): Promise<string> {
  const secret = mintApiKeySecret();
  await storage.keys.insert(apiKeyRecord({
    id: mintKeyId(),
    name,
    prefix: displayPrefix(secret),
    hash: hashApiKey(secret),
    scopes,
    budgetNanoUsd: null,
    rpm: null,
    createdAt: new Date(),
  }));
  return secret;
}
