import { apiKeyRecord } from '../../src/keys/api-key-record.js';
import { displayPrefix, hashApiKey, mintApiKeySecret, mintKeyId } from '../../src/keys/api-key-secret.js';
import type { Storage } from '../../src/storage/ports.js';

/** Stores a new active key straight in the database; answers its id and secret. */
export async function insertKey(storage: Storage, name: string, admin: boolean): Promise<{ id: string; secret: string }> {
  const secret = mintApiKeySecret();
  const id = mintKeyId();
  await storage.keys.insert(apiKeyRecord({ id, name, prefix: displayPrefix(secret), hash: hashApiKey(secret), admin, createdAt: new Date() }));
  return { id, secret };
}

/** RFC 4180 CSV (quoted fields with doubled quotes and line breaks inside), rows of fields; a trailing line ending ends the last row. */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let index = 0; index < text.length; index++) {
    const character = text[index] as string;
    if (quoted) {
      if (character === '"' && text[index + 1] === '"') {
        field += '"';
        index += 1;
      } else if (character === '"') quoted = false;
      else field += character;
    } else if (character === '"') quoted = true;
    else if (character === ',') {
      row.push(field);
      field = '';
    } else if (character === '\r' && text[index + 1] === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      index += 1;
    } else field += character;
  }
  if (field !== '' || row.length > 0) rows.push([...row, field]);
  return rows;
}
